import Foundation
import OutlineInterchange
import OutlineTestSupport
import PodDocStore
import XCTest

@testable import Outliner

/// Importing as rows (``OutlineStore/importOutline(_:under:savingWith:)``): the same outline
/// as the object path, saved by the import, one undo step that takes the head along.
@MainActor
final class OutlineRowImportTests: OutlineStoreTestCase {
    func testRowsGiveTheSameOutlineAsObjectsInEveryShape() async throws {
        for seed in 1...4 {
            let tree = TreeGenerator.random(seed: UInt64(seed), count: 300)
            let byObjects = try makeDocument("objects")
            try byObjects.outline.importOutline(tree)
            try byObjects.save()
            let byRows = try makeDocument("rows")
            let top = try await byRows.outline.importOutline(tree) { try byRows.save() }
            XCTAssertEqual(top.count, tree.children(of: tree.root).count)
            XCTAssertFalse(byRows.main.hasChanges && top.isEmpty)
            try byRows.save()
            let reopened = try TestDocument(url: byRows.url)
            XCTAssertEqual(try reopened.outline.exportOutline(), tree, "seed \(seed): rows → store → tree")
            XCTAssertEqual(try reopened.outline.exportOutline(), try TestDocument(url: byObjects.url).outline.exportOutline())
            try reopened.assertOrderInvariant("seed \(seed)")
            XCTAssertEqual(try top.map { try reopened.outline.item($0).item.title }, tree.children(of: tree.root).map { tree[$0].title })
        }
    }

    /// A large outline's rows are made in two halves on two threads: the same outline, ids in
    /// depth-first order, one undo step.
    func testALargeOutlineMadeInTwoHalvesIsTheSameOutline() async throws {
        // 60 projects of 20 parts of 20 tasks, the sizes uneven: 25,260 items.
        var tree = OutlineTree()
        for project in 0..<60 {
            let top = tree.appendChild(OutlineItem(title: "Project \(project)", note: project % 7 == 0 ? "note" : nil), to: tree.root)
            for part in 0..<(project % 3 == 0 ? 30 : 15) {
                let middle = tree.appendChild(title: "Part \(part)", to: top)
                for task in 0..<20 { tree.appendChild(title: "Task \(task)", to: middle) }
            }
        }
        XCTAssertGreaterThan(tree.count, OutlineStore.rowsWorthASecondThread)
        XCTAssertEqual(OutlineStore.halves(of: tree.topLevelSubtreeSizes, smallest: OutlineStore.rowsWorthASecondThread).count, 2)
        let doc = try makeDocument()
        let top = try await doc.outline.importOutline(tree) { try doc.save() }
        XCTAssertEqual(try top.map { try doc.outline.item($0).item.title }, tree.children(of: tree.root).map { tree[$0].title })
        XCTAssertEqual(top.map { $0.rowID! }, top.map { $0.rowID! }.sorted(), "the second half's rows come after the first's")
        let reopened = try TestDocument(url: doc.url)
        XCTAssertEqual(try reopened.outline.exportOutline(), tree)
        try reopened.assertOrderInvariant()
        doc.undo.undo()
        try doc.save()
        XCTAssertEqual(try TestDocument(url: doc.url).outline.exportOutline(), OutlineTree())
    }

    func testTheHalvesSplitTheItemsClosestToEvenly() {
        XCTAssertEqual(OutlineStore.halves(of: [5, 5, 5, 5], smallest: 10), [0..<2, 2..<4])
        XCTAssertEqual(OutlineStore.halves(of: [1, 1, 18], smallest: 10), [0..<2, 2..<3])
        XCTAssertEqual(OutlineStore.halves(of: [18, 1, 1], smallest: 10), [0..<1, 1..<3])
        XCTAssertEqual(OutlineStore.halves(of: [6, 6, 8], smallest: 10), [0..<2, 2..<3], "12 and 8 are closer than 6 and 14")
        XCTAssertEqual(OutlineStore.halves(of: [8, 6, 6], smallest: 10), [0..<1, 1..<3], "8 and 12 are closer than 14 and 6")
        XCTAssertEqual(OutlineStore.halves(of: [30], smallest: 10), [0..<1], "one top-level item: one part")
        XCTAssertEqual(OutlineStore.halves(of: [3, 3], smallest: 10), [0..<2], "too few items for a second thread")
        XCTAssertEqual(OutlineStore.halves(of: [], smallest: 10), [0..<0])
    }

