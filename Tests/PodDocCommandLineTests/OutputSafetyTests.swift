import Foundation
import XCTest

/// Where commands write, through the real binary: poddoc never deletes or replaces a file or
/// folder it did not create unless told to (`--force`), and never writes inside the document
/// it reads, however the path is spelled.
final class OutputSafetyTests: CommandLineTestCase {
    /// Every file under `folder` (or the file itself) with its bytes, for before/after checks.
    private func snapshot(_ root: String) throws -> [String: Data] {
        var files: [String: Data] = [:]
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: root, isDirectory: &isFolder) else { return [:] }
        guard isFolder.boolValue else { return ["": try Data(contentsOf: URL(fileURLWithPath: root))] }
        for case let name as String in FileManager.default.enumerator(atPath: root)! {
            let full = root + "/" + name
            var folder: ObjCBool = false
            FileManager.default.fileExists(atPath: full, isDirectory: &folder)
            files[name] = folder.boolValue ? Data() : try Data(contentsOf: URL(fileURLWithPath: full))
        }
        return files
    }

    func testASpecsExportNeverDeletesAFolderItDidNotCreate() throws {
        let doc = path("Specs.poddoc")
        try succeed("new", doc, "--kind", "pods")
        try succeed("import", doc, "--from", Self.sampleSpecs)
        let target = path("d")
        try FileManager.default.createDirectory(atPath: target + "/sub", withIntermediateDirectories: true)
        try Data("x\n".utf8).write(to: URL(fileURLWithPath: target + "/notes.txt"))
        let before = try snapshot(target)

        let refused = try fail(66, "export", doc, target, "--format", "specs")
        XCTAssertTrue(refused.stderr.contains("already exists") && refused.stderr.contains("--force"), refused.stderr)
        XCTAssertEqual(try snapshot(target), before, "the user's folder is untouched")

        // --force swaps a complete export in for the old folder.
        try succeed("export", doc, target, "--format", "specs", "--force")
        XCTAssertFalse(FileManager.default.fileExists(atPath: target + "/notes.txt"))
        XCTAssertTrue(FileManager.default.fileExists(atPath: target + "/AFNetworking"))
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix(".") }
        XCTAssertEqual(leftovers, [], "no temporary sibling is left behind")
    }

    func testExportsToExistingFilesAndLinksAreRefusedUnlessForced() throws {
        let doc = try makeOutline("A.poddoc", holding: "Groceries")
        for (name, format) in [("out.opml", "opml"), ("out.zip", "archive"), ("out.md", "markdown")] {
            let target = path(name)
            try Data("mine\n".utf8).write(to: URL(fileURLWithPath: target))
            let refused = try fail(66, "export", doc, target, "--format", format)
            XCTAssertTrue(refused.stderr.contains("already exists"), refused.stderr)
            XCTAssertEqual(try String(contentsOfFile: target, encoding: .utf8), "mine\n", "\(name) is kept")
            try succeed("export", doc, target, "--format", format, "--force")
            XCTAssertNotEqual(try Data(contentsOf: URL(fileURLWithPath: target)), Data("mine\n".utf8))
        }
        // A symbolic link at the target is something that exists: refused, and its target kept.
        try Data("precious\n".utf8).write(to: URL(fileURLWithPath: path("precious.txt")))
        try FileManager.default.createSymbolicLink(atPath: path("link.opml"), withDestinationPath: path("precious.txt"))
        try fail(66, "export", doc, path("link.opml"), "--format", "opml")
        try succeed("export", doc, path("link.opml"), "--format", "opml", "--force")
        XCTAssertEqual(
            try String(contentsOfFile: path("precious.txt"), encoding: .utf8), "precious\n",
            "a forced export replaces the link, never what it points at")
    }

    func testAnOutputInsideTheDocumentIsRefusedHoweverItIsSpelled() throws {
        let doc = try makeOutline("A.poddoc", holding: "Groceries")
        try FileManager.default.createSymbolicLink(atPath: path("into"), withDestinationPath: doc + "/AdditionalContent")
        let before = try snapshot(doc)
        let spellings = [
            doc + "/AdditionalContent/x.opml",
            path("B/../A.poddoc/x.opml"),
            path("into/x.opml"),
            doc,
        ]
        for output in spellings {
            let refused = try fail(64, "export", doc, output, "--format", "opml", "--force")
            XCTAssertTrue(refused.stderr.contains("inside the document"), refused.stderr)
        }
        let holder = try fail(64, "export", doc, folder.path, "--format", "opml", "--force")
        XCTAssertTrue(holder.stderr.contains("holds the document"), holder.stderr)
        try fail(64, "save", doc, "--as", doc + "/StoreContent/B.poddoc")
        XCTAssertEqual(try snapshot(doc), before, "the document is byte for byte as it was")
        XCTAssertTrue(try succeed("check", doc).stdout.contains(": ok"))
        try succeed("outline", "add", doc, "Still editable")
    }

    func testAnArchiveDocumentsWorkingCopyIsProtectedToo() throws {
        let doc = try makeOutline("A.poddoc", holding: "Groceries")
        try succeed("save", doc, "--as", path("A.zip"))
        let input = Pipe()
        let (shell, out, errors) = try start(["open", path("A.zip")], stdin: input.fileHandleForReading)
        input.fileHandleForWriting.write(Data("tree\n".utf8))
        XCTAssertTrue(out.wait(for: "Groceries"), out.current + errors.current)
        let working = path("state/poddoc/working")
        let copy = try XCTUnwrap(try FileManager.default.contentsOfDirectory(atPath: working).first)
        let inside = "\(working)/\(copy)/Document.poddoc/x.opml"
        input.fileHandleForWriting.write(Data("export \(inside) --format opml\nquit\n".utf8))
        try input.fileHandleForWriting.close()
        shell.waitUntilExit()
        errors.waitForEnd()
        XCTAssertTrue(errors.current.contains("inside the document"), errors.current)
        XCTAssertFalse(FileManager.default.fileExists(atPath: inside))
        XCTAssertTrue(try succeed("check", path("A.zip")).stdout.contains(": ok"))
    }
}
