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
        XCTAssertTrue(locked.stderr.contains("commands that only read it (and `open --read-only`) work meanwhile"), locked.stderr)
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

/// `check` does not vouch for a document in a format newer than it knows, and does not call it
/// damaged either: it says a newer poddoc made it.
final class NewerFormatCheckTests: CommandLineTestCase {
    func testCheckRefusesToPassADocumentOfANewerFormat() throws {
        let doc = path("N.poddoc")
        try succeed("new", doc, "--kind", "outline")
        let metadata = URL(fileURLWithPath: doc).appending(path: "DocumentMetadata.json")
        var object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: metadata)) as? [String: Any])
        object["formatVersion"] = 999
        try JSONSerialization.data(withJSONObject: object).write(to: metadata)
        let checked = try run(["check", doc])
        XCTAssertEqual(checked.status, 66, checked.stdout + checked.stderr)
        XCTAssertTrue(checked.stderr.contains("\(doc) was made by a newer poddoc (format 999"), checked.stderr)
        XCTAssertFalse((checked.stdout + checked.stderr).contains("damaged"), checked.stdout + checked.stderr)
    }
}

/// A lossy export says what it left out.
final class LossyExportTests: CommandLineTestCase {
    func testTextAndMarkdownExportsSayWhatTheyLeaveOut() throws {
        try writeOPML(
            "in.opml", body: [#"<outline text="a" _note="n1" color="red"/>"#, #"<outline text="b" _note="n2"/>"#, #"<outline text="c"/>"#])
        let doc = path("L.poddoc")
        try succeed("new", doc, "--kind", "outline")
        try succeed("import", doc, "--opml", path("in.opml"))
        let text = try succeed("export", doc, path("l.txt"), "--format", "text")
        XCTAssertTrue(text.stderr.contains("indented text keeps titles only; left out: 2 notes, the attributes of 1 item"), text.stderr)
        let markdown = try succeed("export", doc, path("l.md"), "--format", "markdown")
        XCTAssertTrue(
            markdown.stderr.contains("Markdown keeps titles, notes and tasks; left out: the attributes of 1 item"), markdown.stderr)
        let opml = try succeed("export", doc, path("l.opml"), "--format", "opml")
        XCTAssertFalse(opml.stderr.contains("left out"), opml.stderr)
    }
}

/// `serve` says why it cannot listen, in words, not NIO's.
final class ServeListeningTests: CommandLineTestCase {
    func testAPortInUseAndAnUnknownHostAreSaidPlainly() throws {
        let doc = path("S.poddoc")
        try succeed("new", doc, "--kind", "pods")
        let (first, out, err) = try start(["serve", doc, "--port", "0"])
        defer {
            first.terminate()
            first.waitUntilExit()
        }
        XCTAssertTrue(out.wait(for: "Serving"), err.current)
        let port = try XCTUnwrap(out.current.split(separator: ":").last.flatMap { Int($0.prefix { $0.isNumber }) })
        let taken = try run(["serve", doc, "--port", "\(port)"])
        XCTAssertEqual(taken.status, 69, taken.stderr)
        XCTAssertTrue(taken.stderr.contains("port \(port) is already in use"), taken.stderr)
        let unknown = try run(["serve", doc, "--host", "nosuch.invalid", "--port", "0"])
        XCTAssertEqual(unknown.status, 69, unknown.stderr)
        XCTAssertTrue(unknown.stderr.contains("no host named nosuch.invalid is known"), unknown.stderr)
        for result in [taken, unknown] {
            XCTAssertFalse(result.stderr.contains("bind(descriptor") || result.stderr.contains("UnknownHost"), result.stderr)
            XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, result.stderr)
        }
    }
}

/// SIGTERM while a one-shot import still parses stops it before anything is added or saved.
final class ImportInterruptTests: CommandLineTestCase {
    func testSIGTERMDuringTheParseStopsTheImportWithNothingSaved() throws {
        try writeOPML("big.opml", body: (0..<600_000).map { #"<outline text="item \#($0)"/>"# })
        let doc = path("T.poddoc")
        try succeed("new", doc, "--kind", "outline")
        let (importing, _, err) = try start(["import", doc, "--opml", path("big.opml")])
        Thread.sleep(forTimeInterval: 1.0)
        importing.terminate()
        importing.waitUntilExit()
        err.waitForEnd()
        XCTAssertEqual(importing.terminationStatus, 143, err.current)
        XCTAssertTrue(err.current.isEmpty || err.current.contains("Stopped by SIGTERM; nothing of this command was saved"), err.current)
        XCTAssertTrue(try succeed("info", doc).stdout.contains("contents       0 items"))
    }
}
