import Foundation
import XCTest

/// Messages that say what happened, each in one line, through the real binary.
final class HonestMessagesTests: CommandLineTestCase {
    func testRecoverWithNothingWaitingSaysSoAndChangesNothing() throws {
        try succeed("new", path("B.zip"), "--kind", "outline")
        try succeed("outline", "add", path("B.zip"), "one")
        let before = try Data(contentsOf: URL(fileURLWithPath: path("B.zip")))
        for choice in [[], ["--discard"], ["--keep-mine"]] {
            let recovered = try run(["recover", path("B.zip")] + choice)
            XCTAssertEqual(recovered.status, 0, recovered.stderr)
            XCTAssertEqual(recovered.stdout, "No autosaved work was waiting for \(path("B.zip")); nothing changed.\n", "\(choice)")
        }
        let copied = try run(["recover", path("B.zip"), "--as", path("C.zip")])
        XCTAssertEqual(copied.status, 0, copied.stderr)
        XCTAssertEqual(copied.stdout, "No autosaved work was waiting for \(path("B.zip")); nothing changed.\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("C.zip")), "no copy of nothing")
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path("B.zip"))), before)
    }

    func testANewDocumentNeedsADocumentsName() throws {
        let refused = try fail(64, "new", path("Notes.txt"), "--kind", "outline")
        XCTAssertTrue(refused.stderr.contains(".poddoc") && refused.stderr.contains(".tar.zst"), refused.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("Notes.txt")))
        try succeed("new", path("Notes.poddoc"), "--kind", "outline")
        try succeed("new", path("Notes.zip"), "--kind", "outline")
    }

    func testAWriteIntoAMissingFolderIsOneLine() throws {
        try succeed("new", path("B.poddoc"), "--kind", "outline")
        let refused = try fail(66, "export", path("B.poddoc"), path("missing/out.opml"), "--format", "opml")
        XCTAssertTrue(refused.stderr.contains("Check that the folder exists"), refused.stderr)
        XCTAssertEqual(refused.stderr.components(separatedBy: "Nothing was created.").count, 2, "said once: \(refused.stderr)")
    }

    func testShellHelpNamesTheShellsCommand() throws {
        try succeed("new", path("B.poddoc"), "--kind", "outline")
        let help = try succeed("open", path("B.poddoc"), "-c", "help save").stdout
        XCTAssertTrue(help.contains("USAGE: save [--as <path>]"), help)
        XCTAssertFalse(help.contains("save_document"), help)
    }
}

/// The lock error's advice, "read it with --read-only", works for every reading command.
final class ReadOnlyOptionTests: CommandLineTestCase {
    func testReadingCommandsTakeReadOnlyBesideAWriterAndWritingOnesRefuseIt() throws {
        let doc = path("B.poddoc")
        try succeed("new", doc, "--kind", "outline")
        try succeed("outline", "add", doc, "one")
        let input = Pipe()
        let (shell, out, err) = try start(["open", doc, "--autosave-interval", "0"], stdin: input.fileHandleForReading)
        input.fileHandleForWriting.write(Data("tree\n".utf8))
        XCTAssertTrue(out.wait(for: "1. one"), err.current)
        let locked = try run(["outline", "add", doc, "two"])
        XCTAssertEqual(locked.status, 75, locked.stderr)
        XCTAssertTrue(locked.stderr.contains("read it with --read-only"), locked.stderr)
        for arguments in [["outline", "ls", doc], ["outline", "tree", doc], ["info", doc], ["check", doc]] {
            let read = try run(arguments + ["--read-only"])
            XCTAssertEqual(read.status, 0, "\(arguments): \(read.stderr)")
        }
        XCTAssertTrue(try run(["outline", "ls", doc, "--read-only"]).stdout.contains("one"))
        let refused = try run(["outline", "add", doc, "two", "--read-only"])
        XCTAssertEqual(refused.status, 64, refused.stderr)
        XCTAssertTrue(refused.stderr.contains("changes the document, so it cannot run --read-only"), refused.stderr)
        try input.fileHandleForWriting.close()
        shell.waitUntilExit()
    }
}

/// `check` does not vouch for a document in a format newer than it knows.
final class NewerFormatCheckTests: CommandLineTestCase {
    func testCheckRefusesToPassADocumentOfANewerFormat() throws {
        let doc = path("N.poddoc")
        try succeed("new", doc, "--kind", "outline")
        let metadata = URL(fileURLWithPath: doc).appending(path: "DocumentMetadata.json")
        var object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: metadata)) as? [String: Any])
        object["formatVersion"] = 999
        try JSONSerialization.data(withJSONObject: object).write(to: metadata)
        let checked = try run(["check", doc])
        XCTAssertEqual(checked.status, 76, checked.stdout + checked.stderr)
        XCTAssertTrue(checked.stdout.contains("document format 999"), checked.stdout)
    }
}

/// A lossy export says what it left out.
final class LossyExportTests: CommandLineTestCase {
    func testTextAndMarkdownExportsSayWhatTheyLeaveOut() throws {
        try writeOPML("in.opml", body: [#"<outline text="a" _note="n1" color="red"/>"#, #"<outline text="b" _note="n2"/>"#, #"<outline text="c"/>"#])
        let doc = path("L.poddoc")
        try succeed("new", doc, "--kind", "outline")
        try succeed("import", doc, "--opml", path("in.opml"))
        let text = try succeed("export", doc, path("l.txt"), "--format", "text")
        XCTAssertTrue(text.stderr.contains("indented text keeps titles only; left out: 2 notes, the attributes of 1 item"), text.stderr)
        let markdown = try succeed("export", doc, path("l.md"), "--format", "markdown")
        XCTAssertTrue(markdown.stderr.contains("Markdown keeps titles and notes; left out: the attributes of 1 item"), markdown.stderr)
        let opml = try succeed("export", doc, path("l.opml"), "--format", "opml")
        XCTAssertFalse(opml.stderr.contains("left out"), opml.stderr)
    }
}
