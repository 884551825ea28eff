import Foundation
import GRDB
import XCTest

@testable import PodDocStore

/// Insert batches: rows of new objects, with to-one links to stored objects, to objects saved
/// in the same save, and to earlier rows, written by the root's save. Checked for the links
/// and IDs on disk, the checks made before staging, undo, and what contexts learn.
final class BatchInsertTests: StoreTestCase {
    /// A tree of `count` items below `top`: row 0 under `top`, every other row under the row
    /// `(index - 1) / 3` (three children each), titled by their index.
    private func tree(under top: ObjectID, count: Int) throws -> BatchUpsert {
        var batch = try BatchUpsert(inserting: "Item", model: testModel)
        for index in 0..<count {
            batch.append { row in
                row[Item.title] = "item \(index)"
                row[Item.order] = index == 0 ? 0 : (index - 1) % 3
                row[Item.parent] = index == 0 ? .object(top) : .row((index - 1) / 3)
            }
        }
        return batch
    }

    /// Keeps `context`'s queue busy for `seconds` from now, so that a save into it is still on
    /// its way meanwhile.
    private func keepBusy(_ context: ObjectContext, for seconds: Double) {
        let busy = DispatchSemaphore(value: 0)
        let started = DispatchSemaphore(value: 0)
        Task.detached {
            await context.perform { _ in
                started.signal()
                busy.wait()
            }
        }
        started.wait()
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { busy.signal() }
    }

    /// `id → (title, parent id)` of every item in the store file.
    private func itemsOnDisk() throws -> [Int64: (String, Int64?)] {
        try otherConnection().read { db in
            var items: [Int64: (String, Int64?)] = [:]
            for row in try Row.fetchAll(db, sql: #"SELECT id, title, parent FROM "Item""#) {
                items[row["id"]] = (row["title"], row["parent"])
            }
            return items
        }
    }

    func testATreeOfRowsGoesToDiskLinkedToAnObjectOfTheSameSave() throws {
        let store = try makeStore()
        let root = ObjectContext(store: store)
        let main = ObjectContext(.main, parent: root)
        // The top is inserted in the same context and saved with the batch: its ID is
        // temporary when the batch is staged.
        let top = main.insert("Item")
        top[Item.title] = "top"
        let receipt = try main.upsert(tree(under: top.objectID, count: 40))
        XCTAssertTrue(main.hasChanges)
        XCTAssertNil(receipt.result, "nothing written before the root saves")
        try main.save()
        XCTAssertNil(receipt.result)
        try root.performAndWait { try $0.save() }

        let result = try XCTUnwrap(receipt.result)
        XCTAssertEqual(result.created.count, 40)
        XCTAssertEqual(result.updated, [])
        let ids = result.created.map { try! XCTUnwrap($0.rowID) }
        XCTAssertEqual(ids, ids.sorted(), "IDs in row order")
        XCTAssertEqual(Set(ids).count, 40)
        let topID = try XCTUnwrap(main.resolve(top.objectID).rowID)
        let onDisk = try itemsOnDisk()
        XCTAssertEqual(onDisk.count, 41)
        XCTAssertEqual(onDisk[ids[0]]?.1, topID)
        for index in 1..<40 {
            XCTAssertEqual(onDisk[ids[index]]?.0, "item \(index)")
            XCTAssertEqual(onDisk[ids[index]]?.1, ids[(index - 1) / 3], "row \(index) under its parent row")
        }
        // The contexts read the rows like any others; the links lead both ways.
        let first = try XCTUnwrap(main.existingObject(with: result.created[0]))
        XCTAssertEqual(first.destinationID(Item.parent), main.resolve(top.objectID))
        let children = try main.fetch(FetchRequest("Item", where: Item.parent == first, sortBy: [FetchSort(Item.order)]))
        XCTAssertEqual(children.map { $0[Item.title] }, ["item 1", "item 2", "item 3"])
        XCTAssertEqual(try main.descendantLinks(of: [top.objectID], following: Item.parent).count, 40)
        XCTAssertFalse(main.hasChanges)
    }

