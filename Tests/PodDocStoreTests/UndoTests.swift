import Foundation
import XCTest

@testable import PodDocStore

final class UndoTests: StoreTestCase {
    private func titles(_ ctx: ObjectContext) throws -> [String] {
        try ctx.fetch(FetchRequest("Item", sortBy: [FetchSort(Item.title)])).map { $0[Item.title] }
    }

    func testUndoRedoInsertDeleteAttributeAndRelationship() throws {
        let root = ObjectContext(store: try makeStore())
        try root.performAndWait { ctx in
            let undo = ObjectUndoManager()
            ctx.undoManager = undo
            let (inbox, a) = undo.group("Add \"Inbox\"") { () -> (ManagedObject, ManagedObject) in
                let inbox = ctx.insert("Item")
                inbox[Item.title] = "Inbox"
                let a = ctx.insert("Item")
                a[Item.title] = "a"
                a[Item.parent] = inbox
                return (inbox, a)
            }
            undo.group("Rename") { a[Item.title] = "renamed" }
            undo.group("Move out") { a[Item.parent] = nil }
            XCTAssertEqual(undo.undoActionName, "Move out")
            undo.undo()
            XCTAssertTrue(a[Item.parent] === inbox, "relationship change undone")
            undo.undo()
            XCTAssertEqual(a[Item.title], "a", "attribute change undone")
            XCTAssertEqual(undo.redoActionName, "Rename")
            undo.redo()
            XCTAssertEqual(a[Item.title], "renamed")
            undo.undo()
            undo.undo()
            XCTAssertEqual(try titles(ctx), [], "inserts undone")
            XCTAssertFalse(undo.canUndo)
            undo.redo()
            XCTAssertEqual(try titles(ctx), ["Inbox", "a"])
            XCTAssertTrue(a[Item.parent] === inbox, "redo brings back the same instances and their relationships")
        }
    }

    func testUndoOfCascadeDeleteAfterSaveRestoresTheSubtreeUnderTheSameIDs() throws {
        let store = try makeStore()
        let root = ObjectContext(store: store)
        try root.performAndWait { ctx in
            let undo = ObjectUndoManager()
            ctx.undoManager = undo
            let top = ctx.insert("Item")
            top[Item.title] = "top"
            for i in 0..<50 {
                let child = ctx.insert("Item")
                child[Item.title] = "c\(i)"
                child[Item.parent] = top
                let grandchild = ctx.insert("Item")
                grandchild[Item.title] = "g\(i)"
                grandchild[Item.parent] = child
            }
            try ctx.save()
            undo.removeAllActions()
            let ids = try ctx.fetchIDs(FetchRequest("Item"))
            undo.group("Delete \"top\" and 100 items") { ctx.delete(top) }
            try ctx.save()
            XCTAssertEqual(try ctx.count(for: FetchRequest("Item")), 0)
            undo.undo()
            try ctx.save()
            XCTAssertEqual(Set(try ctx.fetchIDs(FetchRequest("Item"))), Set(ids))
            XCTAssertEqual(top[Item.children].count, 50)
            undo.redo()
            try ctx.save()
            XCTAssertEqual(try ctx.count(for: FetchRequest("Item")), 0)
        }
    }

    func testGroupingByEventLevelsAndDisabledRegistration() throws {
        let root = ObjectContext(store: try makeStore())
        try root.performAndWait { ctx in
            let undo = ObjectUndoManager(levelsOfUndo: 2)
            ctx.undoManager = undo
            let item = ctx.insert("Item")
            item[Item.title] = "1"
            ctx.processPendingChanges()  // end of an event closes its group
            item[Item.title] = "2"
            ctx.processPendingChanges()
            item[Item.title] = "3"
            ctx.processPendingChanges()
            XCTAssertEqual(undo.undoCount, 2, "levelsOfUndo drops the oldest group")
            undo.withoutRegistration { item[Item.title] = "imported" }
            XCTAssertEqual(undo.undoCount, 2)
            undo.undo()
            XCTAssertEqual(item[Item.title], "2")
            undo.undo()
            XCTAssertEqual(item[Item.title], "1")
            XCTAssertFalse(undo.canUndo)
            item[Item.title] = "new action"
            XCTAssertFalse(undo.canRedo, "a new change clears redo")
        }
    }
}
