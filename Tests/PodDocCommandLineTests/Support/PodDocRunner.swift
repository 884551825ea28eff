import Foundation
import Glibc
import PodDocTesting
import Synchronization
import XCTest

/// What one run of `poddoc` did.
struct RunResult {
    let status: Int32
    let stdout: String
    let stderr: String

    /// Standard output decoded as JSON.
    func json<T: Decodable>(_ type: T.Type, file: StaticString = #filePath, line: UInt = #line) throws -> T {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        do {
            return try decoder.decode(type, from: Data(stdout.utf8))
        } catch {
            XCTFail("stdout is not the expected JSON: \(error)\n--- stdout:\n\(stdout)\n--- stderr:\n\(stderr)", file: file, line: line)
            throw error
        }
    }
}

/// Collects what a child process writes to one pipe or terminal, on a thread of its own, and
/// lets a test wait for a piece of text.
final class OutputCollector: Sendable {
    private let text = Mutex("")
    private let done = Mutex(false)

    /// Starts reading `handle` until its end (or, for a terminal, until its other side closes).
    init(_ handle: FileHandle) {
        let descriptor = handle.fileDescriptor
        let thread = Thread { [self] in
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                if count <= 0 { break }
                text.withLock { $0 += String(decoding: buffer[0..<count], as: UTF8.self) }
            }
            withExtendedLifetime(handle) {}
            done.withLock { $0 = true }
        }
        thread.start()
    }

    /// Everything read so far.
    var current: String { text.withLock { $0 } }

    /// Waits (up to `timeout`) until the text read contains `needle` `count` times.
    @discardableResult
    func wait(for needle: String, count: Int = 1, timeout: TimeInterval = 30) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if current.components(separatedBy: needle).count - 1 >= count { return true }
            if done.withLock({ $0 }) { return current.components(separatedBy: needle).count - 1 >= count }
            Thread.sleep(forTimeInterval: 0.02)
        }
        return false
    }

    /// Waits until the end of the stream (the writer exited).
    func waitForEnd(timeout: TimeInterval = 30) {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline, !done.withLock({ $0 }) { Thread.sleep(forTimeInterval: 0.02) }
    }
}

/// A test case with a temporary folder, a private HOME and XDG_STATE_HOME, and the built
/// `poddoc` binary to run.
class CommandLineTestCase: XCTestCase {
    var folder: URL!
    var environment: [String: String] = [:]

    override func setUpWithError() throws {
        folder = try TemporaryFolder.make("poddoc-cli")
        try FileManager.default.createDirectory(at: folder.appending(path: "home"), withIntermediateDirectories: true)
        environment = ProcessInfo.processInfo.environment
        environment["HOME"] = folder.appending(path: "home").path
        environment["XDG_STATE_HOME"] = folder.appending(path: "state").path
        environment["NO_COLOR"] = "1"
    }

    override func tearDownWithError() throws {
        checkWrittenArchivesOpen()
        for mount in mounts.reversed() { _ = try? runTool("/usr/bin/umount", [mount]) }
        try? FileManager.default.removeItem(at: folder)
    }

    // MARK: - Archives the test had poddoc write

    /// Archives (`.tar.zst`, `.zip`, `.tar.gz`) named on the command line of a successful run
    /// that the run created or changed, with their stamp just after it.
    private var writtenArchives: [String: FileStamp] = [:]

    /// A test that has poddoc write an archive it must not open (of a store damaged on purpose)
    /// sets this, so ``checkWrittenArchivesOpen()`` leaves its archives alone.
    var writesArchivesThatCannotOpen = false

    /// An archive's identity on disk: a change by anyone changes it.
    struct FileStamp: Equatable {
        let device: UInt64
        let inode: UInt64
        let size: Int64
        let modified: timespec

        init?(_ path: String) {
            var status = stat()
            guard lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
            device = UInt64(status.st_dev)
            inode = UInt64(status.st_ino)
            size = Int64(status.st_size)
            modified = status.st_mtim
        }