    func testIDsAreNeverReusedAfterTheLastRowsAreDeleted() throws {
        let root = ObjectContext(store: try makeStore())
        try root.performAndWait { root in
            let top = root.insert("Item")
            try root.save()
            let first = try root.upsert(tree(under: top.objectID, count: 5))
            try root.save()
            let firstIDs = try XCTUnwrap(first.result).created
            root.delete(try XCTUnwrap(root.existingObject(with: firstIDs[0])))
            try root.save()
            XCTAssertEqual(try itemsOnDisk().count, 1, "the cascade took the whole tree")
            let second = try root.upsert(tree(under: top.objectID, count: 5))
            try root.save()
            let secondIDs = try XCTUnwrap(second.result).created
            XCTAssertGreaterThan(secondIDs[0].rowID!, firstIDs[4].rowID!)
        }
    }

    func testBadInsertBatchesAreRefusedBeforeAnythingIsStaged() throws {
        let root = ObjectContext(store: try makeStore())
        try root.performAndWait { root in
            let pod = root.insert("Pod")
            pod[Pod.key] = "a"
            pod[Pod.name] = "a"
            pod[Pod.version] = "1"
            let item = root.insert("Item")
            try root.save()

            func refused(_ fill: (inout BatchUpsert) throws -> Void, _ expected: String, line: UInt = #line) throws {
                var batch = try BatchUpsert(inserting: "Item", model: testModel)
                try fill(&batch)
                XCTAssertThrowsError(try root.upsert(batch), line: line) { error in
                    XCTAssertEqual((error as? StoreError)?.code, .validation, line: line)
                    XCTAssertTrue("\(error)".contains(expected), "\(error)", line: line)
                }
                XCTAssertFalse(root.hasChanges, "nothing staged", line: line)
            }
            try refused({ $0.append { $0[Item.parent] = .row(0) } }, "not an earlier row of the batch")
            try refused(
                { batch in
                    batch.append { $0[Item.parent] = .object(item.objectID) }
                    batch.append { $0[Item.parent] = .row(2) }
                }, "row 1 of 'Item': its 'parent' points at row 2")
            try refused({ $0.append { $0[Item.parent] = .row(-1) } }, "not an earlier row")
            try refused({ $0.append { $0[Item.parent] = .object(pod.objectID) } }, "not a 'Item'")
            XCTAssertThrowsError(try BatchUpsert(inserting: "Nothing", model: testModel))
            // Required attributes are checked in insert batches too.
            var bare = try BatchUpsert(inserting: "Pod", model: testModel)
            bare.append { $0[Pod.key] = "c" }
            XCTAssertThrowsError(try root.upsert(bare)) { error in
                XCTAssertTrue("\(error)".contains("required attribute 'name' is nil"), "\(error)")
            }
        }
        // A keyed batch finds objects by their key: it cannot set links as well.
        let nodeKey = Attribute<String>("key", unique: true)
        let nodeParent = ToOne("parent", to: "Node", inverse: "children")
        let nodeModel = try ObjectModel(entities: [
            EntityDescription("Node", members: [nodeKey, nodeParent, ToMany("children", to: "Node", inverse: "parent")])
        ])
        let nodes = ObjectContext(store: try PersistentStore(url: nil, model: nodeModel))
        var keyed = try BatchUpsert("Node", key: nodeKey, model: nodeModel)
        keyed.append { row in
            row[nodeKey] = "a"
            row[nodeParent] = .row(0)
        }
        try nodes.performAndWait { nodes in
            XCTAssertThrowsError(try nodes.upsert(keyed)) { error in
                XCTAssertTrue("\(error)".contains("a keyed batch cannot set relationships"), "\(error)")
            }
            XCTAssertFalse(nodes.hasChanges)
        }
    }

