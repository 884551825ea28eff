import Foundation
import GRDB
import XCTest

@testable import PodDocStore

final class ModelAndSchemaTests: StoreTestCase {
    // MARK: - Model checks

    func testModelRejectsMissingInverse() {
        let a = EntityDescription("A", members: [ToOne("b", to: "B", inverse: "as")])
        let b = EntityDescription("B", members: [Attribute<String>("name")])
        XCTAssertThrowsError(try ObjectModel(entities: [a, b])) { error in
            XCTAssertEqual((error as? StoreError)?.code, .invalidModel)
            XCTAssertTrue("\(error)".contains("'A.b' names inverse 'as'"), "\(error)")
        }
    }

    func testModelRejectsManyToManyAndReservedNames() {
        let a = EntityDescription("A", members: [ToMany("bs", to: "B", inverse: "as")])
        let b = EntityDescription("B", members: [ToMany("as", to: "A", inverse: "bs")])
        XCTAssertThrowsError(try ObjectModel(entities: [a, b])) { error in
            XCTAssertTrue("\(error)".contains("many-to-many"), "\(error)")
        }
        let reserved = EntityDescription("C", members: [Attribute<Int>("id")])
        XCTAssertThrowsError(try ObjectModel(entities: [reserved])) { error in
            XCTAssertTrue("\(error)".contains("reserved"), "\(error)")
        }
        XCTAssertThrowsError(try ObjectModel(entities: [Item.entity, Item.entity]))
    }

    func testMergeDescriptionIsCheckedAgainstTheModel() {
        let tree = OrderedTree(entity: "Item", parent: Item.parent, order: Item.order)
        XCTAssertNoThrow(try ObjectModel(entities: [Item.entity], merging: MergeDescription(trees: [tree])))
        let elsewhere = OrderedTree(entity: "Nowhere", parent: Item.parent, order: Item.order)
        XCTAssertThrowsError(try ObjectModel(entities: [Item.entity], merging: MergeDescription(trees: [elsewhere]))) { error in
            XCTAssertEqual((error as? StoreError)?.code, .invalidModel)
        }
        let byTitle = OrderedTree(entity: "Item", parent: Item.parent, order: Attribute<Int>("title"))
        XCTAssertThrowsError(try ObjectModel(entities: [Item.entity], merging: MergeDescription(trees: [byTitle]))) { error in
            XCTAssertTrue("\(error)".contains("integer attribute"), "\(error)")
        }
        XCTAssertThrowsError(try ObjectModel(entities: [Item.entity], merging: MergeDescription(trees: [tree, tree])))
        let notADate = LatestValue(entity: "Item", attribute: Attribute<Date>("title"))
        XCTAssertThrowsError(try ObjectModel(entities: [Item.entity], merging: MergeDescription(latestValues: [notADate])))
    }

