import Foundation
import XCTest

/// A long note through the real binary: listing reads no note, an export holds the note
/// about twice (not the eight to ten copies it took), and deleting the item or renumbering it
/// about twice as well. Peak memory is GNU time's maximum resident size of the child,
/// compared with the same command on a document without the note; bounds are in multiples of
/// the note, and every edit stays under the bar of three notes plus the process's own 45 MB.
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
        try writeOPML(
            "long.opml",
            body: [#"<outline text="first"/>"#, #"<outline text="Long" _note=""# + escaped + #""/>"#, #"<outline text="after"/>"#])
        try writeOPML(
            "plain.opml", body: [#"<outline text="first"/>"#, #"<outline text="Long" _note="short"/>"#, #"<outline text="after"/>"#])
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
        try extraNotesAndPeak(arguments, long: long, plain: plain).extra
    }

    /// ``extraNotes(_:long:plain:)``, and the peak on the long document in bytes.
    private func extraNotesAndPeak(_ arguments: (String) -> [String], long: String, plain: String) throws -> (extra: Double, peak: Int) {
        let (small, smallPeak) = try peakMemory(arguments(plain))
        XCTAssertEqual(small.status, 0, small.stderr)
        let (big, bigPeak) = try peakMemory(arguments(long))
        XCTAssertEqual(big.status, 0, big.stderr)
        return (Double(bigPeak - smallPeak) / Double(Self.noteBytes), bigPeak)
    }

    func testListingReadsNoNote() throws {
        let (long, plain) = try makeDocuments()
        // Listing the top, the items under the note's own item (by position and by title),
        // the tree and a search.
        for command in [
            ["outline", "ls"], ["outline", "ls", "2"], ["outline", "ls", "/Long"], ["outline", "tree"], ["outline", "find", "Long"],
        ] {
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
            let extra = try extraNotes(
                { ["export", $0, self.path("\(URL(fileURLWithPath: $0).lastPathComponent).\(format)"), "--format", format, "--force"] },
                long: long, plain: plain)
            XCTAssertLessThan(
                extra, 3, "\(format): the note is held about twice (read, and as a string), never the file (\(extra) notes more)")
        }
        let exported = try Data(contentsOf: URL(fileURLWithPath: path("Long.poddoc.opml")))
        XCTAssertGreaterThan(exported.count, Self.noteBytes, "the whole note was written")
        try succeed("new", path("Back.poddoc"), "--kind", "outline")
        try succeed("import", path("Back.poddoc"), "--opml", path("Long.poddoc.opml"))
        XCTAssertEqual(
            try succeed("outline", "ls", path("Back.poddoc"), "--json").stdout, try succeed("outline", "ls", long, "--json").stdout)
    }

    /// Adding, inserting beside the item and moving a sibling past it read the note once (the
    /// document's hash): each takes its place from its neighbours' keys in the index and tells
    /// its position by counting there, so no row of the note's list is read whole.
    func testEditsBesideTheNoteHoldItOnce() throws {
        let (long, plain) = try makeDocuments()
        let copy = path("Copy.poddoc")
        let plainCopy = path("PlainCopy.poddoc")
        for edit in [["add", "x"], ["insert", "2", "x"], ["insert", "1", "x"], ["mv", "3", "--under", "/", "--at", "1"]] {
            for (from, to) in [(long, copy), (plain, plainCopy)] {
                try? FileManager.default.removeItem(atPath: to)
                try FileManager.default.copyItem(atPath: from, toPath: to)
            }
            let extra = try extraNotes({ ["outline", edit[0], $0] + edit.dropFirst() }, long: copy, plain: plainCopy)
            XCTAssertLessThan(extra, 1.5, "outline \(edit.joined(separator: " ")): \(extra) notes more")
        }
        XCTAssertTrue(try succeed("check", copy).stdout.contains(": ok"))
    }

    /// Deleting the item holds the note about twice (the object's copy and the JSON of the
    /// history entry, which goes into the store without a third copy); deleting a sibling
    /// before or after it once (the document's hash reads it: a sibling's order key is its own,
    /// so the item is not changed). The history keeps the deleted note: `revert` brings it back.
    func testDeletingTheItemOrASiblingHoldsTheNoteAFewTimes() throws {
        let (long, plain) = try makeDocuments()
        let copy = path("Copy.poddoc")
        let plainCopy = path("PlainCopy.poddoc")
        for (item, bound) in [("2", 2.5), ("1", 1.5), ("3", 1.5)] {
            for (from, to) in [(long, copy), (plain, plainCopy)] {
                try? FileManager.default.removeItem(atPath: to)
                try FileManager.default.copyItem(atPath: from, toPath: to)
            }
            let (extra, peak) = try extraNotesAndPeak({ ["outline", "rm", $0, item] }, long: copy, plain: plainCopy)
            XCTAssertLessThan(extra, bound, "rm \(item): \(extra) notes more")
            // The bar: under three notes plus the process's own 45 MB.
            XCTAssertLessThan(peak, 3 * Self.noteBytes + 45_000_000, "rm \(item)")
        }
        XCTAssertEqual(try succeed("outline", "tree", copy).stdout, "1. first\n2. Long\n")
        XCTAssertTrue(try succeed("check", copy).stdout.contains(": ok"))

        // The deleted note's history entry (kept as the bytes of its JSON) reads back.
        try? FileManager.default.removeItem(atPath: copy)
        try FileManager.default.copyItem(atPath: long, toPath: copy)
        try succeed("outline", "rm", copy, "2")
        XCTAssertTrue(try succeed("versions", copy).stdout.contains("Delete \"Long\""))
        XCTAssertTrue(try succeed("diff", copy, "--from", "1").stdout.contains("Long"))
        try succeed("revert", copy, "--to", "1")
        XCTAssertEqual(try succeed("outline", "ls", copy, "--json").stdout, try succeed("outline", "ls", long, "--json").stdout)
        XCTAssertTrue(try succeed("check", copy).stdout.contains(": ok"))
    }
}