    func testALinkToAnObjectNobodySavedFailsTheSaveAndWritesNothing() throws {
        let root = ObjectContext(store: try makeStore())
        let other = ObjectContext(.privateQueue, parent: root)
        let stranger = other.performAndWait { ctx in ctx.insert("Item").objectID }
        try root.performAndWait { root in
            _ = try root.upsert(tree(under: stranger, count: 3))
            XCTAssertThrowsError(try root.save()) { error in
                XCTAssertEqual((error as? StoreError)?.code, .validation)
                XCTAssertTrue("\(error)".contains("never saved"), "\(error)")
            }
            XCTAssertEqual(try itemsOnDisk().count, 0)
            XCTAssertTrue(root.hasChanges, "the rows stay staged")
        }
    }

    func testAUniqueClashInAnInsertBatchFailsTheWholeSave() throws {
        let root = ObjectContext(store: try makeStore())
        try root.performAndWait { root in
            let item = root.insert("Item")
            item[Item.title] = "kept"
            var pods = try BatchUpsert(inserting: "Pod", model: testModel)
            for key in ["a", "b", "a"] {
                pods.append { row in
                    row[Pod.key] = key
                    row[Pod.name] = key
                    row[Pod.version] = "1"
                }
            }
            _ = try root.upsert(pods)
            XCTAssertThrowsError(try root.save())
            XCTAssertEqual(try itemsOnDisk().count, 0, "the objects of the same save are not written either")
            XCTAssertEqual(try otherConnection().read { try Int.fetchOne($0, sql: #"SELECT count(*) FROM "Pod""#) }, 0)
        }
    }

    /// A root, a main context with an undo manager, and a top item saved to disk.
    private func stackWithUndo() throws -> (root: ObjectContext, main: ObjectContext, undo: ObjectUndoManager, top: ManagedObject) {
        let root = ObjectContext(store: try makeStore())
        let main = ObjectContext(.main, parent: root)
        let undo = ObjectUndoManager()
        main.undoManager = undo
        let top = undo.withoutRegistration { main.insert("Item") }
        try main.save()
        try root.performAndWait { try $0.save() }
        return (root, main, undo, top)
    }

    func testUndoOfARegisteredDeletionRemovesTheTreeAndRedoBringsItBack() throws {
        let (root, main, undo, top) = try stackWithUndo()
        let receipt = try main.upsert(tree(under: top.objectID, count: 121))
        try main.save()
        try root.performAndWait { try $0.save() }
        XCTAssertFalse(undo.canUndo, "a batch records no undo by itself")
        let created = try XCTUnwrap(receipt.result).created
        undo.group("Import 121 items") { undo.registerDeletion(of: [created[0]]) }
        XCTAssertEqual(undo.undoActionName, "Import 121 items")
        let before = try itemsOnDisk()

        undo.undo()
        XCTAssertEqual(try main.count(for: FetchRequest("Item")), 1, "the cascade deleted the tree")
        try main.save()
        try root.performAndWait { try $0.save() }
        XCTAssertEqual(try itemsOnDisk().count, 1)

        undo.redo()
        XCTAssertEqual(try main.count(for: FetchRequest("Item")), 122)
        try main.save()
        try root.performAndWait { try $0.save() }
        let after = try itemsOnDisk()
        XCTAssertEqual(Set(after.keys), Set(before.keys), "back under the same IDs")
        for (id, item) in before {
            XCTAssertEqual(after[id]?.0, item.0)
            XCTAssertEqual(after[id]?.1, item.1)
        }
        // An object deleted elsewhere meanwhile: undo has nothing left to delete.
        undo.undo()
        undo.redo()
        try root.performAndWait { ctx in
            ctx.delete(try XCTUnwrap(ctx.existingObject(with: created[0])))
            try ctx.save()
        }
        XCTAssertEqual(try itemsOnDisk().count, 1)
        undo.group("again") { undo.registerDeletion(of: [created[0]]) }
        undo.undo()
        XCTAssertEqual(try root.performAndWait { try $0.count(for: FetchRequest("Item")) }, 1)
    }

    func testContextsAndResultsControllersLearnOfTheRowsFromTheRootSave() async throws {
        let store = try makeStore()
        let root = ObjectContext(store: store)
        let topID = try root.performAndWait { ctx -> ObjectID in
            let top = ctx.insert("Item")
            try ctx.save()
            return top.objectID
        }
        let reader = ObjectContext(.privateQueue, parent: root)
        var reported: [ResultsChanges] = []
        let controller = try reader.performAndWait { ctx -> ResultsController in
            ctx.automaticallyMergesChangesFromParent = true
            let top = ctx.object(with: topID)
            let controller = ResultsController(
                FetchRequest("Item", where: Item.parent == top, sortBy: [FetchSort(Item.order)]), context: ctx)
            try controller.performFetch()
            return controller
        }
        controller.onChange = { reported.append($0) }
        let notes = Collector<SaveNotification>()
        let observation = root.observeSaves { notes.append($0) }
        let worker = ObjectContext(.privateQueue, parent: root)
        let receipt = try worker.performAndWait { ctx in
            var batch = try BatchUpsert(inserting: "Item", model: testModel)
            for index in 0..<3 {
                batch.append { row in
                    row[Item.title] = "child \(index)"
                    row[Item.order] = index
                    row[Item.parent] = .object(topID)
                }
            }
            let receipt = try ctx.upsert(batch)
            try ctx.save()
            return receipt
        }
        try await root.perform { try $0.save() }
        await drain(reader)
        observation.cancel()

        let created = try XCTUnwrap(receipt.result).created
        XCTAssertEqual(notes.values.last?.inserted, Set(created))
        reader.performAndWait { ctx in
            ctx.processPendingChanges()
            XCTAssertEqual(controller.fetchedIDs, created)
            XCTAssertEqual(controller.fetchedIDs.map { ctx.object(with: $0)[Item.title] }, ["child 0", "child 1", "child 2"])
            XCTAssertEqual(reported.flatMap(\.inserts).count, 3, "the controller reported three inserts")
        }
    }

    func testTemporaryIDsNameTheRowsBeforeTheSaveAndUndoTakesAStagedBatchOut() throws {
        let (root, main, undo, top) = try stackWithUndo()
        var batch = try tree(under: top.objectID, count: 10)
        let first = batch.temporaryID(ofRow: 0)
        XCTAssertEqual(batch.temporaryID(ofRow: 0), first, "one ID a row")
        XCTAssertTrue(first.isTemporary)
        let receipt = try main.upsert(batch)
        undo.group("Import") { undo.registerDeletion(of: [first]) }

        undo.undo()
        XCTAssertFalse(main.hasChanges, "the staged batch is out")
        undo.redo()
        XCTAssertTrue(main.hasChanges, "and back")
        let notes = Collector<SaveNotification>()
        let observation = root.observeSaves { notes.append($0) }
        try main.save()
        try root.performAndWait { try $0.save() }
        observation.cancel()
        let created = try XCTUnwrap(receipt.result).created
        XCTAssertEqual(main.resolve(first), created[0])
        XCTAssertEqual(notes.values.last?.permanentIDs[first], created[0])
        XCTAssertEqual(try itemsOnDisk().count, 11)

        undo.undo()
        XCTAssertEqual(try main.count(for: FetchRequest("Item")), 1, "written: undo deletes the tree")
        try main.save()
        try root.performAndWait { try $0.save() }
        XCTAssertEqual(try itemsOnDisk().count, 1)
    }

    @MainActor
    func testASaveMadeWhileAnotherCarriesABatchDoesNotCarryItAgain() async throws {
        let store = try makeStore()
        let root = ObjectContext(store: store)
        let main = ObjectContext(.main, parent: root)
        let top = main.insert("Item")
        try main.save(storeMetadata: [:])  // the synchronous save
        _ = try main.upsert(tree(under: top.objectID, count: 5))
        // The parent is busy for a moment, so the asynchronous save is still on its way
        // when the second save runs.
        keepBusy(root, for: 0.3)
        let carrying = Task { @MainActor in try await main.save() }
        for _ in 0..<1000 where main.hasChanges { await Task.yield() }
        try main.save(storeMetadata: [:])
        try await carrying.value
        try await root.perform { try $0.save() }
        XCTAssertEqual(try itemsOnDisk().count, 6, "the five rows once")
    }

    func testTheTextIndexTakesNewRowsOnceWithTheirLastValues() throws {
        typealias Tag = BatchUpsertTests.Tag
        let store = try PersistentStore(url: storeURL, model: Tag.model)
        let root = ObjectContext(store: store)
        func search(_ words: String) throws -> [String] { try Tag.keys(matching: words, in: store) }
        func write(_ batch: BatchUpsert) throws {
            try root.performAndWait { ctx in
                _ = try ctx.upsert(batch)
                try ctx.save()
            }
        }
        var inserted = try BatchUpsert(inserting: "Tag", model: Tag.model)
        for (key, text) in [("a", "fast parser"), ("b", nil), ("c", "slow parser")] {
            inserted.append { row in
                row[Tag.key] = key
                row[Tag.text] = text
            }
        }
        try write(inserted)
        XCTAssertEqual(try search("parser"), ["a", "c"])
        // Keyed: "d" is new and set twice in the batch, "a" stored and set twice.
        var keyed = try BatchUpsert("Tag", key: Tag.key, model: Tag.model)
        for (key, text) in [("d", "first words"), ("a", "middle words"), ("d", "final words"), ("a", "quick words")] {
            keyed.append { row in
                row[Tag.key] = key
                row[Tag.text] = text
            }
        }
        try write(keyed)
        XCTAssertEqual(try search("words"), ["a", "d"])
        XCTAssertEqual(try search("first"), [])
        XCTAssertEqual(try search("middle"), [])
        XCTAssertEqual(try search("parser"), ["c"])
        let rows = try store.unsafeRead { try Int.fetchOne($0, sql: #"SELECT count(*) FROM "Tag_fts""#) }
        XCTAssertEqual(rows, 4, "one text row a tag")
        XCTAssertEqual(try store.integrityProblems(), [])
    }

    @MainActor
    func testAFailedSaveGivesItsBatchesBackUnlessARollbackDiscardedThem() async throws {
        let root = ObjectContext(store: try makeStore())
        let main = ObjectContext(.main, parent: root)
        let top = main.insert("Item")
        try main.save(storeMetadata: [:])
        // A pod without its required values: the parent refuses the save that carries it.
        _ = try main.upsert(tree(under: top.objectID, count: 3))
        _ = main.insert("Pod")
        XCTAssertThrowsError(try main.save(storeMetadata: [:]))
        XCTAssertEqual(main.stagedBatches.count, 1, "a failed save gives its batch back")

        // The same failure, with a rollback while the parent works.
        keepBusy(root, for: 0.3)
        let saving = Task { @MainActor in try await main.save() }
        for _ in 0..<1000 where !main.stagedBatches.isEmpty { await Task.yield() }
        main.rollback()
        do {
            try await saving.value
            XCTFail("the parent took a pod without its required values")
        } catch {
            XCTAssertEqual((error as? StoreError)?.code, .validation)
        }
        XCTAssertTrue(main.stagedBatches.isEmpty, "the rollback discarded the batch for good")
        XCTAssertFalse(main.hasChanges)
        try await root.perform { try $0.save() }
        XCTAssertEqual(try itemsOnDisk().count, 1)
    }
}