    func testAStoreRecordsItsWholeModelAndItIsReadWithoutWriting() throws {
        let merging = MergeDescription(
            trees: [OrderedTree(entity: "Item", parent: Item.parent, order: Item.order)],
            latestValues: [LatestValue(entity: "Item", attribute: Attribute<Date>("created"))])
        let model = try ObjectModel(version: 3, entities: [Item.entity], merging: merging)
        let url = folder.appending(path: "recorded")
        try PersistentStore(url: url, model: model).close()
        let before = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        let data = try Data(contentsOf: url)
        let recorded = try XCTUnwrap(try PersistentStore.recordedModel(ofStoreAt: url))
        XCTAssertEqual(recorded.version, 3)
        XCTAssertEqual(recorded.versionHash, model.versionHash)
        XCTAssertEqual(recorded.merging, merging, "the merge description travels with the model")
        XCTAssertEqual(recorded.entities.map(\.name), ["Item"])
        XCTAssertEqual(try Data(contentsOf: url), data, "reading the record wrote nothing")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted(), before, "no -wal or -shm")
        // A model without a merge description records none, as before.
        XCTAssertFalse(try ObjectModel(entities: [Item.entity]).recordJSON.contains("merging"))
        let garbage = folder.appending(path: "garbage")
        try Data("not a database at all, not even close".utf8).write(to: garbage)
        XCTAssertThrowsError(try PersistentStore.recordedModel(ofStoreAt: garbage))
    }

    // MARK: - Schema

    func testNewStoreHasApplicationIDVersionAndTables() throws {
        let store = try makeStore()
        XCTAssertFalse(store.identifier.isEmpty)
        let db = try otherConnection()
        try db.read { db in
            XCTAssertEqual(try Int32.fetchOne(db, sql: "PRAGMA application_id"), PersistentStore.applicationID)
            XCTAssertEqual(try Int.fetchOne(db, sql: "PRAGMA user_version"), 1)
            XCTAssertEqual(try String.fetchOne(db, sql: "PRAGMA journal_mode"), "wal")
            let columns = try Row.fetchAll(db, sql: #"PRAGMA table_info("Item")"#).map { $0["name"] as String }
            XCTAssertEqual(columns, ["id", "_version", "title", "order", "note", "done", "created", "parent"])
            let indexes = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'Pod'")
            XCTAssertTrue(indexes.contains("Pod_key"))
        }
        // The connection writes with synchronous=FULL (GRDB's WAL set-up would leave NORMAL).
        XCTAssertEqual(try store.unsafeRead { try Int.fetchOne($0, sql: "PRAGMA synchronous") }, 2)
        let normal = try PersistentStore(url: folder.appending(path: "normal"), model: testModel, options: .init(synchronous: .normal))
        XCTAssertEqual(try normal.unsafeRead { try Int.fetchOne($0, sql: "PRAGMA synchronous") }, 1)
        // Reopening keeps the identifier.
        let again = try makeStore()
        XCTAssertEqual(again.identifier, store.identifier)
    }

    /// A foreign key that leads a compound index is found through it: no index of its own,
    /// and lookups by it (a cascade's children, a fetch by parent) use the compound one.
    func testAForeignKeyLeadingACompoundIndexHasNoIndexOfItsOwn() throws {
        let node = EntityDescription(
            "Node",
            members: [
                Attribute<Int>("order", default: 0), ToOne("parent", to: "Node", inverse: "children"),
                ToMany("children", to: "Node", inverse: "parent", deleteRule: .cascade),
                ToOne("tag", to: "Tag", inverse: "nodes"),
            ], indexes: [["parent", "order"]])
        let tag = EntityDescription("Tag", members: [ToMany("nodes", to: "Node", inverse: "tag")])
        let store = try PersistentStore(url: storeURL, model: ObjectModel(entities: [node, tag]))
        try store.close()
        try otherConnection().read { db in
            let indexes = try String.fetchAll(
                db, sql: "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'Node' AND sql IS NOT NULL ORDER BY name")
            XCTAssertEqual(indexes, ["Node_by_parent_order", "Node_tag"])
            let plan = try Row.fetchAll(db, sql: #"EXPLAIN QUERY PLAN SELECT id FROM "Node" WHERE "parent" = 1"#).map {
                $0["detail"] as String
            }
            XCTAssertTrue(plan.contains { $0.contains("Node_by_parent_order") }, "\(plan)")
        }
    }

    func testMigrationRunsInOneTransactionAndFailureLeavesStoreUnchanged() throws {
        let v1 = try ObjectModel(version: 1, entities: [EntityDescription("Note", members: [Attribute<String>("text", default: "")])])
        do {
            let store = try PersistentStore(url: storeURL, model: v1)
            let root = ObjectContext(store: store)
            try root.performAndWait { ctx in
                ctx.insert("Note").setValue(.text("hello"), forKey: "text")
                try ctx.save()
            }
        }
        // The inferred step adds `stars`; the custom stage after it fails.
        let broken = SchemaMigration(to: 2) { db in
            try db.execute(sql: #"UPDATE "Note" SET "stars" = length("text")"#)
            try db.execute(sql: "THIS IS NOT SQL")
        }
        let v2entities = [EntityDescription("Note", members: [Attribute<String>("text", default: ""), Attribute<Int?>("stars")])]
        XCTAssertThrowsError(
            try PersistentStore(url: storeURL, model: try ObjectModel(version: 2, entities: v2entities, migrations: [broken]))
        ) { error in
            XCTAssertEqual((error as? StoreError)?.code, .migrationFailed)
            XCTAssertTrue("\(error)".contains("unchanged at model 1"), "\(error)")
        }
        let version = try otherConnection().read { try Int.fetchOne($0, sql: "PRAGMA user_version") }
        XCTAssertEqual(version, 1)
        let columns = try otherConnection().read { try Row.fetchAll($0, sql: #"PRAGMA table_info("Note")"#).count }
        XCTAssertEqual(columns, 3, "the failed ALTER TABLE was rolled back")

        let good = SchemaMigration(to: 2) { db in
            try db.execute(sql: #"UPDATE "Note" SET "stars" = length("text")"#)
        }
        let store = try PersistentStore(url: storeURL, model: try ObjectModel(version: 2, entities: v2entities, migrations: [good]))
        let root = ObjectContext(store: store)
        let notes = try root.performAndWait { ctx in
            try ctx.fetch(FetchRequest("Note")).map { [$0.value(forKey: "text"), $0.value(forKey: "stars")] }
        }
        XCTAssertEqual(notes, [[.text("hello"), .integer(5)]], "the stage ran after the inferred column was added")
    }

    func testNewerSchemaIsRefusedWithTheVersionNeeded() throws {
        let v3 = try ObjectModel(version: 3, entities: [Item.entity])
        _ = try PersistentStore(url: storeURL, model: v3)
        XCTAssertThrowsError(try PersistentStore(url: storeURL, model: try ObjectModel(version: 2, entities: [Item.entity]))) { error in
            XCTAssertEqual((error as? StoreError)?.code, .newerSchema)
            XCTAssertTrue("\(error)".contains("model 3, this poddoc knows up to 2; nothing changed"), "\(error)")
        }
    }

    func testForeignFilesAreRefusedCleanly() throws {
        let garbage = folder.appending(path: "garbage")
        try Data(repeating: 0x41, count: 10_000).write(to: garbage)
        XCTAssertThrowsError(try PersistentStore(url: garbage, model: testModel)) { error in
            XCTAssertEqual((error as? StoreError)?.code, .notAStore, "\(error)")
        }
        let other = folder.appending(path: "other.sqlite")
        try DatabaseQueue(path: other.path).write { try $0.execute(sql: "CREATE TABLE t(x)") }
        XCTAssertThrowsError(try PersistentStore(url: other, model: testModel)) { error in
            XCTAssertEqual((error as? StoreError)?.code, .notAStore)
            XCTAssertTrue("\(error)".contains("another application"), "\(error)")
        }
        // Nothing was written to the foreign files.
        XCTAssertEqual(try Data(contentsOf: garbage), Data(repeating: 0x41, count: 10_000))
    }

    func testMissingColumnIsASchemaMismatch() throws {
        _ = try makeStore()
        try DatabaseQueue(path: storeURL.path).write { try $0.execute(sql: #"ALTER TABLE "Pod" DROP COLUMN "summary""#) }
        XCTAssertThrowsError(try makeStore()) { error in
            XCTAssertEqual((error as? StoreError)?.code, .schemaMismatch)
            XCTAssertTrue("\(error)".contains("'summary'"), "\(error)")
        }
    }

    func testUntrustedCorruptStoreIsRefusedNotCrashed() throws {
        try writeStoreWithFlippedPage()
        XCTAssertThrowsError(try makeStore(options: .init(untrusted: true))) { error in
            XCTAssertEqual((error as? StoreError)?.code, .corrupt, "\(error)")
        }
    }

    func testIntegrityCheckOfAFileFromElsewhereCreatesNothingBesideIt() throws {
        do {
            let store = try makeStore()
            try store.checkpoint()
            try store.close()
        }
        let folder = storeURL.deletingLastPathComponent()
        let before = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        try PersistentStore.checkIntegrity(ofFileAt: storeURL)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted(), before, "no -wal or -shm")
        // Checked already: opening keeps the defensive settings and skips quick_check.
        var options = PersistentStore.Options(untrusted: true)
        options.integrityChecked = true
        try makeStore(options: options).close()

        try writeStoreWithFlippedPage()
        XCTAssertThrowsError(try PersistentStore.checkIntegrity(ofFileAt: storeURL)) { error in
            XCTAssertEqual((error as? StoreError)?.code, .corrupt, "\(error)")
            XCTAssertTrue("\(error)".contains(self.storeURL.path), "\(error)")
        }
        let notADatabase = folder.appending(path: "not a store ?#%.txt")
        try Data(String(repeating: "not SQLite ", count: 500).utf8).write(to: notADatabase)
        XCTAssertThrowsError(try PersistentStore.checkIntegrity(ofFileAt: notADatabase)) { error in
            XCTAssertEqual((error as? StoreError)?.code, .corrupt, "\(error)")
        }
        XCTAssertThrowsError(try PersistentStore.checkIntegrity(ofFileAt: folder.appending(path: "missing"))) { error in
            XCTAssertEqual((error as? StoreError)?.code, .sqlite, "\(error)")
            XCTAssertTrue("\(error)".contains("missing"), "\(error)")
        }
    }

    /// The check of a store's bytes in memory agrees with the check of its file: a good store
    /// (in WAL mode, as poddoc writes them) passes, a damaged page or bytes that are not a
    /// database fail with `.corrupt` naming the file, and only the header's two journal-mode
    /// bytes of the image may change.
    func testIntegrityCheckOfAnImageInMemoryAgreesWithTheFileCheck() throws {
        do {
            let store = try makeStore()
            try store.checkpoint()
            try store.close()
        }
        func checkImage(of bytes: Data, named url: URL) throws -> Data {
            var image = bytes
            try image.withUnsafeMutableBytes { try PersistentStore.checkIntegrity(ofImage: $0, of: url) }
            return image
        }
        let good = try Data(contentsOf: storeURL)
        XCTAssertEqual(Array(good[18...19]), [2, 2], "the store is in WAL mode")
        let checked = try checkImage(of: good, named: storeURL)
        var expected = good
        expected[18] = 1
        expected[19] = 1
        XCTAssertEqual(checked, expected, "only the journal-mode bytes of the image change")
        XCTAssertEqual(try Data(contentsOf: storeURL), good, "the file is not touched")

        try writeStoreWithFlippedPage()
        XCTAssertThrowsError(try checkImage(of: try Data(contentsOf: storeURL), named: storeURL)) { error in
            XCTAssertEqual((error as? StoreError)?.code, .corrupt, "\(error)")
            XCTAssertTrue("\(error)".contains(self.storeURL.path), "\(error)")
        }
        let notADatabase = Data(String(repeating: "not SQLite ", count: 500).utf8)
        XCTAssertThrowsError(try checkImage(of: notADatabase, named: storeURL)) { error in
            XCTAssertEqual((error as? StoreError)?.code, .corrupt, "\(error)")
        }
        XCTAssertThrowsError(try checkImage(of: Data(good.prefix(good.count / 2)), named: storeURL), "half a store") { error in
            XCTAssertEqual((error as? StoreError)?.code, .corrupt, "\(error)")
        }
    }

    /// Writes a store of 2,000 pods, then flips bytes in a page of table data.
    private func writeStoreWithFlippedPage() throws {
        try? FileManager.default.removeItem(at: storeURL)
        do {
            let store = try makeStore()
            let root = ObjectContext(store: store)
            try root.performAndWait { ctx in
                for i in 0..<2000 {
                    let pod = ctx.insert("Pod")
                    pod[Pod.key] = "k\(i)"
                    pod[Pod.name] = "name \(i)"
                    pod[Pod.version] = "1.0"
                    pod[Pod.summary] = String(repeating: "x", count: 200)
                }
                try ctx.save()
            }
            try store.checkpoint()
            try store.close()
        }
        // Flip bytes in the middle of the file (a page of table data).
        var bytes = try Data(contentsOf: storeURL)
        for i in stride(from: bytes.count / 2, to: bytes.count / 2 + 4096, by: 7) { bytes[i] ^= 0xFF }
        try bytes.write(to: storeURL)
    }

    func testReadOnlyStoreRefusesSaves() throws {
        _ = try makeStore()
        let store = try makeStore(options: .init(readOnly: true))
        let root = ObjectContext(store: store)
        XCTAssertThrowsError(
            try root.performAndWait { ctx in
                ctx.insert("Item")
                try ctx.save()
            }
        ) { error in
            XCTAssertEqual((error as? StoreError)?.code, .readOnly)
        }
    }
}
