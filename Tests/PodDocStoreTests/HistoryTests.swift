import Foundation
import GRDB
import XCTest

@testable import PodDocStore

/// The store's history: each root save records what it changed, in its transaction.
final class HistoryTests: StoreTestCase {
    private func insertItems(_ titles: [String], in root: ObjectContext, note: SaveNote? = nil) throws -> [ObjectID] {
        try root.performAndWait { ctx in
            let items = titles.map { title in
                let item = ctx.insert("Item")
                item[Item.title] = title
                return item
            }
            try ctx.save(storeMetadata: [:], note: note)
            return items.map(\.objectID)
        }
    }

    func testEachSaveRecordsWhatItChangedWithItsNote() throws {
        let store = try makeStore()
        let root = ObjectContext(store: store)
        let ids = try insertItems(["a", "b", "c"], in: root, note: SaveNote(description: "Add 3 items", host: "studio", writer: "alice"))
        try root.performAndWait { ctx in
            for id in ids.prefix(2) { ctx.object(with: id)[Item.title] = "renamed" }
            ctx.object(with: ids[2])[Item.order] = 4
            try ctx.save()
            ctx.delete(ctx.object(with: ids[0]))
            try ctx.save()
            // Only store metadata: nothing changed, nothing recorded.
            try ctx.save(storeMetadata: ["k": "v"])
        }
        let history = try store.history()
        XCTAssertEqual(history.map(\.save), [3, 2, 1], "newest first")
        XCTAssertEqual(history[2].description, "Add 3 items")
        XCTAssertEqual(history[2].host, "studio")
        XCTAssertEqual(history[2].writer, "alice")
        XCTAssertEqual([history[2].inserted, history[2].updated, history[2].deleted], [3, 0, 0])
        XCTAssertEqual(history[2].summary, "Item: 3 inserted")
        XCTAssertEqual(history[2].changes, [#"{"Item":{"inserted":"1-3"}}"#])
        XCTAssertEqual(history[1].summary, "Item: 3 updated (title, order)")
        XCTAssertEqual(
            history[1].changes,
            [
                #"{"Item":{"updated":[{"properties":["title"],"ids":"1-2","before":[["a"],["b"]]},{"properties":["order"],"ids":"3","before":[[0]]}]}}"#
            ])
        XCTAssertEqual(history[0].summary, "Item: 1 deleted")
        XCTAssertEqual(
            history[0].changes,
            [
                #"{"Item":{"deleted":"1","deletedRows":{"properties":["title","order","note","done","created","parent"],"values":[["renamed",0,null,0,null,null]]}}}"#
            ])
        XCTAssertEqual(try store.history(limit: 1).map(\.save), [3])
        XCTAssertLessThan(abs(history[0].time.timeIntervalSinceNow), 60)
    }

    func testValuesBeforeAreJSONThatKeepsTheirType() {
        func json(_ value: StoreValue) -> String {
            var bytes: [UInt8] = []
            HistoryRecorder.appendJSON(value, to: &bytes)
            return String(decoding: bytes, as: UTF8.self)
        }
        XCTAssertEqual(json(.null), "null")
        XCTAssertEqual(json(.integer(-3)), "-3")
        XCTAssertEqual(json(.real(3)), "3.0")
        XCTAssertEqual(json(.real(0.1)), "0.1")
        XCTAssertEqual(json(.real(.infinity)), #"{"real":"inf"}"#)
        XCTAssertEqual(json(.text("a\"b\n")), #""a\"b\n""#)
        XCTAssertEqual(json(.blob(Data([1, 2]))), #"{"blob":"AQI="}"#)
    }

    func testTheSavesOfOneRunAreOneEntry() throws {
        let store = try makeStore()
        let root = ObjectContext(store: store)
        _ = try insertItems(["a", "b"], in: root, note: SaveNote(description: "Import", run: "r1"))
        _ = try insertItems(["c"], in: root, note: SaveNote(description: "Import", run: "r1"))
        _ = try insertItems(["d"], in: root, note: SaveNote(description: "Other", run: "r2"))
        _ = try insertItems(["e"], in: root, note: SaveNote(description: "Import", run: "r1"))
        let history = try store.history()
        XCTAssertEqual(history.map(\.description), ["Import", "Other", "Import"], "a run continues only while it is the newest entry")
        XCTAssertEqual(history[2].firstSave, 1)
        XCTAssertEqual(history[2].save, 2)
        XCTAssertEqual(history[2].inserted, 3)
        XCTAssertEqual(history[2].summary, "Item: 3 inserted")
        XCTAssertEqual(history[2].changes, [#"{"Item":{"inserted":"1-2"}}"#, #"{"Item":{"inserted":"3"}}"#])
        XCTAssertEqual(history.map(\.save), [4, 3, 2])
    }

    func testRetentionKeepsTheNewestSavesAndNumbersAreNeverReused() throws {
        var options = PersistentStore.Options()
        options.historyRetention = HistoryRetention(maximumSaves: 3)
        var store = try makeStore(options: options)
        var root = ObjectContext(store: store)
        for index in 0..<5 { _ = try insertItems(["item \(index)"], in: root) }
        XCTAssertEqual(try store.history().map(\.save), [5, 4, 3])
        try store.close()

        store = try makeStore()
        root = ObjectContext(store: store)
        _ = try insertItems(["later"], in: root)
        XCTAssertEqual(try store.history().map(\.save), [6, 5, 4, 3])

        options.historyRetention = HistoryRetention(maximumSaves: 10, maximumAge: .seconds(60))
        try store.close()
        try writeFromAnotherConnection("UPDATE _poddoc_history SET time = time - 3600 WHERE save < 6")
        store = try makeStore(options: options)
        root = ObjectContext(store: store)
        _ = try insertItems(["now"], in: root)
        XCTAssertEqual(try store.history().map(\.save), [7, 6], "older than a minute: gone")
    }

    func testBatchUpsertsAreRecordedByTheirRows() throws {
        let store = try makeStore()
        let root = ObjectContext(store: store)
        func batch(_ keys: [String], summary: String) throws -> BatchUpsert {
            var batch = try BatchUpsert("Pod", key: Pod.key, model: testModel)
            for key in keys {
                batch.append { row in
                    row[Pod.key] = key
                    row[Pod.name] = key
                    row[Pod.version] = "1"
                    row[Pod.summary] = summary
                }
            }
            return batch
        }
        try root.performAndWait { ctx in
            _ = try ctx.upsert(batch(["a", "b", "c"], summary: "one"))
            try ctx.save()
            _ = try ctx.upsert(batch(["b", "d"], summary: "two"))
            try ctx.save()
        }
        let history = try store.history()
        XCTAssertEqual(history[1].summary, "Pod: 3 inserted")
        XCTAssertEqual(history[0].summary, "Pod: 1 inserted, 1 updated (summary)", "only the properties whose values changed")
        XCTAssertEqual(
            history[0].changes,
            [#"{"Pod":{"inserted":"4","updated":[{"properties":["summary"],"ids":"2","before":[["one"]]}]}}"#])
    }

    func testAStoreWithoutHistoryGetsItAndADamagedHistoryIsReported() throws {
        var store = try makeStore()
        _ = try insertItems(["a"], in: ObjectContext(store: store))
        try store.close()
        // As a store made before history was recorded: no table.
        try writeFromAnotherConnection("DROP TABLE _poddoc_history")
        var options = PersistentStore.Options()
        options.readOnly = true
        store = try makeStore(options: options)
        XCTAssertEqual(try store.history(), [])
        try store.close()
        store = try makeStore()
        _ = try insertItems(["b"], in: ObjectContext(store: store))
        XCTAssertEqual(try store.history().map(\.summary), ["Item: 1 inserted"])
        try store.close()

        // A value of the wrong type: a clean error, not a crash.
        try writeFromAnotherConnection("UPDATE _poddoc_history SET inserted = 'many'")
        store = try makeStore(options: options)
        XCTAssertThrowsError(try store.history()) { error in
            XCTAssertEqual((error as? StoreError)?.code, .corrupt)
            XCTAssertTrue("\(error)".contains("'inserted'"), "\(error)")
        }
        try store.close()
        // A table of another shape: refused for writing (saves could not record their
        // history); read-only, the content reads and the history says what is wrong.
        try writeFromAnotherConnection("DROP TABLE _poddoc_history; CREATE TABLE _poddoc_history (save INTEGER PRIMARY KEY)")
        XCTAssertThrowsError(try makeStore()) { error in
            XCTAssertEqual((error as? StoreError)?.code, .corrupt)
            XCTAssertTrue("\(error)".contains("history table has no column 'first_save'"), "\(error)")
            XCTAssertTrue("\(error)".contains("it opens read-only only: export its content into a new document"), "\(error)")
        }
        store = try makeStore(options: options)
        XCTAssertEqual(try ObjectContext(store: store).performAndWait { try $0.count(for: FetchRequest("Item")) }, 2)
        XCTAssertThrowsError(try store.history()) { error in
            XCTAssertEqual((error as? StoreError)?.code, .corrupt)
            XCTAssertTrue("\(error)".contains("history table has no column 'first_save'"), "\(error)")
        }
    }

    func testTheHistoryIsNotPartOfTheLogicalContent() throws {
        let store = try makeStore()
        _ = try insertItems(["a"], in: ObjectContext(store: store))
        let before = try logicalContent(store)
        try writeFromAnotherConnection("UPDATE _poddoc_history SET description = 'elsewhere'")
        XCTAssertEqual(try logicalContent(store), before)
    }

    private func logicalContent(_ store: PersistentStore) throws -> [UInt8] {
        var bytes: [UInt8] = []
        try store.streamLogicalContent { bytes += $0 }
        return bytes
    }
}
