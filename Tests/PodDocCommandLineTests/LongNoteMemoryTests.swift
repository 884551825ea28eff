import Foundation
import XCTest

/// A long note through the real binary: listing reads no note, an export holds the note
/// about twice (not the eight to ten copies it took), and deleting the item or renumbering it
/// holds it about five times (the object's row, the history's JSON of the deleted row,
/// SQLite's record of it and the pages SQLite reads to rewrite or delete the row). Peak memory is GNU time's maximum resident size of the child, compared with
/// the same command on a document without the note; bounds are in multiples of the note.
final class LongNoteMemoryTests: CommandLineTestCase {
    /// The note's size: long enough that each copy of it stands out of the process's own
    /// memory (about 45 MB).
    private static let noteBytes = 32 << 20

    /// An outline `first`, `Long` (with the note), `after`; and the same without the note.
    private func makeDocuments() throws -> (long: String, plain: String) {
        let unit = "words & <marks> \"quoted\"\n"
        let note = String(repeating: unit, count: Self.noteBytes / unit.utf8.count)
        let escaped = note.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
            .replacingOccurrences(of: "\n", with: "&#10;")
        try writeOPML("long.opml", body: [#"<outline text="first"/>"#, #"<outline text="Long" _note=""# + escaped + #""/>"#, #"<outline text="after"/>"#])
        try writeOPML("plain.opml", body: [#"<outline text="first"/>"#, #"<outline text="Long" _note="short"/>"#, #"<outline text="after"/>"#])
        let long = path("Long.poddoc")
        let plain = path("Plain.poddoc")
        for (doc, opml) in [(long, "long.opml"), (plain, "plain.opml")] {
            try succeed("new", doc, "--kind", "outline")
            try succeed("import", doc, "--opml", path(opml))
        }
        return (long, plain)
    }

    /// How much more `arguments` takes on the long document than on the plain one, in notes.
    private func extraNotes(_ arguments: (String) -> [String], long: String, plain: String) throws -> Double {
        let (small, smallPeak) = try peakMemory(arguments(plain))
        XCTAssertEqual(small.status, 0, small.stderr)
        let (big, bigPeak) = try peakMemory(arguments(long))
        XCTAssertEqual(big.status, 0, big.stderr)
        return Double(bigPeak - smallPeak) / Double(Self.noteBytes)
    }

    func testListingReadsNoNote() throws {
        let (long, plain) = try makeDocuments()
        // Listing the top, the items under the note's own item (by position and by title),
        // the tree and a search.
        for command in [["outline", "ls"], ["outline", "ls", "2"], ["outline", "ls", "/Long"], ["outline", "tree"], ["outline", "find", "Long"]] {
            let extra = try extraNotes({ Array(command[0...1]) + [$0] + command.dropFirst(2) }, long: long, plain: plain)
            XCTAssertLessThan(extra, 0.5, "\(command.joined(separator: " ")) holds no copy of the note (\(extra) notes more)")
        }
        XCTAssertEqual(try succeed("outline", "ls", long).stdout, "1. first\n2. Long  [note]\n3. after\n")
        let listed = try succeed("outline", "ls", long, "--json").json(ItemListShape.self)
        XCTAssertEqual(listed.items.map(\.note?.utf8.count), [nil, Self.noteBytes / 25 * 25, nil])
    }

    func testExportsStreamTheNote() throws {
        let (long, plain) = try makeDocuments()
        for format in ["opml", "markdown", "json", "text"] {
            let extra = try extraNotes({ ["export", $0, self.path("\(URL(fileURLWithPath: $0).lastPathComponent).\(format)"), "--format", format, "--force"] }, long: long, plain: plain)
            XCTAssertLessThan(extra, 3, "\(format): the note is held about twice (read, and as a string), never the file (\(extra) notes more)")
        }
        let exported = try Data(contentsOf: URL(fileURLWithPath: path("Long.poddoc.opml")))
        XCTAssertGreaterThan(exported.count, Self.noteBytes, "the whole note was written")
        try succeed("new", path("Back.poddoc"), "--kind", "outline")
        try succeed("import", path("Back.poddoc"), "--opml", path("Long.poddoc.opml"))
        XCTAssertEqual(try succeed("outline", "ls", path("Back.poddoc"), "--json").stdout, try succeed("outline", "ls", long, "--json").stdout)
    }

    func testDeletingTheItemOrASiblingHoldsTheNoteAFewTimes() throws {
        let (long, plain) = try makeDocuments()
        let copy = path("Copy.poddoc")
        let plainCopy = path("PlainCopy.poddoc")
        for (item, bound) in [("2", 6.0), ("1", 6.0)] {
            for (from, to) in [(long, copy), (plain, plainCopy)] {
                try? FileManager.default.removeItem(atPath: to)
                try FileManager.default.copyItem(atPath: from, toPath: to)
            }
            let extra = try extraNotes({ ["outline", "rm", $0, item] }, long: copy, plain: plainCopy)
            XCTAssertLessThan(extra, bound, "rm \(item): \(extra) notes more")
        }
        XCTAssertEqual(try succeed("outline", "tree", copy).stdout, "1. Long\n2. after\n")
        XCTAssertTrue(try succeed("check", copy).stdout.contains(": ok"))
    }
}
