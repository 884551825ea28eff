import Foundation
import OutlineInterchange
import OutlineTestSupport
import Outliner
import PodDocStore
import XCTest

/// Between the store and every interchange format.
final class OutlineImportExportTests: OutlineStoreTestCase {
    func testEveryWellFormedFixtureRoundTripsThroughTheStore() throws {
        for name in Fixtures.wellFormed {
            try assertOPMLRoundTripsThroughTheStore(Fixtures.data(name), name)
        }
    }

    func testTheNotWellFormedFixtureIsRefusedWithItsPlaceAndChangesNothing() throws {
        let cause = try assertOPMLIsRefusedWithoutChange(Fixtures.data(Fixtures.notWellFormed), Fixtures.notWellFormed)
        XCTAssertEqual(cause?.line, 1)
        XCTAssertEqual(cause?.column, 7)
    }

    func testGeneratedTreesWithTrickyTextRoundTrip() throws {
        for seed in 1...4 {
            let tree = TreeGenerator.random(seed: UInt64(seed), count: 200)
            try assertOPMLRoundTripsThroughTheStore(tree.opmlData(), "seed \(seed)")
        }
    }

    func testEveryFormatImportsAndExportsThroughTheStore() throws {
        let tree = TreeGenerator.random(seed: 11, count: 60)
        for format in OutlineFormat.allCases {
            let doc = try makeDocument(format.rawValue)
            try doc.outline.importOutline(tree.data(format: format), as: format)
            try doc.save()
            let back = try OutlineTree(data: TestDocument(url: doc.url).outline.exportOutline(as: format), format: format)
            let expected = try OutlineTree(data: tree.data(format: format), format: format)
            XCTAssertEqual(back, expected, format.displayName)
        }
        let doc = try makeDocument("bad markdown")
        let error = assertOutlineError(.importFailed) { try doc.outline.importOutline(Data("- a\n   - b\n  - c\n".utf8), as: .markdown) }
        XCTAssertNotNil((error?.cause as? OutlineFormatError)?.line)
        XCTAssertEqual(try doc.rows().count, 1, "only the root")
    }

    func testImportUnderAnItemAtAPositionKeepsTheHeadAndIsOneUndoStep() throws {
        let doc = try makeDocument()
        var first = OutlineTree(opmlVersion: "1.0", head: [OutlineAttribute("title", "Mine")])
        first.appendChild(title: "a", to: first.root)
        let b = first.appendChild(title: "b", to: first.root)
        first.appendChild(title: "b1", to: b)
        first.appendChild(title: "b2", to: b)
        try doc.outline.importOutline(first)
        XCTAssertEqual(doc.undo.undoActionName, "Import 4 items")
        var second = OutlineTree(opmlVersion: "2.0", head: [OutlineAttribute("title", "Theirs")])
        let x = second.appendChild(title: "x", to: second.root)
        second.appendChild(title: "x1", to: x)
        second.appendChild(title: "y", to: second.root)
        let bID = try doc.outline.itemID(at: .indexes([2]))
        let added = try doc.outline.importOutline(second, under: bID, at: 1)
        XCTAssertEqual(try added.map { try doc.outline.item($0).item.title }, ["x", "y"])
        XCTAssertEqual(try doc.outline.children(of: bID).map(\.item.title), ["b1", "x", "y", "b2"])
        let exported = try doc.outline.exportOutline()
        XCTAssertEqual(exported.head, [OutlineAttribute("title", "Mine")], "only an empty document takes the head")
        XCTAssertEqual(exported.opmlVersion, "1.0")
        try doc.assertOrderInvariant()
        doc.undo.undo()
        XCTAssertEqual(try doc.outline.exportOutline(), first)
        _ = assertOutlineError(.invalidArgument) { try doc.outline.importOutline(second, under: bID, at: 3) }
    }

    func testExportingASubtreeGivesThatItemAsTheTopLevel() throws {
        let doc = try makeDocument()
        try doc.outline.importOutline(Fixtures.data("opmlPackage-source.opml"), as: .opml)
        let full = try doc.outline.exportOutline()
        // The subtree of the top-level item with the most children, copied by hand.
        let top = full.children(of: full.root)
        let position = top.indices.max { full.children(of: top[$0]).count < full.children(of: top[$1]).count }!
        var expected = OutlineTree()
        var pending = [(top[position], expected.appendChild(full[top[position]], to: expected.root))]
        while let (from, to) = pending.popLast() {
            for child in full.children(of: from) { pending.append((child, expected.appendChild(full[child], to: to))) }
        }
        XCTAssertGreaterThan(expected.count, 100)
        XCTAssertGreaterThan(expected.maxDepth, 5)
        XCTAssertEqual(try doc.outline.exportOutline(from: doc.outline.itemID(at: .indexes([position + 1]))), expected)
        try doc.save()
        try assertStreamedExportsMatchTheTree(doc, from: doc.outline.itemID(at: .indexes([position + 1])), "a subtree")
        try assertStreamedExportsMatchTheTree(doc, "the whole outline")
    }

    func testExportToOPMLOfTextXMLCannotCarryIsRefused() throws {
        let doc = try makeDocument()
        try doc.outline.add(OutlineItem(title: "bell \u{7}"), under: doc.outline.rootID)
        let error = assertOutlineError(.exportFailed) { _ = try doc.outline.exportOutline(as: .opml) }
        XCTAssertEqual((error?.cause as? OutlineFormatError)?.code, .unrepresentable)
        try doc.save()
        try assertStreamedExportsMatchTheTree(doc, "a title XML cannot hold")
        XCTAssertNoThrow(try doc.outline.exportOutline(as: .json))
    }
}
