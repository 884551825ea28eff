import Foundation
import GRDB
import XCTest

/// `poddoc versions`, through the binary: every save's entry, an import's saves as one, the
/// undo action names of a shell session, the history kept in archives, bad arguments.
final class VersionsTests: CommandLineTestCase {
    func testEverySaveIsListedWithWhatItChanged() throws {
        let doc = path("Notes.poddoc")
        try succeed("new", doc, "--kind", "outline")
        XCTAssertTrue(try succeed("versions", doc).stdout.contains("no saves recorded"))
        try succeed("outline", "add", doc, "Work")
        try succeed("outline", "add", doc, "Home")
        try succeed("outline", "rename", doc, "1", "Office")
        try succeed("open", doc, "-c", "add Garden; undo; add Shed; quit")

        let listing = try succeed("versions", doc, "--json").json(VersionsShape.self)
        XCTAssertEqual(listing.versions.map(\.save), [4, 3, 2, 1])
        XCTAssertEqual(
            listing.versions.map(\.description),
            [#"Add "Garden", Undo Add "Garden", Add "Shed""#, #"Rename "Work" to "Office""#, #"Add "Home""#, #"Add "Work""#])
        XCTAssertEqual(listing.versions[1].summary, "OutlineItem: 1 updated (title, modified)")
        XCTAssertEqual(listing.versions[0].inserted, 1, "the shell's save holds Shed only")
        XCTAssertFalse(listing.versions[0].host.isEmpty)
        XCTAssertTrue(listing.versions[0].writer.contains("poddoc"), listing.versions[0].writer)
        XCTAssertLessThan(abs(listing.versions[0].time.timeIntervalSinceNow), 300)

        let text = try succeed("versions", doc, "--last", "2").stdout
        XCTAssertTrue(text.hasPrefix("save 4  "), text)
        XCTAssertTrue(text.contains("  Rename \"Work\" to \"Office\"\n  OutlineItem: 1 updated (title, modified)\n"), text)
        XCTAssertFalse(text.contains("save 2"), text)

        // The history travels with the document in an archive.
        try succeed("export", doc, path("Notes.poddoc.tar.zst"), "--format", "archive")
        XCTAssertEqual(
            try succeed("versions", path("Notes.poddoc.tar.zst"), "--json").json(VersionsShape.self).versions.map(\.save), [4, 3, 2, 1])

        try fail(64, "versions", doc, "--last", "0")
        try fail(66, "versions", path("Missing.poddoc"))
    }

    func testADamagedHistoryIsReportedAndTheContentStaysReadable() throws {
        let doc = path("Notes.poddoc")
        try succeed("new", doc, "--kind", "outline")
        try succeed("outline", "add", doc, "Work")
        let store = path("Notes.poddoc/StoreContent/persistentStore")
        func change(_ sql: String) throws {
            let db = try DatabaseQueue(path: store)
            try db.write { try $0.execute(sql: sql) }
            try db.close()
        }
        // A value of the wrong type, and escape sequences: a clean error, a safe listing.
        try change("UPDATE _poddoc_history SET inserted = 'many'")
        XCTAssertTrue(try fail(76, "versions", doc).stderr.contains("wrong type in 'inserted'"))
        try change("UPDATE _poddoc_history SET inserted = 1, description = 'x' || char(27) || '[31mred'")
        let listing = try succeed("versions", doc).stdout
        XCTAssertFalse(listing.contains("\u{1B}"), listing)

        // A table of another shape: reads work, the listing says what is wrong, edits are refused.
        try change("DROP TABLE _poddoc_history; CREATE TABLE _poddoc_history (x)")
        XCTAssertTrue(try fail(76, "versions", doc).stderr.contains("history table has no column 'save'"))
        try succeed("outline", "tree", doc)
        try succeed("export", doc, path("out.opml"), "--format", "opml")
        let refused = try run(["outline", "add", doc, "More"])
        XCTAssertNotEqual(refused.status, 0)
        XCTAssertTrue(refused.stderr.contains("export its content into a new document"), refused.stderr)
    }

    func testAnImportIsOneEntry() throws {
        let doc = path("Specs.poddoc")
        try succeed("new", doc, "--kind", "pods")
        try succeed("import", doc, "--from", Self.sampleSpecs)
        let listing = try succeed("versions", doc, "--json").json(VersionsShape.self)
        XCTAssertEqual(listing.versions.count, 1, "\(listing.versions)")
        let entry = try XCTUnwrap(listing.versions.first)
        XCTAssertEqual(entry.description, "Import pod specs")
        XCTAssertTrue(entry.summary.contains("PodSpec: "), entry.summary)
        XCTAssertGreaterThan(entry.inserted, 1)
    }
}
