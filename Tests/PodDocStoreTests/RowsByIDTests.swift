import Foundation
import GRDB
import XCTest

@testable import PodDocStore

/// Reading many rows by id (what a merge, a revert and a context's faults do): probed a few
/// hundred ids a query, or, when the ids are most of a range, by one walk along it. Both give
/// every row asked for that exists, once, whatever the order of the ids or their repeats.
final class RowsByIDTests: StoreTestCase {
    /// A store of `count` items titled by their index, with every seventh one deleted.
    private func storeOfItems(_ count: Int) throws -> (PersistentStore, [Int64]) {
        let store = try makeStore()
        var batch = try BatchUpsert(inserting: "Item", model: testModel)
        for index in 0..<count { batch.append { $0[Item.title] = "item \(index)" } }
        let context = ObjectContext(store: store)
        let receipt = try context.performAndWait { ctx in
            let receipt = try ctx.upsert(batch)
            try ctx.save()
            return receipt
        }
        let ids = try XCTUnwrap(receipt.result).created.map { try XCTUnwrap($0.rowID) }
        let deleted = ids.enumerated().filter { $0.offset % 7 == 3 }.map(\.element)
        try writeFromAnotherConnection(#"DELETE FROM "Item" WHERE id IN (\#(deleted.map(String.init).joined(separator: ",")))"#)
        return (store, ids)
    }

    /// `id → title` of the rows read for `ids`, failing on a row read twice.
    private func titles(_ store: PersistentStore, _ ids: [Int64]) throws -> [Int64: String] {
        let layout = store.model.layout("Item")
        let rows = try store.rows(for: ids.map { .permanent(entity: "Item", rowID: $0) }, entity: layout)
        var titles: [Int64: String] = [:]
        for row in rows {
            guard case .value(.text(let title)) = row.row[field: layout.attributeIndex(of: Item.title.name)] else {
                XCTFail("row \(row.id) has no title")
                continue
            }
            XCTAssertNil(titles.updateValue(title, forKey: try XCTUnwrap(row.id.rowID)), "row \(row.id) read twice")
        }
        return titles
    }

    /// What the file holds for `ids`, read one id at a time through another connection.
    private func expected(_ ids: [Int64]) throws -> [Int64: String] {
        try otherConnection().read { db in
            var titles: [Int64: String] = [:]
            for id in Set(ids) {
                if let title = try String.fetchOne(db, sql: #"SELECT title FROM "Item" WHERE id = ?"#, arguments: [id]) {
                    titles[id] = title
                }
            }
            return titles
        }
    }

    func testManyIdsOfARangeReadAsTheyAreStored() throws {
        let (store, ids) = try storeOfItems(6_000)
        defer { try? store.close() }
        let last = try XCTUnwrap(ids.last)
        var random = SystemRandomNumberGenerator()
        let cases: [(String, [Int64])] = [
            ("every id, deleted ones too", ids),
            ("every other id", ids.enumerated().filter { $0.offset % 2 == 0 }.map(\.element)),
            ("ids out of order, some twice", (ids.prefix(3_000) + ids.prefix(500)).shuffled(using: &random)),
            ("ids past the last row", Array(ids.suffix(2_500)) + Array((last + 1)...(last + 100))),
            ("every tenth id (probed)", ids.enumerated().filter { $0.offset % 10 == 0 }.map(\.element)),
            ("few ids", [ids[5], ids[3], ids[4_000]]),
        ]
        XCTAssertGreaterThanOrEqual(cases[1].1.count, PersistentStore.denseReadMinimum, "the dense cases walk the range")
        for (name, asked) in cases {
            let read = try titles(store, asked)
            let wanted = try expected(asked)
            let missing = Set(wanted.keys).subtracting(read.keys).sorted()
            let extra = Set(read.keys).subtracting(wanted.keys).sorted()
            let wrong = wanted.keys.filter { read[$0] != nil && read[$0] != wanted[$0] }.sorted()
            XCTAssertEqual(missing, [], "\(name): rows not read")
            XCTAssertEqual(extra, [], "\(name): rows read that were not asked for or do not exist")
            XCTAssertEqual(wrong, [], "\(name): rows read with other values")
            XCTAssertFalse(read.isEmpty, name)
        }
    }
}