        static func == (a: Self, b: Self) -> Bool {
            a.device == b.device && a.inode == b.inode && a.size == b.size && a.modified.tv_sec == b.modified.tv_sec
                && a.modified.tv_nsec == b.modified.tv_nsec
        }
    }

    /// The arguments that name archives, as absolute paths.
    private func archivePaths(in arguments: [String]) -> [String] {
        arguments.filter { [".tar.zst", ".zip", ".tar.gz"].contains(where: $0.hasSuffix) && !$0.hasPrefix("-") }
            .map { $0.hasPrefix("/") ? $0 : folder.appending(path: $0).path }
    }

    /// Records the archives a successful run wrote (see ``writtenArchives``).
    private func recordWrittenArchives(_ arguments: [String], before: [String: FileStamp?], status: Int32) {
        guard status == 0 else { return }
        for path in archivePaths(in: arguments) {
            guard let after = FileStamp(path), before[path] ?? nil != after else { continue }
            writtenArchives[path] = after
        }
    }

    /// Every archive poddoc wrote in this test and that is still as poddoc left it must open:
    /// `poddoc check` passes on it, read as it is (a state folder of its own, so no work
    /// waiting for recovery is looked at).
    private func checkWrittenArchivesOpen() {
        guard !writesArchivesThatCannotOpen else { return }
        var checking = environment
        checking["XDG_STATE_HOME"] = folder.appending(path: "archive-check-state").path
        for (path, stamp) in writtenArchives.sorted(by: { $0.key < $1.key }) where FileStamp(path) == stamp {
            let process = Process()
            process.executableURL = try? Self.binary()
            process.arguments = ["check", path]
            process.environment = checking
            let err = Pipe()
            process.standardOutput = FileHandle.nullDevice
            process.standardError = err
            guard (try? process.run()) != nil else { continue }
            let message = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            XCTAssertEqual(process.terminationStatus, 0, "poddoc wrote \(path) in this test but cannot open it: \(message)")
        }
    }

    /// File systems a test mounted (``mount(_:at:options:)``), unmounted when it ends.
    private var mounts: [String] = []

    /// Runs another program (`mount`, `chattr`, `sha256sum`, GNU `time` …) with the test's
    /// environment, to the end.
    @discardableResult
    func runTool(_ tool: String, _ arguments: [String]) throws -> RunResult {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        process.environment = environment
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return RunResult(
            status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
            stderr: String(decoding: stderr, as: UTF8.self))
    }

    /// `poddoc` with its standard input, output and error on a new pseudo-terminal.
    func startOnTerminal(_ arguments: [String]) throws -> (Process, screen: OutputCollector, keyboard: FileHandle) {
        var primary: Int32 = -1
        var secondary: Int32 = -1
        XCTAssertEqual(openpty(&primary, &secondary, nil, nil, nil), 0)
        let terminal = FileHandle(fileDescriptor: secondary, closeOnDealloc: true)
        let process = Process()
        process.executableURL = try Self.binary()
        process.arguments = arguments
        process.environment = environment.merging(["TERM": "dumb"]) { $1 }
        process.standardInput = terminal
        process.standardOutput = terminal
        process.standardError = terminal
        try process.run()
        try terminal.close()
        let keyboard = FileHandle(fileDescriptor: primary, closeOnDealloc: true)
        return (process, OutputCollector(keyboard), keyboard)
    }

    /// Every file of a document with its SHA-256, by relative path.
    func hashes(_ root: String) throws -> [String: String] {
        var result: [String: String] = [:]
        for case let name as String in FileManager.default.enumerator(atPath: root)! {
            var folder: ObjCBool = false
            FileManager.default.fileExists(atPath: root + "/" + name, isDirectory: &folder)
            if folder.boolValue { continue }
            result[name] = try runTool("/usr/bin/sha256sum", [root + "/" + name]).stdout.split(separator: " ").first.map(String.init)
        }
        return result
    }

    /// A new outline document in the test's folder holding `titles` at the top level; returns
    /// its path.
    @discardableResult
    func makeOutline(_ name: String, holding titles: String...) throws -> String {
        let doc = path(name)
        try succeed("new", doc, "--kind", "outline")
        for title in titles { try succeed("outline", "add", doc, title) }
        return doc
    }

