import Foundation
import XCTest

/// Damaged and hostile packages, through the real binary: a store whose bytes changed on disk
/// or that lost them is never written to (nor stamped healthy by a fresh hash), and parts that
/// are symbolic links are refused by name instead of followed into another document.
final class DamagedDocumentTests: CommandLineTestCase {
    /// A 700-item outline made through `import --opml`.
    private func makeOutline(_ name: String) throws -> String {
        try writeOPML(
            "big.opml",
            body: (0..<700).lazy.map { i in
                #"<outline text="item number \#(i) with text to fill pages \#(String(repeating: "x", count: 40))" _note="note \#(i)"/>"#
            })
        let doc = path(name)
        try succeed("new", doc, "--kind", "outline")
        try succeed("import", doc, "--opml", path("big.opml"))
        return doc
    }

    private func store(of doc: String) -> URL { URL(fileURLWithPath: doc + "/StoreContent/persistentStore") }

    private func damage(_ doc: String, _ change: (inout Data) -> Void) throws {
        var bytes = try Data(contentsOf: store(of: doc))
        change(&bytes)
        try bytes.write(to: store(of: doc))
    }

    /// Editing commands on a damaged store fail with exit 76 and change nothing; `check`
    /// still says damaged afterwards, and what can be read still exports.
    private func assertRefusesWriting(_ doc: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let before = try Data(contentsOf: store(of: doc))
        let metadata = try Data(contentsOf: URL(fileURLWithPath: doc + "/DocumentMetadata.json"))
        for command in [["outline", "add", doc, "x"], ["import", doc, "--opml", path("big.opml")]] {
            let refused = try run(command)
            XCTAssertEqual(refused.status, 76, "\(command): \(refused.stderr)", file: file, line: line)
            XCTAssertTrue(
                refused.stderr.contains("will not write to it") && refused.stderr.contains("--read-only"), refused.stderr, file: file,
                line: line)
            XCTAssertFalse(refused.stdout.contains("Add"), refused.stdout, file: file, line: line)
        }
        XCTAssertEqual(try Data(contentsOf: store(of: doc)), before, "the store is as it was", file: file, line: line)
        XCTAssertEqual(
            try Data(contentsOf: URL(fileURLWithPath: doc + "/DocumentMetadata.json")), metadata, "no fresh hash", file: file, line: line)
        XCTAssertEqual(try run(["check", doc]).status, 76, "still damaged", file: file, line: line)
    }

    func testFlippedBytesInTheStoreAreNeverStampedHealthy() throws {
        let doc = try makeOutline("Flipped.poddoc")
        try damage(doc) { bytes in
            for i in 50_000...50_100 { bytes[i] ^= 0xFF }
        }
        try assertRefusesWriting(doc)
    }

    func testChangedTextThatSQLiteCannotSeeIsCaughtByTheHash() throws {
        let doc = try makeOutline("Changed.poddoc")
        try damage(doc) { bytes in
            let at = bytes.range(of: Data("item number 335 ".utf8))!.lowerBound
            bytes.replaceSubrange(at..<at + 4, with: Data("ITEM".utf8))
        }
        try assertRefusesWriting(doc)
        // Reading still works, to save what can be read.
        try succeed("export", doc, path("rescued.opml"), "--format", "opml")
        XCTAssertTrue(try String(contentsOfFile: path("rescued.opml"), encoding: .utf8).contains("item number 699"))
    }

    func testAnEmptyStoreIsNotReplacedByANewOne() throws {
        let doc = try makeOutline("Emptied.poddoc")
        try Data().write(to: store(of: doc))
        for command in [["outline", "add", doc, "x"], ["outline", "tree", doc], ["check", doc], ["open", doc, "-c", "tree"]] {
            let refused = try run(command)
            XCTAssertEqual(refused.status, 76, "\(command): \(refused.stderr)")
            XCTAssertTrue(refused.stderr.contains("is empty, 0 bytes"), refused.stderr)
        }
        XCTAssertEqual(try Data(contentsOf: store(of: doc)).count, 0, "still the user's file, not an empty store")
    }

    func testSymbolicLinksForPartsAreRefusedByName() throws {
        let other = path("Other.poddoc")
        try succeed("new", other, "--kind", "outline")
        try succeed("outline", "add", other, "Other's item")
        let otherBytes = try Data(contentsOf: store(of: other))
        for part in ["StoreContent", "AdditionalContent", "DocumentMetadata.json", "StoreContent/persistentStore"] {
            let doc = path("Linked-\(part.replacingOccurrences(of: "/", with: "-")).poddoc")
            try succeed("new", doc, "--kind", "outline")
            try FileManager.default.removeItem(atPath: doc + "/" + part)
            try FileManager.default.createSymbolicLink(atPath: doc + "/" + part, withDestinationPath: other + "/" + part)
            for command in [["outline", "add", doc, "x"], ["outline", "tree", doc], ["check", doc]] {
                let refused = try run(command)
                XCTAssertNotEqual(refused.status, 0, "\(part) \(command)")
                XCTAssertTrue(refused.stderr.contains("its \(part) is a symbolic link"), refused.stderr)
            }
        }
        XCTAssertEqual(try Data(contentsOf: store(of: other)), otherBytes, "the other document was not touched")
        XCTAssertEqual(try succeed("outline", "tree", other).stdout, "1. Other's item\n")
    }

    /// A FIFO in the lock file's place (a hostile or broken package) neither hangs a reader,
    /// which reads without the lock, nor an editor, which is refused in one line.
    func testAFIFOInPlaceOfTheLockFileHangsNothing() throws {
        let doc = path("Fifo.poddoc")
        try succeed("new", doc, "--kind", "outline")
        try succeed("outline", "add", doc, "Groceries")
        try FileManager.default.removeItem(atPath: doc + "/.poddoc-lock")
        XCTAssertEqual(mkfifo(doc + "/.poddoc-lock", 0o644), 0)
        XCTAssertEqual(try succeed("outline", "tree", doc).stdout, "1. Groceries\n")
        let refused = try fail(66, "outline", "add", doc, "Milk")
        XCTAssertTrue(refused.stderr.contains("is not a regular file"), refused.stderr)
        try succeed("info", doc)
    }
}
