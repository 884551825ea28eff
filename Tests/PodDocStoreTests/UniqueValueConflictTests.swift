import Foundation
import GRDB
import XCTest

@testable import PodDocStore

/// An object saved with a unique value that another row took meanwhile: a spec deleted and
/// saved, its delete undone, and the same key imported again by a batch before the undone
/// delete reached the store (the sequence `poddoc crash-test --kind pods` logged). The store
/// never holds the key twice, and a failed save never leaves the stack unable to save.
final class UniqueValueConflictTests: StoreTestCase {
    private struct Stack {
        let store: PersistentStore
        let root: ObjectContext
        let main: ObjectContext
        let undo: ObjectUndoManager
        /// The ID of `pod/1` as first saved.
        let original: ObjectID
    }

    /// Saves `pod/1`, deletes it in `main` and saves that to disk, undoes the delete in `main`
    /// (unsaved), then imports `pod/1` again through a worker's batch, saved to disk first.
    private func restoredWhileImportedAgain(rootPolicy: MergePolicy) throws -> Stack {
        let store = try makeStore()
        let root = ObjectContext(store: store, name: "root")
        root.performAndWait { $0.mergePolicy = rootPolicy }
        let main = ObjectContext(.privateQueue, parent: root, name: "main")
        let undo = ObjectUndoManager()
        let original = try main.performAndWait { ctx -> ObjectID in
            ctx.undoManager = undo
            ctx.automaticallyMergesChangesFromParent = true
            let pod = ctx.insert(Pod.entity.name)
            pod[Pod.key] = "pod/1"
            pod[Pod.name] = "pod"
            pod[Pod.version] = "1"
            pod[Pod.summary] = "mine"
            try ctx.save()
            return pod.objectID
        }
        try root.performAndWait { try $0.save() }
        let id = try main.performAndWait { ctx -> ObjectID in
            let pod = try XCTUnwrap(try ctx.fetchFirst(FetchRequest(Pod.entity.name)))
            undo.removeAllActions()
            undo.group("Delete") { ctx.delete(pod) }
            try ctx.save()
            return pod.objectID
        }
        try root.performAndWait { try $0.save() }
        main.performAndWait { _ in undo.undo() }

        let worker = ObjectContext(.privateQueue, parent: root, name: "import")
        try worker.performAndWait { ctx in
            ctx.mergePolicy = .inMemoryWins
            var batch = try BatchUpsert(Pod.entity.name, key: Pod.key, model: testModel)
            batch.append { row in
                row[Pod.key] = "pod/1"
                row[Pod.name] = "pod"
                row[Pod.version] = "1"
                row[Pod.summary] = "imported"
            }
            _ = try ctx.upsert(batch)
            try ctx.save()
        }
        try root.performAndWait { try $0.save() }
        XCTAssertEqual(try keysOnDisk(store), ["pod/1"], "the import took the key while the restored spec waited in main")
        XCTAssertEqual(id, try root.performAndWait { ctx in ctx.object(with: original).objectID })
        return Stack(store: store, root: root, main: main, undo: undo, original: id)
    }