    /// A page of specs (the trunk's JSON) holding one spec, `MergeProbe` 1.0.0 with `summary`,
    /// written in the test's folder as `<summary>.json`; returns its path.
    func writeProbeSpecPage(summary: String) throws -> String {
        let spec: [String: Any] = [
            "name": "MergeProbe", "version": "1.0.0", "summary": summary, "homepage": "https://example.org/probe", "license": "MIT",
            "authors": ["A": "a@example.org"], "source": ["git": "https://example.org/probe.git", "tag": "1.0.0"],
            "platforms": ["ios": "8.0"],
        ]
        let file = path("\(summary).json")
        try JSONSerialization.data(withJSONObject: ["number_of_pages": 1, "result": [spec]]).write(to: URL(fileURLWithPath: file))
        return file
    }

    /// Opens `doc` in the shell with a 0.2 s autosave, types `typing`, waits for the autosave
    /// and kills the shell with SIGKILL: the document as a crash after an autosave leaves it.
    func crashAfterAutosave(_ doc: String, typing: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let input = Pipe()
        let (shell, _, err) = try start(["open", doc, "--autosave-interval", "0.2"], stdin: input.fileHandleForReading)
        input.fileHandleForWriting.write(Data(typing.utf8))
        XCTAssertTrue(err.wait(for: "autosaved \(URL(fileURLWithPath: doc).lastPathComponent)"), err.current, file: file, line: line)
        kill(shell.processIdentifier, SIGKILL)
        shell.waitUntilExit()
    }

    /// Runs poddoc under GNU time; returns its peak resident memory in bytes (the child's
    /// maximum resident set size).
    func peakMemory(_ arguments: [String]) throws -> (result: RunResult, peak: Int) {
        let time = "/usr/bin/time"
        guard FileManager.default.isExecutableFile(atPath: time) else {
            throw XCTSkip("needs GNU time (Debian's time package) to measure peak memory")
        }
        let report = path("time.txt")
        let result = try runTool(time, ["-f", "%M", "-o", report, try Self.binary().path] + arguments)
        let kilobytes =
            Int(
                try String(contentsOfFile: report, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines).split(separator: "\n")
                    .last ?? "") ?? 0
        return (result, kilobytes * 1024)
    }

    /// Writes an OPML file in the test's folder whose `<body>` holds `body` (outline elements,
    /// one a line); returns its path.
    @discardableResult
    func writeOPML(_ name: String, body: some Sequence<String>) throws -> String {
        var opml = #"<?xml version="1.0"?><opml version="2.0"><head><title>t</title></head><body>"# + "\n"
        for line in body { opml += line + "\n" }
        opml += "</body></opml>\n"
        try Data(opml.utf8).write(to: URL(fileURLWithPath: path(name)))
        return path(name)
    }

    /// Mounts a file system at `point` (a folder of the test, created), unmounted at the end;
    /// skips the test when this process may not mount (not root, or a sandbox refusing).
    func mount(_ arguments: [String], at point: String, why: String) throws {
        guard geteuid() == 0 else { throw XCTSkip("needs root for \(why)") }
        try FileManager.default.createDirectory(atPath: point, withIntermediateDirectories: true)
        guard try runTool("/usr/bin/mount", arguments + [point]).status == 0 else { throw XCTSkip("mount is not allowed here (\(why))") }
        mounts.append(point)
    }

    /// A path inside the test's folder.
    func path(_ name: String) -> String { folder.appending(path: name).path }

    /// The repository's root (for SampleDocuments and Tests/Fixtures).
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The sample page file of 300 real specs.
    static let sampleSpecs = repository.appending(path: "SampleDocuments/specs-2014-sample.json").path

