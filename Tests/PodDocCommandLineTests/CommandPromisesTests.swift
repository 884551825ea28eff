import Foundation
import XCTest

/// What docs/CLI.md and `--help` promise about the command line itself, through the binary:
/// options every reading command accepts, the shell's own commands and their help, and the
/// advice errors give.
final class CommandPromisesTests: CommandLineTestCase {
    /// CLI.md: every reading command accepts `--read-only`.
    func testEveryReadingCommandAcceptsReadOnly() throws {
        let doc = try makeOutline("Notes.poddoc", holding: "one", "two")
        for arguments in [["info", doc], ["check", doc], ["versions", doc], ["diff", doc, "--from", "1"]] {
            let result = try run(arguments + ["--read-only"])
            XCTAssertEqual(result.status, 0, "\(arguments[0]) --read-only: \(result.stderr)")
        }
    }

    /// The shell's own commands: `help` shows one of them, extra words are refused, and
    /// `--json` prints one command's result as JSON.
    func testTheShellsOwnCommandsHaveHelpAndRefuseExtraWords() throws {
        let doc = try makeOutline("Notes.poddoc", holding: "one")
        let help = try succeed("open", doc, "-c", "help cd")
        XCTAssertEqual(
            help.stdout, "USAGE: cd [PATH]\n\nMake an item the current one (.. goes up, no path goes to the top); outlines only.\n")
        for line in ["undo now", "status please", "quit later", "help nosuch"] {
            let refused = try run(["open", doc, "-c", line])
            XCTAssertEqual(refused.status, 64, "\(line): \(refused.stderr)")
            XCTAssertEqual(refused.stderr.split(separator: "\n").count, 1, refused.stderr)
        }
        let status = try succeed("open", doc, "-c", "add two; status --json")
        let shape = try RunResult(status: 0, stdout: String(status.stdout.split(separator: "\n").last!), stderr: "").json(StatusShape.self)
        XCTAssertTrue(shape.unsavedChanges)
        let listing = try succeed("open", doc, "-c", "ls --json")
        XCTAssertEqual(try listing.json(ItemListShape.self).items.map(\.title), ["one", "two"])
        XCTAssertEqual(try succeed("open", doc, "-c", #"add -- "--json"; ls"#).stdout.split(separator: "\n").last, "3. --json")
    }

    /// A locked document's error gives advice that works for the command that met it: an edit
    /// is not told to use `--read-only`, which edits refuse.
    func testTheLockedErrorGivesAdviceThatWorks() throws {
        let doc = try makeOutline("Notes.poddoc", holding: "one")
        let input = Pipe()
        let (shell, out, err) = try start(["open", doc], stdin: input.fileHandleForReading)
        input.fileHandleForWriting.write(Data("ls\n".utf8))
        XCTAssertTrue(out.wait(for: "1. one"), err.current)
        let refused = try fail(75, "outline", "add", doc, "two")
        XCTAssertFalse(refused.stderr.contains("read it with --read-only"), refused.stderr)
        XCTAssertTrue(refused.stderr.contains("commands that only read it"), refused.stderr)
        try succeed("outline", "tree", doc)
        try input.fileHandleForWriting.close()
        shell.waitUntilExit()
    }

    /// A store too damaged to open is an integrity failure (76) for every command, as `check`
    /// and the exit-status table say.
    func testADamagedStoreIsAnIntegrityFailureForEveryCommand() throws {
        let doc = try makeOutline("Notes.poddoc", holding: "one")
        let store = path("Notes.poddoc/StoreContent/persistentStore")
        for damage in [Data(repeating: 0x47, count: 20_000), try Data(contentsOf: URL(fileURLWithPath: store)).prefix(8192)] {
            try damage.write(to: URL(fileURLWithPath: store))
            for arguments in [["check", doc], ["info", doc], ["outline", "tree", doc], ["outline", "add", doc, "x"]] {
                let result = try run(arguments)
                XCTAssertEqual(result.status, 76, "\(arguments.joined(separator: " ")): \(result.stderr)")
            }
        }
    }

    /// Usage errors ArgumentParser words obscurely get a line that says what is wrong, with
    /// status 64, as JSON under `--json`.
    func testUsageErrorsSayWhatIsWrong() throws {
        let doc = try makeOutline("Notes.poddoc", holding: "one")
        XCTAssertTrue(try fail(64, "nosuch").stderr.contains("Unknown command 'nosuch'"))
        XCTAssertTrue(try fail(64, "help", "nosuch").stderr.contains("Unknown command 'nosuch'"))
        let inGroup = try fail(64, "outline", "show", path("N.poddoc"), "1").stderr
        XCTAssertTrue(inGroup.contains("Unknown command 'outline show'; `poddoc help outline` lists the commands"), inGroup)
        XCTAssertTrue(try fail(64, "help", "pods", "nosuch").stderr.contains("Unknown command 'pods nosuch'"))
        XCTAssertTrue(try fail(64, "outline", "tree", doc, "--depth", "-1").stderr.contains("--depth takes a number of 0 or more, not -1"))
        let json = try fail(64, "outline", "tree", doc, "--frobnicate", "--json")
        XCTAssertEqual(try RunResult(status: 64, stdout: json.stderr, stderr: "").json(ErrorShape.self).error.exitStatus, 64)
        try succeed("help", "outline")
        XCTAssertEqual(try succeed("outline", "tree", doc, "--depth", "1").stdout, "1. one\n")
    }

    /// One rule names the documents commands make: `NAME.poddoc` or an archive's ending, and
    /// a `--format` given is the one the name says.
    func testEveryCommandThatMakesADocumentNamesItTheSameWay() throws {
        let doc = try makeOutline("Notes.poddoc", holding: "one")
        for arguments in [
            ["save", doc, "--as", path("X.tar.gz"), "--format", "zip"], ["save", doc, "--as", path("O4"), "--format", "package"],
            ["save", doc, "--as", path("O5")], ["save", doc, "--as", path("Y.poddoc"), "--format", "tar.zst"],
            ["new", path("O6"), "--kind", "outline"], ["recover", doc, "--as", path("O7")],
        ] {
            let refused = try run(arguments)
            XCTAssertEqual(refused.status, 64, "\(arguments): \(refused.stderr)")
            XCTAssertTrue(refused.stderr.contains("NAME.") && refused.stderr.split(separator: "\n").count == 1, refused.stderr)
        }
        for name in ["X.tar.gz", "O4", "O5", "Y.poddoc", "O6", "O7"] {
            XCTAssertFalse(FileManager.default.fileExists(atPath: path(name)), "\(name) is not made")
        }
        try succeed("save", doc, "--as", path("Z.zip"), "--format", "zip")
        try succeed("save", path("Z.zip"), "--as", path("W.poddoc"), "--format", "package")
        XCTAssertEqual(try succeed("outline", "tree", path("W.poddoc")).stdout, "1. one\n")
    }

    /// The bundled sample documents have saves to show: `versions` lists them, `diff --from`
    /// and `export --at` go back to the first (on copies: the committed ones stay as they are).
    func testTheSampleDocumentsHaveAHistoryToTry() throws {
        for (name, saves) in [("outline-sample.poddoc", 5), ("pods-sample.poddoc", 2)] {
            let copy = path(name)
            try FileManager.default.copyItem(
                at: Self.repository.appending(path: "SampleDocuments").appending(path: name), to: URL(fileURLWithPath: copy))
            let versions = try succeed("versions", copy, "--json").json(VersionsShape.self)
            XCTAssertEqual(versions.versions.map(\.save), Array((1...saves).reversed()), name)
            let diff = try succeed("diff", copy, "--from", "1").stdout
            XCTAssertFalse(diff.contains(": no changes") || diff.isEmpty, "\(name): \(diff)")
            try succeed("export", copy, path("\(name)-at-1.tar.zst"), "--format", "archive", "--at", "1")
        }
    }

    /// A refusal to replace an existing output suggests `--force` only to a command that has
    /// it.
    func testARefusedOutputSuggestsForceOnlyWhereItExists() throws {
        let doc = try makeOutline("Notes.poddoc", holding: "one")
        try Data("mine".utf8).write(to: URL(fileURLWithPath: path("taken.opml")))
        try Data("mine".utf8).write(to: URL(fileURLWithPath: path("taken.zip")))
        let save = try fail(66, "save", doc, "--as", path("taken.zip"))
        XCTAssertTrue(save.stderr.contains("or move it away first") && !save.stderr.contains("--force"), save.stderr)
        XCTAssertEqual(try String(contentsOfFile: path("taken.zip"), encoding: .utf8), "mine")
        let export = try fail(66, "export", doc, path("taken.opml"), "--format", "opml")
        XCTAssertTrue(export.stderr.contains("pass --force to replace it"), export.stderr)
        XCTAssertEqual(try String(contentsOfFile: path("taken.opml"), encoding: .utf8), "mine")
    }
}
