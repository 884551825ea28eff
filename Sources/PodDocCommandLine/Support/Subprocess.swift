import Foundation

/// A program run to its end, off the main actor, with what it printed.
struct Subprocess: Sendable {
    /// What a finished program left.
    struct Result: Sendable {
        let status: Int32
        let stdout: Data
        let stderr: Data

        var output: String { String(decoding: stdout, as: UTF8.self) }
        var errors: String { String(decoding: stderr, as: UTF8.self) }
    }

    let executable: URL
    let arguments: [String]
    /// Variables set (or, with nil, removed) on top of this process's environment.
    var environment: [String: String?] = [:]
    var directory: URL?

    /// Runs the program and waits for it; its standard input is empty.
    ///
    /// - Throws: ``CommandFailure`` when it cannot be started.
    func run() async throws -> Result {
        let settings = self
        return try await Task.detached {
            let process = Process()
            process.executableURL = settings.executable
            process.arguments = settings.arguments
            var environment = ProcessInfo.processInfo.environment
            for (name, value) in settings.environment { environment[name] = value }
            process.environment = environment
            if let directory = settings.directory { process.currentDirectoryURL = directory }
            let output = Pipe()
            let errors = Pipe()
            process.standardOutput = output
            process.standardError = errors
            process.standardInput = FileHandle.nullDevice
            do {
                try process.run()
            } catch {
                throw CommandFailure(
                    .unavailable, code: "cannotRun", "Could not run \(settings.executable.path): \(error.localizedDescription).")
            }
            // Both pipes are drained at once: a program that fills one while the other is
            // read would wait forever.
            let errorsRead = Task.detached { errors.fileHandleForReading.readDataToEndOfFile() }
            let stdout = output.fileHandleForReading.readDataToEndOfFile()
            let stderr = await errorsRead.value
            process.waitUntilExit()
            return Result(status: process.terminationStatus, stdout: stdout, stderr: stderr)
        }.value
    }

    /// This program (`poddoc`) itself, wherever it was started from.
    static var poddoc: URL {
        let link = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        return URL(fileURLWithPath: link).standardizedFileURL
    }

    /// A program found on `PATH`, or nil.
    static func find(_ name: String) -> URL? {
        for folder in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let candidate = URL(fileURLWithPath: String(folder)).appending(path: name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        return nil
    }
}

/// `git`, run in a work tree (or anywhere, for `--global` settings).
struct Git: Sendable {
    let executable: URL
    let directory: URL

    /// - Throws: ``CommandFailure`` (`unavailable`) when git is not installed.
    init(in directory: URL) throws {
        guard let git = Subprocess.find("git") else {
            throw CommandFailure(.unavailable, code: "noGit", "git is not installed (or not on PATH); install it first.")
        }
        executable = git
        self.directory = directory
    }

    /// Runs `git ARGUMENTS`; throws with git's own message when it fails, unless `allowing`
    /// names the status.
    @discardableResult
    func run(_ arguments: [String], allowing: Set<Int32> = []) async throws -> Subprocess.Result {
        let result = try await Subprocess(executable: executable, arguments: arguments, directory: directory).run()
        guard result.status == 0 || allowing.contains(result.status) else {
            let said = result.errors.trimmingCharacters(in: .whitespacesAndNewlines)
            throw CommandFailure(
                .failure, code: "git",
                "`git \(arguments.joined(separator: " "))` failed: \(said.isEmpty ? "status \(result.status)" : said)")
        }
        return result
    }

    /// A setting's value, or nil when it is not set.
    func setting(_ name: String, global: Bool = false) async throws -> String? {
        let result = try await run(["config"] + (global ? ["--global"] : []) + ["--get", name], allowing: [1])
        guard result.status == 0 else { return nil }
        return result.output.trimmingCharacters(in: .newlines)
    }
}
