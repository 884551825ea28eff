import Foundation
import XCTest

/// `Examples/TaskList`, the app a newcomer copies, runs as the README says, and the `poddoc`
/// program, which does not know its kind, reads what it made.
final class ExampleAppTests: CommandLineTestCase {
    func testTheTaskListExampleRunsAndPoddocReadsItsDocument() throws {
        let example = try Self.binary().deletingLastPathComponent().appending(path: "task-list")
        guard FileManager.default.isExecutableFile(atPath: example.path) else {
            throw TestSetupFailure(description: "task-list was not built next to the tests (\(example.path))")
        }
        let run = try runTool(example.path, [folder.path])
        XCTAssertEqual(run.status, 0, run.stderr)
        let lines = run.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(
            Array(lines.prefix(7)),
            [
                #"1. created Chores.poddoc: ["[ ] Water the plants", "[ ] Take out the bins"]"#,
                "2. autosaved: save 1",
                #"3. reopened: ["[ ] Water the plants", "[ ] Take out the bins"]"#,
                #"4. edited apart: "Buy bulbs" added on the laptop, the bins done here"#,
                #"5. merged the laptop's copy (1 inserted): ["[ ] Water the plants", "[x] Take out the bins", "[ ] Buy bulbs"]"#,
                #"6. upgraded to model 2: list "Chores", ["[ ] Water the plants", "[x] Take out the bins", "[ ] Buy bulbs"]"#,
                "Now try: poddoc info \(path("Chores.poddoc")); poddoc objects ls \(path("Chores.poddoc")) Task",
            ], run.stdout)

        let doc = path("Chores.poddoc")
        let info = try succeed("info", doc).stdout
        XCTAssertTrue(info.contains("org.example.tasklist (an app's own kind"), info)
        XCTAssertTrue(info.contains("3 Task, 1 TaskList"), info)
        XCTAssertTrue(try succeed("check", doc).stdout.contains("ok"))
        let tasks = try succeed("objects", "show", doc, "Task", "1").stdout
        XCTAssertTrue(tasks.contains(#""Twice a week in summer""#), tasks)
        // The laptop's copy is at model 1 still: merged by the binary, the two models are
        // refused (the app upgrades it first); nothing changes.
        let before = try succeed("export", doc, path("before.json"), "--format", "objects")
        XCTAssertEqual(before.status, 0)
        let refused = try poddoc("merge", doc, path("Chores-laptop.poddoc"))
        XCTAssertNotEqual(refused.status, 0)
        XCTAssertTrue(refused.stderr.contains("two models"), refused.stderr)
        try succeed("export", doc, path("after.json"), "--format", "objects")
        XCTAssertEqual(
            try Data(contentsOf: URL(fileURLWithPath: path("after.json"))), try Data(contentsOf: URL(fileURLWithPath: path("before.json"))))
        let versions = try succeed("versions", doc).stdout
        XCTAssertTrue(versions.contains("Merge the laptop's copy"), versions)
    }
}
