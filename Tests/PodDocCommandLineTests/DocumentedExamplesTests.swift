import Foundation
import Glibc
import XCTest

/// Every example a command's help shows (and the man page gathers) is run as it is written,
/// through `sh`, with the built `poddoc` first on the `PATH`, in a folder holding the files
/// the examples name: a command's examples one after the other, as a user pasting them would,
/// each command in a fresh copy of that folder.
final class DocumentedExamplesTests: CommandLineTestCase {
    /// The files the examples name (see `Examples` in the command's sources).
    private func makeTemplate() throws -> String {
        let template = path("template")
        try FileManager.default.createDirectory(atPath: template, withIntermediateDirectories: true)
        func here(_ name: String) -> String { template + "/" + name }
        let notes = here("Notes.poddoc")
        try succeed("new", notes, "--kind", "outline")
        try succeed("open", notes, "-c", "add Groceries; add Milk --under 1; add Eggs --under 1; add Work; add Report --under 2")
        try succeed("outline", "done", notes, "1.2")
        try succeed("outline", "done", notes, "2.1")
        try succeed("save", notes, "--as", here("Notes-base.poddoc.tar.zst"))
        try succeed("save", notes, "--as", here("Notes-laptop.poddoc.tar.zst"))
        try succeed("outline", "add", here("Notes-laptop.poddoc.tar.zst"), "Call the plumber")
        try succeed("outline", "add", notes, "Bills", "--under", "2")
        try succeed("save", notes, "--as", here("Notes.poddoc.tar.zst"))
        try succeed("new", here("Specs.poddoc"), "--kind", "pods")
        try succeed("import", here("Specs.poddoc"), "--from", Self.sampleSpecs)
        try FileManager.default.copyItem(atPath: Self.sampleSpecs, toPath: here("specs.json"))
        // A document of an app's own kind: the task-list example's.
        let example = try Self.binary().deletingLastPathComponent().appending(path: "task-list").path
        XCTAssertEqual(try runTool(example, [template]).status, 0)
        try succeed("export", here("Chores.poddoc"), here("chores.json"), "--format", "objects")
        try """
        <?xml version="1.0" encoding="UTF-8"?>
        <opml version="2.0"><head><title>Imported</title></head><body>
        <outline text="Plan the trip"><outline text="Book the train"/></outline>
        </body></opml>
        """.write(toFile: here("notes.opml"), atomically: true, encoding: .utf8)
        XCTAssertEqual(try runTool("/usr/bin/git", ["init", "-q", template]).status, 0)
        return template
    }

    func testEveryCommandsHelpEndsWithExamplesThatRunAsWritten() throws {
        let commands = try documentedCommands()
        XCTAssertGreaterThan(commands.count, 30)
        for documented in commands {
            XCTAssertGreaterThanOrEqual(
                documented.examples.count, 2, "`\(documented.command) --help` shows two or three examples: \(documented.examples)")
        }
        let template = try makeTemplate()
        var environment = try environmentWithPoddocOnPath()
        environment["GIT_CONFIG_NOSYSTEM"] = "1"
        for (index, documented) in commands.enumerated() where !documented.examples.isEmpty {
            let work = path("run-\(index)")
            XCTAssertEqual(try runTool("/bin/cp", ["-a", template, work]).status, 0)
            environment["HOME"] = work + "/home"
            environment["XDG_STATE_HOME"] = work + "/state"
            var server: Process?
            defer { server.map(stop) }
            for example in documented.examples {
                if example.contains("127.0.0.1:8080"), server == nil {
                    server = try startServing(["serve", "specs.json", "--port", "8080"], in: work, environment: environment)
                }
                if example.hasPrefix("poddoc serve ") {
                    let serving = try startServing([], shellLine: example, in: work, environment: environment)
                    stop(serving)
                    continue
                }
                let result = try shell(example, in: work, environment: environment)
                XCTAssertEqual(
                    result.status, 0, "`\(example)` (from `\(documented.command) --help`) failed:\n\(result.stderr)\(result.stdout)")
            }
        }
    }

    /// Runs one line through `sh` in `folder`, with nothing on standard input.
    private func shell(_ line: String, in folder: String, environment: [String: String]) throws -> RunResult {
        try runProgram(URL(fileURLWithPath: "/bin/sh"), ["-c", line], in: folder, environment: environment)
    }

    /// Starts a `poddoc serve` (given as arguments, or as a shell line run through `exec`) and
    /// waits until it says where it serves.
    private func startServing(
        _ arguments: [String], shellLine: String? = nil, in folder: String, environment: [String: String]
    ) throws -> Process {
        let (process, stdout, stderr) =
            if let shellLine {
                try startProgram(URL(fileURLWithPath: "/bin/sh"), ["-c", "exec " + shellLine], in: folder, environment: environment)
            } else {
                try startProgram(try Self.binary(), arguments, in: folder, environment: environment)
            }
        let serving = stdout.wait(for: "http://127.0.0.1:", timeout: 20)
        XCTAssertTrue(serving, "`\(shellLine ?? arguments.joined(separator: " "))` serves:\n\(stdout.current)\(stderr.current)")
        return process
    }

    private func stop(_ process: Process) {
        process.terminate()
        process.waitUntilExit()
    }
}

extension CommandLineTestCase {
    /// A command of the help tree and the example lines its discussion ends with.
    struct Documented {
        let command: String
        let examples: [String]
    }

    /// The commands `--experimental-dump-help` describes (the source of `--help` and of the
    /// man page), but the hidden ones and ArgumentParser's own `help`.
    func documentedCommands() throws -> [Documented] {
        let dump = try succeed("--experimental-dump-help").stdout
        let root = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(dump.utf8)) as? [String: Any])
        var found: [Documented] = []
        func walk(_ command: [String: Any], _ names: [String]) {
            guard command["shouldDisplay"] as? Bool ?? true else { return }
            let name = names + [command["commandName"] as? String ?? "?"]
            guard name.last != "help" else { return }
            let discussion = command["discussion"] as? String ?? ""
            var examples: [String] = []
            if let range = discussion.range(of: "Examples:\n") {
                examples = discussion[range.upperBound...].split(separator: "\n")
                    .prefix { $0.hasPrefix("  ") }.map { $0.trimmingCharacters(in: .whitespaces) }
            }
            found.append(Documented(command: name.joined(separator: " "), examples: examples))
            for sub in command["subcommands"] as? [[String: Any]] ?? [] { walk(sub, name) }
        }
        walk(try XCTUnwrap(root["command"] as? [String: Any]), [])
        return found
    }
}
