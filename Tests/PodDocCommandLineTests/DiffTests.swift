import Foundation
import GRDB
import XCTest

/// `poddoc diff`, through the binary: an outline's changes in its own terms (added, removed,
/// moved, renamed, notes), between two saves or two copies; pods' versions and fields; what
/// does not compare is refused; both documents are only read.
final class DiffTests: CommandLineTestCase {
    private func items(_ arguments: String...) throws -> [DiffShape.Item] {
        let result = try run(["diff"] + arguments + ["--json"])
        XCTAssertEqual(result.status, 0, result.stderr)
        return try result.json(DiffShape.self).items ?? []
    }

    private func item(
        _ kind: String, _ title: String, _ path: String, from: String? = nil, below: Int? = nil, properties: [String]? = nil
    )
        -> DiffShape.Item
    {
        DiffShape.Item(kind: kind, title: title, path: path, from: from, below: below, properties: properties)
    }

    func testAnOutlinesChangesAreToldInItsTerms() throws {
        let doc = try makeOutline("Notes.poddoc", holding: "Work", "Home")  // saves 1, 2
        try succeed("outline", "add", doc, "Garden", "--under", "2")  // 3
        try succeed("outline", "add", doc, "Shed", "--under", "2")  // 4
        try succeed("outline", "rename", doc, "1", "Office")  // 5
        try succeed("outline", "note", doc, "2.1", "Water the roses")  // 6
        try succeed("outline", "mv", doc, "2.2", "--under", "1")  // 7
        try succeed("outline", "add", doc, "Milk")  // 8
        try succeed("outline", "rm", doc, "2")  // 9: Home and Garden
        let before = try hashes(doc)

        XCTAssertEqual(
            try items(doc, "--from", "4"),
            [
                item("removed", "Home", "2", below: 1),
                item("renamed", "Office", "1", from: "Work"),
                item("moved", "Shed", "1.1", from: "2.2"),
                item("added", "Milk", "2", below: 0),
            ])
        XCTAssertEqual(
            try items(doc, "--from", "4", "--to", "6"),
            [item("renamed", "Office", "1", from: "Work"), item("noteChanged", "Garden", "2.1")])
        XCTAssertEqual(try items(doc, "--from", "1", "--to", "2"), [item("added", "Home", "2", below: 0)], "an added sibling moves nothing")
        XCTAssertEqual(try items(doc, "--from", "2", "--to", "3"), [item("added", "Garden", "2.1", below: 0)])

        let text = try succeed("diff", doc, "--from", "4").stdout
        XCTAssertTrue(text.contains("- 2 \"Home\" (and 1 item below it)\n"), text)
        XCTAssertTrue(text.contains("> 1.1 \"Shed\" moved from 2.2\n"), text)
        XCTAssertTrue(text.contains("~ 1 \"Office\" renamed from \"Work\"\n"), text)
        XCTAssertTrue(text.hasSuffix("Notes.poddoc at save 4 → \(doc): 1 added, 1 removed, 1 moved, 1 renamed.\n"), text)
        XCTAssertTrue(try succeed("diff", doc, "--from", "9").stdout.contains("No differences"))

        // Two copies: the same answer as the saves.
        let copy = path("Notes-at-4.poddoc.tar.zst")
        try succeed("export", doc, copy, "--format", "archive", "--at", "4")
        XCTAssertEqual(try items(copy, doc), try items(doc, "--from", "4"))
        XCTAssertEqual(try hashes(doc), before, "diff only reads")

        // A property no other kind of change reports is named.
        try succeed("outline", "done", doc, "1")  // 10
        XCTAssertEqual(try items(doc, "--from", "9"), [item("changed", "Office", "1", properties: ["status"])])
    }

    func testMovingOneItemAmongItsSiblingsReportsThatItemAlone() throws {
        let doc = try makeOutline("Notes.poddoc", holding: "A", "B", "C", "D")
        try succeed("outline", "mv", doc, "4", "--under", "/", "--at", "1")
        XCTAssertEqual(try items(doc, "--from", "4"), [item("moved", "D", "1", from: "4")])
    }

