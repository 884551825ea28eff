import Foundation
import GRDB
import XCTest

@testable import PodDocStore

/// Batch upserts: the rows path of find-or-create. Checked against the object path on the same
/// rows, and for the save protocol (root transaction), merging, the text index and undo.
final class BatchUpsertTests: StoreTestCase {
    /// An entity with a second unique attribute (to make a save fail half way) and a text index.
    enum Tag {
        static let key = Attribute<String>("key", unique: true)
        static let slug = Attribute<String?>("slug", unique: true)
        static let text = Attribute<String?>("text")
        static let rank = Attribute<Int>("rank", default: 7)
        static let entity = EntityDescription("Tag", members: [key, slug, text, rank], fullTextAttributes: ["text"])
        static let model: ObjectModel = {
            do { return try ObjectModel(entities: [entity]) } catch { fatalError("\(error)") }
        }()

        /// The keys of the tags whose text matches `words` in the text index, in key order.
        static func keys(matching words: String, in store: PersistentStore) throws -> [String] {
            try store.unsafeRead { db in
                try String.fetchAll(
                    db, sql: #"SELECT t.key FROM "Tag_fts" f JOIN "Tag" t ON t.id = f.rowid WHERE "Tag_fts" MATCH ? ORDER BY t.key"#,
                    arguments: [words])
            }
        }
    }

    /// One imported record: the same values go through both paths.
    private struct Record {
        let key: String, name: String, version: String, summary: String?
    }

    private func batch(_ records: [Record], model: ObjectModel = testModel) throws -> BatchUpsert {
        var batch = try BatchUpsert("Pod", key: Pod.key, model: model)
        for record in records {
            batch.append { row in
                row[Pod.key] = record.key
                row[Pod.name] = record.name
                row[Pod.version] = record.version
                row[Pod.summary] = record.summary
            }
        }
        return batch
    }

    private func podRows(_ store: PersistentStore) throws -> [[String]] {
        try store.unsafeRead { db in
            try Row.fetchAll(db, sql: #"SELECT id, key, name, version, summary, score FROM "Pod" ORDER BY id"#).map { row in
                (0..<6).map { (row[$0] as DatabaseValue).description }
            }
        }
    }

    // MARK: - Same results as the object path

