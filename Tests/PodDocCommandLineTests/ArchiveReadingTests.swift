import Foundation
import XCTest

/// Reading an archive reads it as it is on disk, from a private copy: beside a shell editing
/// it, and with work waiting for recovery, which `info` and `check` describe apart.
final class ArchiveReadingTests: CommandLineTestCase {
    func testAnArchiveIsReadBesideItsWriter() throws {
        let doc = try makeOutline("C.zip", holding: "one")
        let input = Pipe()
        let (shell, out, err) = try start(["open", doc, "--autosave-interval", "0"], stdin: input.fileHandleForReading)
        input.fileHandleForWriting.write(Data("add two\ntree\n".utf8))
        XCTAssertTrue(out.wait(for: "2. two"), err.current)
        let listed = try succeed("outline", "ls", doc).stdout
        XCTAssertEqual(listed, "1. one\n", "the archive as saved, not the shell's unsaved edit")
        try succeed("export", doc, path("c.opml"), "--format", "opml")
        XCTAssertTrue(try succeed("info", doc).stdout.contains("1 items"))
        let locked = try run(["outline", "add", doc, "three"])
        XCTAssertEqual(locked.status, 75, locked.stderr)
        XCTAssertEqual(locked.stderr.components(separatedBy: "read-only").count, 2, "the advice once: \(locked.stderr)")
        try input.fileHandleForWriting.close()
        shell.waitUntilExit()
        XCTAssertEqual(try succeed("outline", "ls", doc).stdout, "1. one\n2. two\n")
        let readingCopies = try? FileManager.default.contentsOfDirectory(atPath: path("state/poddoc/reading"))
        XCTAssertEqual(readingCopies ?? [], [], "reading copies are removed on close")
    }

    /// Reading does not depend on the state folder: when it cannot be written, the reading
    /// copy goes to the temporary folder.
    func testAnArchiveIsReadWhenTheStateFolderCannotBeWritten() throws {
        let doc = try makeOutline("C.zip", holding: "one")
        try mount(["-t", "tmpfs", "-o", "size=1m,ro", "tmpfs"], at: path("rostate"), why: "a read-only state folder")
        let mine = environment
        environment["XDG_STATE_HOME"] = path("rostate/state")
        defer { environment = mine }
        XCTAssertEqual(try succeed("outline", "ls", doc).stdout, "1. one\n")
        try succeed("export", doc, path("out.opml"), "--format", "opml")
        XCTAssertTrue(try String(contentsOfFile: path("out.opml"), encoding: .utf8).contains("one"))
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: FileManager.default.temporaryDirectory.path).filter {
            $0.hasPrefix("poddoc-reading-")
        }
        XCTAssertEqual(leftovers, [], "the temporary reading copies are removed on close")
        let edit = try run(["outline", "add", doc, "two"])
        XCTAssertNotEqual(edit.status, 0, "editing an archive needs its working copy in the state folder")
    }

    func testInfoAndCheckDescribeTheDocumentAndTheWaitingWork() throws {
        let doc = try makeOutline("C.zip", holding: "one")
        try crashAfterAutosave(doc, typing: "add \"autosaved two\"\n")

        let info = try succeed("info", doc).stdout
        XCTAssertTrue(info.contains("contents       1 items"), "the archive as it is on disk: \(info)")
        XCTAssertTrue(info.contains("waits for recovery") && info.contains("bytes)"), info)
        let json = try JSONSerialization.jsonObject(with: Data(try succeed("info", doc, "--json").stdout.utf8)) as? [String: Any]
        XCTAssertGreaterThan((json?["recovery"] as? [String: Any])?["bytes"] as? Int ?? 0, 0)
        XCTAssertEqual(try succeed("outline", "ls", doc).stdout, "1. one\n")
        let checked = try succeed("check", doc).stdout
        XCTAssertTrue(checked.contains("the work waiting for recovery") && checked.contains(": ok"), checked)

        // Damage the waiting work: check says so, naming it; the archive itself is fine.
        let store = try XCTUnwrap(
            try FileManager.default.subpathsOfDirectory(atPath: path("state/poddoc/working")).first {
                $0.hasSuffix("StoreContent/persistentStore")
            })
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path("state/poddoc/working/\(store)")))
        try handle.truncate(atOffset: 0)
        try handle.close()
        let damaged = try run(["check", doc])
        XCTAssertEqual(damaged.status, 76, damaged.stderr)
        XCTAssertTrue(damaged.stdout.contains("the work waiting for recovery"), damaged.stdout)
    }
}