    /// `--exit-code`: 1 when anything differs, 0 when nothing does, as diff(1); without it,
    /// 0 either way.
    func testExitCodeSaysWhetherAnythingDiffers() throws {
        let doc = try makeOutline("Notes.poddoc", holding: "Work")  // save 1
        try succeed("outline", "add", doc, "Home")  // 2
        XCTAssertEqual(try run(["diff", doc, "--from", "1", "--exit-code"]).status, 1)
        XCTAssertEqual(try run(["diff", doc, "--from", "1"]).status, 0)
        XCTAssertEqual(try run(["diff", doc, "--from", "2", "--exit-code"]).status, 0, "nothing since save 2")
        let shown = try run(["diff", doc, "--from", "1", "--exit-code", "--json"])
        XCTAssertEqual(shown.status, 1)
        XCTAssertEqual(try shown.json(DiffShape.self).items?.count, 1, "the differences are printed all the same")
    }

    func testAnOutlineStartedAgainComparesItemByItem() throws {
        // Going back to save 0 removes the root item too (a new document has none until its
        // first save); the next edit makes a new one.
        let doc = try makeOutline("Notes.poddoc", holding: "Work", "Home")
        try succeed("revert", doc, "--to", "0")
        try succeed("outline", "add", doc, "Fresh")
        XCTAssertEqual(try items(doc, "--from", "3"), [item("added", "Fresh", "1", below: 0)])
        XCTAssertEqual(
            try items(doc, "--from", "2"),
            [item("removed", "Work", "1", below: 0), item("removed", "Home", "2", below: 0), item("added", "Fresh", "1", below: 0)])
        try succeed("check", doc)
    }

    func testWhatDoesNotCompareIsRefused() throws {
        let doc = try makeOutline("Notes.poddoc", holding: "Work")
        let other = try makeOutline("Other.poddoc", holding: "Work")
        let pods = path("Specs.poddoc")
        try succeed("new", pods, "--kind", "pods")
        XCTAssertTrue(try fail(65, "diff", doc, other).stderr.contains("different outlines"))
        XCTAssertTrue(try fail(65, "diff", doc, pods).stderr.contains("only documents of one kind compare"))
        try fail(64, "diff", doc)
        try fail(64, "diff", doc, other, "--from", "1")
        try fail(64, "diff", doc, "--to", "1")
        XCTAssertTrue(try fail(65, "diff", doc, "--from", "7").stderr.contains("poddoc versions"))
        try fail(66, "diff", doc, path("Missing.poddoc"))
    }

    func testPodsVersionsAndFieldsAreCompared() throws {
        let a = path("A.poddoc")
        try succeed("new", a, "--kind", "pods")
        try succeed("import", a, "--from", Self.sampleSpecs)
        let b = path("B.poddoc")
        try succeed("save", a, "--as", b)
        XCTAssertTrue(try succeed("diff", a, b).stdout.contains("No differences"))

        // Out of band, on the copy: one summary changed.
        let db = try DatabaseQueue(path: path("B.poddoc/StoreContent/persistentStore"))
        let changedKey = try db.write { db -> String in
            let key = try XCTUnwrap(try String.fetchOne(db, sql: "SELECT key FROM PodSpec ORDER BY key LIMIT 1"))
            try db.execute(sql: "UPDATE PodSpec SET summary = 'Changed' WHERE key = ?", arguments: [key])
            return key
        }
        try db.close()
        let specs = try XCTUnwrap(try succeed("diff", a, b, "--json").json(DiffShape.self).specs)
        XCTAssertEqual(
            specs,
            [DiffShape.Spec(kind: "changed", name: specs.first?.name ?? "", version: specs.first?.version ?? "", fields: ["summary"])])
        XCTAssertEqual("\(specs[0].name)/\(specs[0].version)", changedKey)
        XCTAssertTrue(try succeed("diff", a, b).stdout.contains("~ \(specs[0].name) \(specs[0].version): summary\n"))

        // Any two pods documents compare: an empty one against the import.
        let empty = path("Empty.poddoc")
        try succeed("new", empty, "--kind", "pods")
        let added = try XCTUnwrap(try succeed("diff", empty, a, "--json").json(DiffShape.self).specs)
        XCTAssertEqual(Set(added.map(\.kind)), ["added"])
        XCTAssertEqual("\(added.count)\n", try succeed("pods", "count", a).stdout.filter { $0.isNumber || $0 == "\n" })

        // One document at two saves: an import and its revert.
        try succeed("revert", a, "--to", "0")
        let all = try XCTUnwrap(try succeed("diff", a, "--from", "1", "--json").json(DiffShape.self).specs)
        XCTAssertEqual(all.count, added.count)
        XCTAssertEqual(Set(all.map(\.kind)), ["removed"])
    }
}
