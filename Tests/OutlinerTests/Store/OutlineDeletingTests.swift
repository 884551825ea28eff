import Foundation
import OutlineInterchange
import Outliner
import PodDocStore
import XCTest

/// Deleting a subtree: one undo group naming how many items went, undone under the same IDs.
final class OutlineDeletingTests: OutlineStoreTestCase {
    private func importWork(into doc: TestDocument) throws -> ObjectID {
        var tree = OutlineTree()
        tree.appendChild(title: "Home", to: tree.root)
        let work = tree.appendChild(title: "Work", to: tree.root)
        for project in 0..<3 {
            let node = tree.appendChild(title: "Project \(project)", to: work)
            for task in 0..<3 { tree.appendChild(title: "Task \(project).\(task)", to: node) }
        }
        tree.appendChild(title: "Later", to: tree.root)
        return try doc.outline.importOutline(tree)[1]
    }

    func testDeleteRemovesTheSubtreeAndNamesTheCount() throws {
        let doc = try makeDocument()
        let work = try importWork(into: doc)
        try doc.save()
        let before = try doc.rows()
        XCTAssertEqual(try doc.outline.delete(work), 13)
        XCTAssertEqual(doc.undo.undoActionName, "Delete \"Work\" and 12 items")
        XCTAssertEqual(try doc.outline.children(of: doc.outline.rootID).map(\.item.title), ["Home", "Later"])
        XCTAssertEqual(try doc.rows().count, before.count - 13)
        try doc.assertOrderInvariant()

        doc.undo.undo()
        XCTAssertEqual(try doc.rows(), before, "every item back under its ID with its values")
        doc.undo.redo()
        try doc.save()
        XCTAssertEqual(try doc.rows().count, before.count - 13)
        doc.undo.undo()
        try doc.save()
        XCTAssertEqual(try doc.rows(), before, "undoing a saved delete restores the same IDs")
        let reopened = try TestDocument(url: doc.url)
        XCTAssertEqual(try reopened.rows(), before)
    }

    func testDeletingALeafNamesOnlyIt() throws {
        let doc = try makeDocument()
        let leaf = try doc.outline.add(OutlineItem(title: "Leaf"), under: doc.outline.rootID)
        XCTAssertEqual(try doc.outline.delete(leaf), 1)
        XCTAssertEqual(doc.undo.undoActionName, "Delete \"Leaf\"")
        _ = assertOutlineError(.notFound) { try doc.outline.delete(leaf) }
    }

    func testDeletingAnUnsavedSubtreeAndUndoing() throws {
        let doc = try makeDocument()
        let work = try importWork(into: doc)
        let before = try doc.rows()
        XCTAssertEqual(try doc.outline.delete(work), 13)
        doc.undo.undo()
        XCTAssertEqual(try doc.rows(), before)
        try doc.save()
        let saved = try doc.rows()
        XCTAssertEqual(saved.count, before.count)
        XCTAssertTrue(saved.keys.allSatisfy { !$0.isTemporary })
        XCTAssertEqual(try TestDocument(url: doc.url).rows(), saved)
    }
}