    private func keysOnDisk(_ store: PersistentStore) throws -> [String] {
        try store.unsafeRead { try String.fetchAll($0, sql: #"SELECT key FROM "Pod" ORDER BY key"#) }
    }

    private func idsOnDisk(_ store: PersistentStore) throws -> [Int64] {
        try store.unsafeRead { try Int64.fetchAll($0, sql: #"SELECT id FROM "Pod" ORDER BY id"#) }
    }

    func testTheRestoredObjectKeepsItsKeyAndTheImportedCopyGoes() throws {
        let stack = try restoredWhileImportedAgain(rootPolicy: .inMemoryWins)
        try stack.main.performAndWait { try $0.save() }
        try stack.root.performAndWait { try $0.save() }  // refused with "UNIQUE constraint failed: Pod.key" before

        XCTAssertEqual(try keysOnDisk(stack.store), ["pod/1"])
        XCTAssertEqual(try idsOnDisk(stack.store), [stack.original.key], "the restored spec keeps its own ID")
        try stack.main.performAndWait { ctx in
            let pods = Array(try ctx.fetch(FetchRequest(Pod.entity.name)))
            XCTAssertEqual(pods.map(\.objectID), [stack.original], "main no longer sees the displaced copy")
            XCTAssertEqual(pods.first?[Pod.summary], "mine")
            XCTAssertFalse(ctx.hasChanges)
        }
        stack.root.performAndWait { ctx in XCTAssertFalse(ctx.hasChanges, "nothing is left for a later save to trip on") }

        // Later saves work, and undo still finds the spec.
        try stack.main.performAndWait { ctx in
            stack.undo.redo()  // the delete again
            try ctx.save()
        }
        try stack.root.performAndWait { try $0.save() }
        XCTAssertEqual(try keysOnDisk(stack.store), [])
        try stack.store.unsafeRead { db in
            XCTAssertEqual(try String.fetchOne(db, sql: "PRAGMA integrity_check"), "ok")
        }
    }

    func testUnderTheErrorPolicyTheSaveIsRefusedAndTheStoreKeepsOneRow() throws {
        let stack = try restoredWhileImportedAgain(rootPolicy: .error)
        try stack.main.performAndWait { try $0.save() }
        XCTAssertThrowsError(try stack.root.performAndWait { try $0.save() }) { error in
            guard let error = error as? StoreError else { return XCTFail("\(error)") }
            XCTAssertEqual(error.code, .uniqueConstraint)
            XCTAssertTrue(error.message.contains("Pod.key"), error.message)
        }
        XCTAssertEqual(try keysOnDisk(stack.store), ["pod/1"], "nothing written")
        XCTAssertNotEqual(try idsOnDisk(stack.store), [stack.original.key])

        // The stack can choose: a policy that resolves it lets the same save through.
        try stack.root.performAndWait { ctx in
            ctx.mergePolicy = .overwrite
            try ctx.save()
        }
        XCTAssertEqual(try idsOnDisk(stack.store), [stack.original.key])
    }

    /// An update of an object deleted elsewhere re-creates it under a policy where ours
    /// survives; the re-created row takes its key back the same way.
    func testReCreatingAnObjectDeletedElsewhereTakesItsKeyBack() throws {
        let store = try makeStore()
        let root = ObjectContext(store: store, name: "root")
        let main = ObjectContext(.privateQueue, parent: root, name: "main")
        let other = ObjectContext(.privateQueue, parent: root, name: "other")
        let id = try main.performAndWait { ctx -> ObjectID in
            let pod = ctx.insert(Pod.entity.name)
            pod[Pod.key] = "pod/2"
            pod[Pod.name] = "pod"
            pod[Pod.version] = "2"
            try ctx.save()
            return pod.objectID
        }
        try root.performAndWait { try $0.save() }
        let resolved = try root.performAndWait { ctx in ctx.object(with: id).objectID }
        try main.performAndWait { ctx in _ = ctx.object(with: resolved)[Pod.summary] }
        // Elsewhere: the spec is deleted and imported again under a new ID.
        try other.performAndWait { ctx in
            ctx.delete(ctx.object(with: resolved))
            try ctx.save()
        }
        try root.performAndWait { try $0.save() }
        try other.performAndWait { ctx in
            var batch = try BatchUpsert(Pod.entity.name, key: Pod.key, model: testModel)
            batch.append { row in
                row[Pod.key] = "pod/2"
                row[Pod.name] = "pod"
                row[Pod.version] = "2"
                row[Pod.summary] = "imported"
            }
            _ = try ctx.upsert(batch)
            try ctx.save()
        }
        try root.performAndWait { try $0.save() }
        // Main still holds the old object and edits it.
        try main.performAndWait { ctx in
            ctx.mergePolicy = .inMemoryWins
            let pod = ctx.object(with: resolved)
            pod[Pod.summary] = "edited here"
            try ctx.save()
        }
        try root.performAndWait { ctx in
            ctx.mergePolicy = .inMemoryWins
            try ctx.save()
        }
        XCTAssertEqual(try keysOnDisk(store), ["pod/2"])
        XCTAssertEqual(try idsOnDisk(store), [resolved.key])
        XCTAssertEqual(try store.unsafeRead { try String.fetchOne($0, sql: #"SELECT summary FROM "Pod""#) }, "edited here")
    }
}