    /// The built `poddoc`, next to the test bundle.
    static func binary() throws -> URL {
        let products = Bundle.main.bundleURL.deletingLastPathComponent()
        let candidates = [
            products, URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
            Bundle(for: CommandLineTestCase.self).bundleURL.deletingLastPathComponent(),
        ]
        .map { $0.appending(path: "poddoc") }
        guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
            // `swift test` builds every product: a missing binary is a broken build, not a reason to skip.
            throw TestSetupFailure(description: "poddoc was not built next to the tests (\(candidates.map(\.path)))")
        }
        return found
    }

    /// Starts `poddoc` with these arguments (in the test's folder, with its environment).
    func start(_ arguments: [String], stdin: FileHandle? = nil) throws -> (Process, stdout: OutputCollector, stderr: OutputCollector) {
        try startProgram(try Self.binary(), arguments, in: folder.path, environment: environment, stdin: stdin)
    }

    /// The test's environment with the built `poddoc` first on the `PATH`, for scripts and
    /// documented examples that call it by name.
    func environmentWithPoddocOnPath() throws -> [String: String] {
        var environment = self.environment
        environment["PATH"] = try Self.binary().deletingLastPathComponent().path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        return environment
    }

    /// Starts a program in `directory` with `environment`, its output collected.
    func startProgram(
        _ executable: URL, _ arguments: [String], in directory: String, environment: [String: String], stdin: FileHandle? = nil
    ) throws -> (Process, stdout: OutputCollector, stderr: OutputCollector) {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = environment
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = stdin ?? FileHandle.nullDevice
        try process.run()
        return (process, OutputCollector(out.fileHandleForReading), OutputCollector(err.fileHandleForReading))
    }

    /// Runs a program in `directory` with `environment` to the end, with nothing on its input.
    func runProgram(_ executable: URL, _ arguments: [String], in directory: String, environment: [String: String]) throws -> RunResult {
        let (process, stdout, stderr) = try startProgram(executable, arguments, in: directory, environment: environment)
        process.waitUntilExit()
        stdout.waitForEnd()
        stderr.waitForEnd()
        return RunResult(status: process.terminationStatus, stdout: stdout.current, stderr: stderr.current)
    }

    /// Runs `poddoc` to the end, feeding `input` on standard input.
    @discardableResult
    func poddoc(_ arguments: String..., input: String? = nil) throws -> RunResult {
        try run(arguments, input: input)
    }

    func run(_ arguments: [String], input: String? = nil) throws -> RunResult {
        let before = Dictionary(archivePaths(in: arguments).map { ($0, FileStamp($0)) }, uniquingKeysWith: { first, _ in first })
        let stdin = Pipe()
        let (process, out, err) = try start(arguments, stdin: stdin.fileHandleForReading)
        if let input { stdin.fileHandleForWriting.write(Data(input.utf8)) }
        try stdin.fileHandleForWriting.close()
        process.waitUntilExit()
        out.waitForEnd()
        err.waitForEnd()
        recordWrittenArchives(arguments, before: before, status: process.terminationStatus)
        return RunResult(status: process.terminationStatus, stdout: out.current, stderr: err.current)
    }

    /// Asserts a run succeeded, showing its output when it did not.
    @discardableResult
    func succeed(_ arguments: String..., input: String? = nil, file: StaticString = #filePath, line: UInt = #line) throws -> RunResult {
        let result = try run(arguments, input: input)
        XCTAssertEqual(
            result.status, 0, "poddoc \(arguments.joined(separator: " ")) failed:\n\(result.stderr)\(result.stdout)", file: file, line: line
        )
        return result
    }

    /// Asserts a run failed with `status` and one line on standard error.
    @discardableResult
    func fail(_ status: Int32, _ arguments: String..., file: StaticString = #filePath, line: UInt = #line) throws -> RunResult {
        let result = try run(arguments)
        XCTAssertEqual(result.status, status, "poddoc \(arguments.joined(separator: " ")):\n\(result.stderr)", file: file, line: line)
        let lines = result.stderr.split(separator: "\n")
        XCTAssertEqual(lines.count, 1, "one line on stderr: \(result.stderr)", file: file, line: line)
        XCTAssertTrue(result.stderr.hasPrefix("poddoc: ") || result.stderr.hasPrefix("{"), result.stderr, file: file, line: line)
        return result
    }
}

/// A test setup that failed (a fixture could not be made): the test fails with this message.
struct TestSetupFailure: Error, CustomStringConvertible {
    let description: String
}
