import Foundation
import XCTest

@testable import PodDocStore

/// A main context's asynchronous save leaves the main actor free while the root applies the
/// push; these tests edit, delete and undo in that window, then check that the main
/// context, the root and the file agree.
@MainActor
final class AsynchronousSaveTests: StoreTestCase {
    private var root: ObjectContext!
    private var main: ObjectContext!
    private var undo: ObjectUndoManager!

    private func makeStack() throws {
        root = ObjectContext(store: try PersistentStore(url: storeURL, model: testModel))
        main = ObjectContext(.main, parent: root)
        undo = ObjectUndoManager()
        main.undoManager = undo
    }

    /// Saves the main context into the root with `during` running between the save's two
    /// halves on the main actor: after it made its change set, before it settles the saved
    /// objects. Then saves the root to the file.
    private func saveWithEditsInFlight(_ during: () throws -> Void) async throws {
        let finished = Locked(false)
        // The root's queue is held until the save has made its change set, so the save cannot
        // finish before this test looks, however the threads are scheduled.
        let rootHeld = DispatchSemaphore(value: 0)
        root.queue.async { rootHeld.wait() }
        let saving = Task {
            try await self.main.save()
            finished.withLock { $0 = true }
        }
        while !main.saveState.isApplyingAsynchronously, !finished.withLock({ $0 }) { await Task.yield() }
        XCTAssertFalse(finished.withLock { $0 }, "the save must still be running")
        // From here to `during`'s end this test keeps the main actor, so the save cannot
        // settle its objects before `during` has run (reads in `during` wait for the root).
        rootHeld.signal()
        try during()
        try await saving.value
        try await root.perform { try $0.save() }
        await main.perform { _ in }  // the root's did-save reaches the main context
    }

    /// Saves the main context, then the root to the file.
    private func saveAll() async throws {
        try await main.save()
        try await root.perform { try $0.save() }
        await main.perform { _ in }
    }

    /// Titles under `parent` in order, as the main context, the root and the file see them.
    private func childrenEverywhere(of parent: ObjectID) async throws -> (main: [String], root: [String], file: [String]) {
        let request = FetchRequest("Item", where: Item.parent == parent, sortBy: [FetchSort(Item.order)])
        let inMain = try main.fetch(request).map { $0[Item.title] }
        let inRoot = try await root.perform { try $0.fetch(request).map { $0[Item.title] } }
        let onFile = try ObjectContext(store: try PersistentStore(url: storeURL, model: testModel)).performAndWait {
            try $0.fetch(request).map { $0[Item.title] }
        }
        return (inMain, inRoot, onFile)
    }

    /// A list "list" with children a, b, c, saved to the file.
    private func savedList() async throws -> (list: ManagedObject, children: [ManagedObject]) {
        try makeStack()
        let list = main.insert("Item")
        list[Item.title] = "list"
        let children = ["a", "b", "c"].enumerated().map { position, title in
            let child = main.insert("Item")
            child[Item.title] = title
            child[Item.order] = position
            child[Item.parent] = list
            return child
        }
        try await saveAll()
        undo.removeAllActions()
        return (list, children)
    }

    func testADeleteUndoneWhileItsSaveRunsBringsTheItemBackEverywhere() async throws {
        let (list, children) = try await savedList()
        undo.group("Delete \"b\"") {
            main.delete(children[1])
            children[2][Item.order] = 1
        }
        try await saveWithEditsInFlight { undo.undo() }
        let written = try await childrenEverywhere(of: list.objectID).file
        XCTAssertEqual(written, ["a", "c"], "the save wrote the delete")
        XCTAssertTrue(main.hasChanges, "the undo, made during the save, is still to be saved")
        try await saveAll()
        let seen = try await childrenEverywhere(of: list.objectID)
        XCTAssertEqual(seen.main, ["a", "b", "c"])
        XCTAssertEqual(seen.root, ["a", "b", "c"])
        XCTAssertEqual(seen.file, ["a", "b", "c"])
        XCTAssertFalse(main.hasChanges)
    }

    func testAListDeletedAndRestoredWhileItsInsertIsSavedKeepsItsChildren() async throws {
        try makeStack()
        let list = main.insert("Item")
        list[Item.title] = "list"
        for (position, title) in ["a", "b"].enumerated() {
            let child = main.insert("Item")
            child[Item.title] = title
            child[Item.order] = position
            child[Item.parent] = list
        }
        undo.removeAllActions()
        try await saveWithEditsInFlight {
            undo.group("Delete \"list\"") { main.delete(list) }
            undo.undo()
        }
        XCTAssertEqual(
            try main.fetch(FetchRequest("Item", where: Item.parent == list, sortBy: [FetchSort(Item.order)])).map { $0[Item.title] },
            ["a", "b"], "the main context finds the children of the restored list")
        let seen = try await childrenEverywhere(of: list.objectID)
        XCTAssertEqual(seen.root, ["a", "b"])
        XCTAssertEqual(seen.file, ["a", "b"])
    }

    func testAnEditMadeWhileTheSaveRunsIsSavedNextTime() async throws {
        let (list, children) = try await savedList()
        children[0][Item.title] = "A"
        try await saveWithEditsInFlight { children[0][Item.title] = "A again" }
        XCTAssertTrue(main.hasChanges, "the edit made during the save is still unsaved")
        try await saveAll()
        let seen = try await childrenEverywhere(of: list.objectID)
        XCTAssertEqual(seen.main, ["A again", "b", "c"])
        XCTAssertEqual(seen.file, ["A again", "b", "c"])
    }

    func testUndoingARestoreWhileItsSaveRunsDeletesItEverywhere() async throws {
        let (list, children) = try await savedList()
        undo.group("Delete \"c\"") { main.delete(children[2]) }
        try await saveAll()
        undo.undo()  // "c" is back, as an insert under its old ID
        try await saveWithEditsInFlight { undo.redo() }
        let written = try await childrenEverywhere(of: list.objectID).file
        XCTAssertEqual(written, ["a", "b", "c"], "the save wrote the restore")
        try await saveAll()
        let seen = try await childrenEverywhere(of: list.objectID)
        XCTAssertEqual(seen.main, ["a", "b"])
        XCTAssertEqual(seen.root, ["a", "b"])
        XCTAssertEqual(seen.file, ["a", "b"])
    }
}