    func testSameRowsIDsAndCountsAsFindOrCreate() throws {
        let seed = (0..<50).map { Record(key: "pod/\($0)", name: "pod", version: "\($0).0", summary: "old \($0)") }
        // Half already stored, half new, one key twice (the later row wins), one row unchanged.
        var records = (25..<75).map { Record(key: "pod/\($0)", name: "pod", version: "\($0).1", summary: $0 % 3 == 0 ? nil : "new \($0)") }
        records.append(Record(key: "pod/30", name: "again", version: "30.2", summary: "twice"))
        records.append(Record(key: "pod/60", name: "again", version: "60.2", summary: nil))
        records.append(seed[3])

        func stack(_ name: String) throws -> (PersistentStore, ObjectContext, ObjectContext) {
            let store = try PersistentStore(url: folder.appending(path: name), model: testModel)
            let root = ObjectContext(store: store)
            let worker = ObjectContext(.privateQueue, parent: root)
            try worker.performAndWait { ctx in
                try ctx.findOrCreate("Pod", key: Pod.key, keys: seed.map(\.key)) { pod, i, _ in
                    pod[Pod.name] = seed[i].name
                    pod[Pod.version] = seed[i].version
                    pod[Pod.summary] = seed[i].summary
                }
                try ctx.save()
            }
            try root.performAndWait { try $0.save() }
            return (store, root, worker)
        }

        let (objectStore, objectRoot, objectWorker) = try stack("objects")
        let found = try objectWorker.performAndWait { ctx in
            let result = try ctx.findOrCreate("Pod", key: Pod.key, keys: records.map(\.key)) { pod, i, _ in
                pod[Pod.name] = records[i].name
                pod[Pod.version] = records[i].version
                pod[Pod.summary] = records[i].summary
            }
            try ctx.save()
            return result
        }
        try objectRoot.performAndWait { try $0.save() }

        let (batchStore, batchRoot, batchWorker) = try stack("batch")
        let batch = try batch(records)
        let receipt = try batchWorker.performAndWait { ctx in
            let receipt = try ctx.upsert(batch)
            try ctx.save()
            return receipt
        }
        XCTAssertNil(receipt.result, "not written before the root saves")
        try batchRoot.performAndWait { try $0.save() }

        let result = try XCTUnwrap(receipt.result)
        XCTAssertEqual(result.created, found.created.map(objectRoot.resolve))
        // Find-or-create finds 26 stored objects; the batch writes 25 of them, and leaves the
        // one whose row holds its stored values alone, as the object path writes nothing then.
        XCTAssertEqual(result.updated + result.unchanged, found.updated)
        XCTAssertEqual(result.created.count, 25)
        XCTAssertEqual(result.updated.count, 25)
        XCTAssertEqual(result.unchanged.map(\.rowID), [4])
        XCTAssertEqual(try podRows(batchStore), try podRows(objectStore))
        let version = { (store: PersistentStore) in
            try store.unsafeRead { try Int64.fetchOne($0, sql: #"SELECT "_version" FROM "Pod" WHERE id = 4"#) }
        }
        XCTAssertEqual(try version(batchStore), 1, "the unchanged row is not written")
        XCTAssertEqual(try version(objectStore), 1)
        let sequence = #"SELECT last FROM _poddoc_sequence WHERE entity = 'Pod'"#
        XCTAssertEqual(try batchStore.unsafeRead { try Int.fetchOne($0, sql: sequence) }, 75)
        XCTAssertEqual(try objectStore.unsafeRead { try Int.fetchOne($0, sql: sequence) }, 75)
    }

    func testARowRepeatingWhatTheBatchWroteIsNotCountedUnchanged() throws {
        let store = try makeStore()
        let root = ObjectContext(store: store)
        try root.performAndWait { ctx in
            _ = try ctx.upsert(batch([Record(key: "a", name: "a", version: "1", summary: "old")]))
            try ctx.save()
            // "b" is created then repeated as it is; "a" is changed then repeated as changed;
            // "c" (stored below) is repeated as stored.
            _ = try ctx.upsert(batch([Record(key: "c", name: "c", version: "1", summary: nil)]))
            try ctx.save()
            let same = Record(key: "b", name: "b", version: "1", summary: nil)
            let changed = Record(key: "a", name: "a", version: "2", summary: "new")
            let stored = Record(key: "c", name: "c", version: "1", summary: nil)
            let receipt = try ctx.upsert(batch([same, same, changed, changed, stored, stored]))
            try ctx.save()
            let result = try XCTUnwrap(receipt.result)
            XCTAssertEqual(result.created.compactMap(\.rowID), [3])
            XCTAssertEqual(result.updated.compactMap(\.rowID), [1])
            XCTAssertEqual(result.unchanged.compactMap(\.rowID), [2], "only the stored row nothing touched")
            XCTAssertTrue(try store.holdsAllRows(of: batch([same, changed, stored])))
            XCTAssertFalse(try store.holdsAllRows(of: batch([same, Record(key: "a", name: "a", version: "1", summary: "old")])))
            XCTAssertFalse(try store.holdsAllRows(of: batch([Record(key: "d", name: "d", version: "1", summary: nil)])), "a new key")
            XCTAssertFalse(try store.holdsAllRows(of: batch([Record(key: "c", name: "c", version: "1", summary: "other")])))
        }
    }

    func testAnUpdateIsNotTakenForAnInsertAfterAnObjectOfTheSameSaveGotTheNextID() throws {
        let store = try makeStore()
        let root = ObjectContext(store: store)
        try root.performAndWait { ctx in
            ctx.insert("Item")
            _ = try ctx.upsert(batch([Record(key: "a", name: "a", version: "1", summary: nil)]))
            try ctx.save()
        }
        // One save: an Item given id 2, then a batch whose first row updates Pod 1 while the
        // next Pod id is 2 as well.
        let receipt = try root.performAndWait { ctx in
            ctx.insert("Item")
            let receipt = try ctx.upsert(
                batch([
                    Record(key: "a", name: "a", version: "1", summary: "changed"),
                    Record(key: "b", name: "b", version: "1", summary: nil),
                ]))
            try ctx.save()
            return receipt
        }
        let result = try XCTUnwrap(receipt.result)
        XCTAssertEqual(result.updated.map(\.key), [1])
        XCTAssertEqual(result.created.map(\.key), [2])
        XCTAssertEqual(try podRows(store).map { $0[0] + " " + $0[1] + " " + $0[4] }, ["1 \"a\" \"changed\"", "2 \"b\" NULL"])
        let versions = try store.unsafeRead { try Int.fetchAll($0, sql: #"SELECT "_version" FROM "Pod" ORDER BY id"#) }
        XCTAssertEqual(versions, [2, 1])
        try root.performAndWait { ctx in
            XCTAssertEqual(try ctx.fetch(FetchRequest("Item")).map(\.objectID.key).sorted(), [1, 2])
        }
    }

    func testIDsAreNeverReusedAfterADelete() throws {
        let store = try makeStore()
        let root = ObjectContext(store: store)
        try root.performAndWait { ctx in
            _ = try ctx.upsert(
                batch([Record(key: "a", name: "a", version: "1", summary: nil), Record(key: "b", name: "b", version: "1", summary: nil)]))
            try ctx.save()
            _ = try ctx.delete(XCTUnwrap(ctx.fetchFirst(FetchRequest("Pod", where: Pod.key == "b"))))
            try ctx.save()
            let receipt = try ctx.upsert(batch([Record(key: "c", name: "c", version: "1", summary: nil)]))
            try ctx.save()
            XCTAssertEqual(receipt.result?.created.compactMap(\.rowID), [3])
        }
    }

    // MARK: - The save protocol

    func testRowsReachTheStoreWithTheRootSaveAndItsMetadataInOneTransaction() throws {
        let store = try makeStore()
        let root = ObjectContext(store: store)
        let worker = ObjectContext(.privateQueue, parent: root)
        let receipt = try worker.performAndWait { ctx in
            let receipt = try ctx.upsert(batch([Record(key: "a", name: "a", version: "1", summary: "first")]))
            XCTAssertTrue(ctx.hasChanges)
            try ctx.save()
            XCTAssertFalse(ctx.hasChanges)
            return receipt
        }
        XCTAssertTrue(root.performAndWait { $0.hasChanges }, "the batch is in the root, unsaved")
        XCTAssertEqual(try otherConnection().read { try Int.fetchOne($0, sql: #"SELECT count(*) FROM "Pod""#) }, 0)
        XCTAssertNil(receipt.result)

        try root.performAndWait { try $0.save(storeMetadata: ["import.page": "3"]) }
        XCTAssertFalse(root.performAndWait { $0.hasChanges })
        XCTAssertEqual(try otherConnection().read { try String.fetchAll($0, sql: #"SELECT summary FROM "Pod""#) }, ["first"])
        XCTAssertEqual(try store.metadataValue(forKey: "import.page"), "3")
        XCTAssertEqual(receipt.result?.created.count, 1)
    }

    func testAFailedRootSaveWritesNothingAndKeepsTheRows() throws {
        let store = try PersistentStore(url: storeURL, model: Tag.model)
        let root = ObjectContext(store: store)
        var tags = try BatchUpsert("Tag", key: Tag.key, model: Tag.model)
        tags.append {
            $0[Tag.key] = "one"
            $0[Tag.slug] = "same"
        }
        tags.append {
            $0[Tag.key] = "two"
            $0[Tag.slug] = "same"
        }
        let receipt = try root.performAndWait { ctx in
            ctx.insert("Tag")[Tag.key] = "object"
            return try ctx.upsert(tags)
        }
        XCTAssertThrowsError(try root.performAndWait { try $0.save(storeMetadata: ["k": "v"]) }) { error in
            XCTAssertEqual((error as? StoreError)?.code, .uniqueConstraint)
        }
        XCTAssertEqual(try otherConnection().read { try Int.fetchOne($0, sql: #"SELECT count(*) FROM "Tag""#) }, 0)
        XCTAssertNil(try store.metadataValue(forKey: "k"))
        XCTAssertNil(receipt.result)
        XCTAssertTrue(root.performAndWait { $0.hasChanges })
        root.performAndWait { $0.rollback() }
        XCTAssertFalse(root.performAndWait { $0.hasChanges })
    }

    func testBadBatchesAreRefusedBeforeAnythingIsStaged() throws {
        XCTAssertThrowsError(try BatchUpsert("Pod", key: Pod.name, model: testModel)) { error in
            XCTAssertEqual((error as? StoreError)?.code, .invalidModel)
        }
        XCTAssertThrowsError(try BatchUpsert("Nothing", key: Pod.key, model: testModel))
        let root = ObjectContext(store: try makeStore())
        var missingKey = try BatchUpsert("Pod", key: Pod.key, model: testModel)
        missingKey.append {
            $0[Pod.name] = "a"
            $0[Pod.version] = "1"
        }
        var missingRequired = try BatchUpsert("Pod", key: Pod.key, model: testModel)
        missingRequired.append {
            $0[Pod.key] = "a"
            $0[Pod.version] = "1"
        }
        for bad in [missingKey, missingRequired] {
            XCTAssertThrowsError(try root.performAndWait { try $0.upsert(bad) }) { error in
                XCTAssertEqual((error as? StoreError)?.code, .validation)
            }
        }
        let otherModel = try BatchUpsert("Tag", key: Tag.key, model: Tag.model)
        XCTAssertThrowsError(try root.performAndWait { try $0.upsert(otherModel) })
        XCTAssertFalse(root.performAndWait { $0.hasChanges })
    }

    // MARK: - Other contexts

    @MainActor
    func testMainContextMergesRegisteredObjectsWithoutMaterialisingTheRest() async throws {
        let store = try makeStore()
        let root = ObjectContext(store: store)
        try root.performAndWait { ctx in
            _ = try ctx.upsert(
                batch([Record(key: "a", name: "a", version: "1", summary: "a"), Record(key: "b", name: "b", version: "1", summary: "b")]))
            try ctx.save()
        }
        let main = await MainActor.run { () -> ObjectContext in
            let main = ObjectContext(.main, parent: root)
            main.automaticallyMergesChangesFromParent = true
            main.undoManager = ObjectUndoManager()
            return main
        }
        let registered = try await MainActor.run { () -> Int in
            let pods = try main.fetch(FetchRequest("Pod", sortBy: [FetchSort(Pod.key)]))
            pods[1][Pod.summary] = "mine"  // b: an unsaved change
            main.undoManager?.removeAllActions()
            return main.registeredObjectCount
        }
        // A results controller of the main context, over the pods named "a2" or "n".
        var reported: [ResultsChanges] = []
        let controller = ResultsController(
            FetchRequest("Pod", where: Pod.name.in(["a2", "n"]), sortBy: [FetchSort(Pod.key)]), context: main)
        try controller.performFetch()
        XCTAssertEqual(controller.fetchedIDs, [])
        controller.onChange = { reported.append($0) }
        let notes = Collector<SaveNotification>()
        let observation = root.observeSaves { notes.append($0) }
        let worker = ObjectContext(.privateQueue, parent: root)
        let newIDs = (0..<500).map { Record(key: "new/\($0)", name: "n", version: "1", summary: nil) }
        let receipt = try worker.performAndWait { ctx in
            let receipt = try ctx.upsert(
                batch(
                    [
                        Record(key: "a", name: "a2", version: "2", summary: "a2"),
                        Record(key: "b", name: "b2", version: "2", summary: "b2"),
                    ] + newIDs))
            try ctx.save()
            return receipt
        }
        try await root.perform { try $0.save() }
        await main.perform { _ in }  // the merge, queued on the main context
        observation.cancel()

        let result = try XCTUnwrap(receipt.result)
        let note = try XCTUnwrap(notes.values.last)
        XCTAssertEqual(note.inserted, Set(result.created))
        XCTAssertEqual(note.updated, Set(result.updated))
        XCTAssertEqual(note.changedKeys[result.updated[0]], ["key", "name", "version", "summary"])
        try await MainActor.run {
            let pods = try main.fetch(FetchRequest("Pod", where: Pod.key.in(["a", "b"]), sortBy: [FetchSort(Pod.key)]))
            XCTAssertEqual(pods.map { $0[Pod.name] }, ["a2", "b2"])
            XCTAssertEqual(pods.map { $0[Pod.summary] }, ["a2", "mine"], "unsaved changes stay on top")
            XCTAssertEqual(main.registeredObjectCount, registered, "the 500 new rows were not materialised")
            XCTAssertFalse(main.undoManager?.canUndo ?? true, "merging a batch records no undo")
            XCTAssertEqual(try main.count(for: FetchRequest("Pod")), 502)
            main.processPendingChanges()
            XCTAssertEqual(controller.fetchedIDs.count, 501, "a, now named a2, and the 500 new pods")
            XCTAssertEqual(controller.fetchedIDs.first, result.updated[0])
            XCTAssertEqual(reported.flatMap(\.inserts).count, 501)
        }
        // The merged object saves without a conflict: its snapshot took the batch's version.
        try await main.save()
        try await root.perform { try $0.save() }
        let saved = try await otherConnection().read {
            try String.fetchAll($0, sql: #"SELECT name || ':' || summary FROM "Pod" WHERE key = 'b'"#)
        }
        XCTAssertEqual(saved, ["b2:mine"])
    }

    func testAContextThatDidNotMergeMeetsAConflictAsWithAnotherWriter() throws {
        let store = try makeStore()
        let root = ObjectContext(store: store)
        let reader = ObjectContext(.privateQueue, parent: root)
        try root.performAndWait { ctx in
            _ = try ctx.upsert(batch([Record(key: "a", name: "a", version: "1", summary: "a")]))
            try ctx.save()
        }
        let held = try reader.performAndWait { ctx in
            try XCTUnwrap(ctx.fetchFirst(FetchRequest("Pod", where: Pod.key == "a")))
        }
        try root.performAndWait { ctx in
            _ = try ctx.upsert(batch([Record(key: "a", name: "a", version: "1", summary: "from batch")]))
            try ctx.save()
        }
        try reader.performAndWait { ctx in
            let pod = ctx.object(with: held.objectID)
            XCTAssertEqual(pod[Pod.summary], "a", "a context that does not merge keeps what it read")
            pod[Pod.summary] = "from reader"
            try ctx.save()
        }
        XCTAssertThrowsError(try root.performAndWait { try $0.save() }) { error in
            XCTAssertEqual((error as? StoreError)?.code, .mergeConflict)
        }
    }

    func testUndoOfAKeyedBatchDeletesWhatItCreatedAndPutsBackWhatItReplaced() throws {
        let store = try makeStore()
        let root = ObjectContext(store: store)
        let main = ObjectContext(.main, parent: root)
        let undo = ObjectUndoManager()
        main.undoManager = undo
        try undo.withoutRegistration {
            for (key, summary) in [("a", "old a"), ("b", "old b"), ("c", nil)] {
                let pod = main.insert("Pod")
                pod[Pod.key] = key
                pod[Pod.name] = key
                pod[Pod.version] = "1"
                pod[Pod.summary] = summary
                pod[Pod.score] = 5
            }
            try main.save()
        }
        try root.performAndWait { try $0.save() }
        let seeded = try podRows(store)
        let records = [
            Record(key: "a", name: "a", version: "1", summary: "new a"),
            Record(key: "b", name: "b", version: "1", summary: "old b"),
            Record(key: "d", name: "d", version: "2", summary: "new d"),
            Record(key: "c", name: "c", version: "1", summary: "new c"),
        ]

        // Staged: undo takes the batch out, redo stages it again.
        let receipt = try undo.group("Import 4 pods") { try main.upsert(batch(records)) }
        XCTAssertEqual(undo.undoActionName, "Import 4 pods")
        undo.undo()
        XCTAssertFalse(main.hasChanges)
        undo.redo()
        XCTAssertTrue(main.hasChanges)
        try main.save()
        try root.performAndWait { try $0.save() }
        let result = try XCTUnwrap(receipt.result)
        XCTAssertEqual(result.created.count, 1)
        XCTAssertEqual(result.updated.count, 2)
        XCTAssertEqual(result.unchanged.count, 1)
        let imported = try podRows(store)

        // Written: undo deletes d and puts back the summaries of a and c (score, which the
        // batch does not set, is left alone); saved, the store holds the seeded values again.
        undo.undo()
        XCTAssertEqual(try main.count(for: FetchRequest("Pod")), 3)
        XCTAssertEqual(main.object(with: result.updated[0])[Pod.summary], "old a")
        XCTAssertEqual(main.object(with: result.updated[1])[Pod.summary], nil)
        try main.save()
        try root.performAndWait { try $0.save() }
        XCTAssertEqual(try podRows(store), seeded)
        XCTAssertEqual(undo.redoActionName, "Import 4 pods")

        // Redo: d back under the same ID, the batch's values again.
        undo.redo()
        try main.save()
        try root.performAndWait { try $0.save() }
        XCTAssertEqual(try podRows(store), imported)
        XCTAssertEqual(try podRows(store).count, 4)

        // Undo registration off: nothing recorded, and the store reads nothing before writing.
        let quiet = try undo.withoutRegistration { try main.upsert(batch([Record(key: "e", name: "e", version: "1", summary: nil)])) }
        try main.save()
        try root.performAndWait { try $0.save() }
        XCTAssertNotNil(quiet.result)
        XCTAssertEqual(undo.undoActionName, "Import 4 pods")
    }

    // MARK: - Text index

    func testTheTextIndexFollowsInsertsAndUpdates() throws {
        let store = try PersistentStore(url: storeURL, model: Tag.model)
        let root = ObjectContext(store: store)
        func search(_ words: String) throws -> [String] { try Tag.keys(matching: words, in: store) }
        func upsert(_ fill: (inout BatchUpsert) -> Void) throws {
            var tags = try BatchUpsert("Tag", key: Tag.key, model: Tag.model)
            fill(&tags)
            try root.performAndWait { ctx in
                _ = try ctx.upsert(tags)
                try ctx.save()
            }
        }
        try upsert { tags in
            tags.append {
                $0[Tag.key] = "a"
                $0[Tag.text] = "fast parser"
            }
            tags.append {
                $0[Tag.key] = "b"
                $0[Tag.text] = "slow reader"
            }
        }
        XCTAssertEqual(try search("parser"), ["a"])
        try upsert { tags in
            tags.append {
                $0[Tag.key] = "a"
                $0[Tag.text] = "quick reader"
            }
        }
        XCTAssertEqual(try search("parser"), [])
        XCTAssertEqual(try search("reader"), ["a", "b"])
        // A batch that does not set the text keeps the index (and the other columns) as they are.
        try upsert { tags in
            tags.append {
                $0[Tag.key] = "b"
                $0[Tag.slug] = "bee"
            }
        }
        XCTAssertEqual(try search("slow"), ["b"])
        let b = try store.unsafeRead { try Row.fetchOne($0, sql: #"SELECT text, rank, slug FROM "Tag" WHERE key = 'b'"#) }
        XCTAssertEqual(b?["text"], "slow reader")
        XCTAssertEqual(b?["rank"], 7)
        XCTAssertEqual(b?["slug"], "bee")
        XCTAssertEqual(try store.unsafeRead { try Int.fetchOne($0, sql: #"SELECT count(*) FROM "Tag_fts""#) }, 2)
    }
}