    func testTheRowsAreSavedByTheImportAndItsUndoTakesTheHeadAlong() async throws {
        let doc = try makeDocument()
        var tree = OutlineTree(opmlVersion: "1.0", head: [OutlineAttribute("title", "Plans")])
        let a = tree.appendChild(OutlineItem(title: "a", note: "first"), to: tree.root)
        tree.appendChild(OutlineItem(title: "a1", attributes: [OutlineAttribute("type", "task")]), to: a)
        tree.appendChild(title: "b", to: tree.root)
        try await doc.outline.importOutline(tree) { try doc.save() }
        // Items and head on disk in the one save, nothing left unsaved.
        XCTAssertFalse(doc.main.hasChanges)
        XCTAssertEqual(try TestDocument(url: doc.url).outline.exportOutline(), tree)
        XCTAssertEqual(try doc.outline.exportOutline(), tree)
        XCTAssertEqual(doc.undo.undoActionName, "Import 3 items")

        doc.undo.undo()
        XCTAssertEqual(try doc.outline.exportOutline(), OutlineTree(), "no items, no head")
        try doc.save()
        XCTAssertEqual(try TestDocument(url: doc.url).outline.exportOutline(), OutlineTree())
        doc.undo.redo()
        XCTAssertEqual(try doc.outline.exportOutline(), tree)
        try doc.save()
        XCTAssertEqual(try TestDocument(url: doc.url).outline.exportOutline(), tree)
        try doc.assertOrderInvariant()
    }

    func testRowsAreAppendedAfterTheChildrenThereAndInsideTheContextsUnsavedItems() async throws {
        let doc = try makeDocument()
        var first = OutlineTree(head: [OutlineAttribute("title", "Mine")])
        let b = first.appendChild(title: "b", to: first.root)
        first.appendChild(title: "b1", to: b)
        try doc.outline.importOutline(first)
        // "b" and "b1" are not saved: the rows link to an object inserted in the same save.
        let bID = try doc.outline.itemID(at: .indexes([1]))
        XCTAssertTrue(bID.isTemporary)
        var second = OutlineTree(head: [OutlineAttribute("title", "Theirs")])
        let x = second.appendChild(title: "x", to: second.root)
        second.appendChild(title: "x1", to: x)
        let added = try await doc.outline.importOutline(second, under: bID) { try doc.save() }
        XCTAssertEqual(try doc.outline.children(of: bID).map(\.item.title), ["b1", "x"])
        XCTAssertEqual(try added.map { try doc.outline.item($0).item.title }, ["x"])
        XCTAssertEqual(try doc.outline.exportOutline().head, [OutlineAttribute("title", "Mine")], "only an empty document takes the head")
        try doc.assertOrderInvariant()
        let reopened = try TestDocument(url: doc.url)
        XCTAssertEqual(try reopened.outline.printTree(), try doc.outline.printTree())
        doc.undo.undo()
        XCTAssertEqual(try doc.outline.children(of: bID).map(\.item.title), ["b1"])
        try doc.assertOrderInvariant()
    }

    func testAFailedSaveReportsItAndKeepsTheRowsForTheNextSave() async throws {
        let doc = try makeDocument()
        try doc.save()
        var tree = OutlineTree()
        tree.appendChild(title: "kept", to: tree.root)
        struct DiskFull: Error {}
        do {
            try await doc.outline.importOutline(tree) { throw DiskFull() }
            XCTFail("the failed save was not reported")
        } catch {
            XCTAssertEqual(error.code, .storeFailed)
            XCTAssertTrue(error.message.contains("saving 1 item"), error.message)
        }
        XCTAssertTrue(doc.main.hasChanges, "the rows wait for the next save")
        // Undo takes the staged rows out, redo stages them again.
        XCTAssertEqual(doc.undo.undoActionName, "Import 1 item")
        doc.undo.undo()
        XCTAssertEqual(try doc.outline.exportOutline(), OutlineTree())
        try doc.save()
        XCTAssertEqual(try TestDocument(url: doc.url).outline.exportOutline(), OutlineTree(), "undone: nothing written")
        doc.undo.redo()
        XCTAssertTrue(doc.main.hasChanges)
        try doc.save()
        XCTAssertEqual(try TestDocument(url: doc.url).outline.children(of: doc.outline.rootID).map(\.item.title), ["kept"])
    }

    func testAMissingParentIsRefusedBeforeAnythingIsStaged() async throws {
        let doc = try makeDocument()
        var tree = OutlineTree()
        tree.appendChild(title: "a", to: tree.root)
        let gone = try doc.outline.add(OutlineItem(title: "gone"), under: doc.outline.rootID)
        try doc.outline.delete(gone)
        try doc.save()
        do {
            try await doc.outline.importOutline(tree, under: gone) { try doc.save() }
            XCTFail("imported under a deleted item")
        } catch {
            XCTAssertEqual(error.code, .notFound)
        }
        XCTAssertFalse(doc.main.hasChanges)
    }
}
