import Foundation
import GRDB
import PodDocRandom
import XCTest

@testable import PodDocStore

final class FetchTests: StoreTestCase {
    func testVersionOrder() {
        let sorted = [
            "0.10.0", "0.5.1", "1.0.0", "1.0.0-beta", "1.0.0b1", "0.0.1b1", "0.20.0pre5", "0.20.0", "0.1.1-Pod", "0.1.1", "1.0", "2",
            "10.0", "1.0.0.1",
        ]
        .sorted(by: VersionOrder.areInIncreasingOrder)
        XCTAssertEqual(
            sorted,
            [
                "0.0.1b1", "0.1.1-Pod", "0.1.1", "0.5.1", "0.10.0", "0.20.0pre5", "0.20.0",
                "1.0.0b1", "1.0.0-beta", "1.0", "1.0.0", "1.0.0.1", "2", "10.0",
            ])
        XCTAssertEqual(VersionOrder.compare("1.0", "1.0"), 0)
        XCTAssertNotEqual(VersionOrder.compare("1.0", "1.0.0"), 0, "a total order: different strings never tie")
        XCTAssertEqual(VersionOrder.compare("1.99999999999999999999", "1.100000000000000000000"), -1, "long numbers compare by value")
    }

    func testVersionSortIsTheSameInSQLAndInMemory() throws {
        let root = ObjectContext(store: try makeStore())
        let versions = ["0.10.0", "0.5.1", "1.0.0", "1.0.0-beta", "0.2", "0.2.0", "3.0rc1"]
        try root.performAndWait { ctx in
            for (i, v) in versions.enumerated() where i % 2 == 0 {
                let pod = ctx.insert("Pod")
                pod[Pod.key] = "p/\(v)"
                pod[Pod.name] = "p"
                pod[Pod.version] = v
            }
            try ctx.save()
            for (i, v) in versions.enumerated() where i % 2 == 1 {
                let pod = ctx.insert("Pod")
                pod[Pod.key] = "p/\(v)"
                pod[Pod.name] = "p"
                pod[Pod.version] = v
            }
            let request = FetchRequest("Pod", sortBy: [FetchSort(Pod.version, collation: .version)])
            let mixed = try ctx.fetch(request).map { $0[Pod.version] }
            XCTAssertEqual(mixed, versions.sorted(by: VersionOrder.areInIncreasingOrder))
            try ctx.save()
            XCTAssertEqual(try ctx.fetch(request).map { $0[Pod.version] }, mixed)
        }
    }

    /// Random rows, some saved and some not; every predicate must select the same objects
    /// whether SQLite or the in-memory evaluator decides.
    func testPredicatesAgreeBetweenSQLAndMemory() throws {
        var random = SeededRandom(seed: 42)
        let words = ["alpha", "Alpha", "beta", "gamma%", "del_ta", "[x]*?", "ÉCOLE", "école", ""]
        let store = try makeStore()
        let root = ObjectContext(store: store)
        let main = ObjectContext(.privateQueue, parent: root, name: "main")
        func fill(_ ctx: ObjectContext, count: Int) {
            for _ in 0..<count {
                let item = ctx.insert("Item")
                item[Item.title] = words.randomElement(using: &random)! + (Bool.random(using: &random) ? "" : " tail")
                item[Item.order] = Int.random(in: -3...3, using: &random)
                item[Item.note] = Bool.random(using: &random) ? nil : words.randomElement(using: &random)
                item[Item.done] = Bool.random(using: &random)
            }
        }
        try root.performAndWait { ctx in
            fill(ctx, count: 120)
            try ctx.save()
        }
        let predicates: [ObjectPredicate] = [
            Item.title == "alpha", Item.title != "alpha", Item.order < 0, Item.order >= 2,
            Item.note == nil, Item.note != nil, !(Item.note == "beta"), Item.note.in(["beta", "alpha"]),
            Item.title.hasPrefix("al"), Item.title.hasPrefix("AL", caseInsensitive: true),
            Item.title.contains("%"), Item.title.contains("_"), Item.title.contains("[x]*?"),
            Item.title.hasSuffix("tail"), Item.note.contains("ta", caseInsensitive: true),
            Item.title.compare(.less, "beta", collation: .caseInsensitive),
            (Item.order > 0 && Item.done == true) || Item.note == "gamma%",
            !(Item.order > 0 || Item.note == "alpha"), Item.order.in([]), .all, .none,
        ]
        try main.performAndWait { ctx in
            fill(ctx, count: 60)
            let saved = try ctx.fetch(FetchRequest("Item"))
            for (i, object) in saved.enumerated() where i % 5 == 0 {
                if i % 10 == 0 { ctx.delete(object) } else { object[Item.order] = 3 - object[Item.order] }
            }
            var results: [[String]] = []
            for predicate in predicates {
                let request = FetchRequest(
                    "Item", where: predicate, sortBy: [FetchSort(Item.title), FetchSort(Item.order, ascending: false)])
                results.append(try ctx.fetch(request).map { "\($0[Item.title])|\($0[Item.order])" })
                XCTAssertEqual(try ctx.count(for: request), results.last!.count)
            }
            try ctx.save()
            try root.performAndWait { try $0.save() }
            for (predicate, expected) in zip(predicates, results) {
                let request = FetchRequest(
                    "Item", where: predicate, sortBy: [FetchSort(Item.title), FetchSort(Item.order, ascending: false)])
                XCTAssertEqual(try ctx.fetch(request).map { "\($0[Item.title])|\($0[Item.order])" }, expected, "\(predicate)")
            }
        }
    }

    func testLimitAndOffsetWithUnsavedChanges() throws {
        let root = ObjectContext(store: try makeStore())
        try root.performAndWait { ctx in
            for i in 0..<20 { ctx.insert("Item")[Item.order] = i * 2 }
            try ctx.save()
            for i in 0..<5 { ctx.insert("Item")[Item.order] = i * 4 + 1 }  // 1, 5, 9, 13, 17
            for object in try ctx.fetch(FetchRequest("Item", where: Item.order < 6)) where object.objectID.rowID != nil {
                ctx.delete(object)  // 0, 2, 4
            }
            let all = try ctx.fetch(FetchRequest("Item", sortBy: [FetchSort(Item.order)])).map { $0[Item.order] }
            let page = try ctx.fetch(FetchRequest("Item", sortBy: [FetchSort(Item.order)], limit: 4, offset: 3)).map { $0[Item.order] }
            XCTAssertEqual(page, Array(all[3..<7]))
            XCTAssertEqual(all.prefix(4), [1, 5, 6, 8])
            XCTAssertEqual(try ctx.count(for: FetchRequest("Item", limit: 4, offset: 20)), 2)
        }
    }

    func testBatchedResultsKeepOnlyAFewBatchesInMemory() throws {
        let store = try makeStore()
        let count = 100_000
        try store.unsafeRead { _ in }  // the store is open
        let root = ObjectContext(store: store)
        try root.performAndWait { ctx in
            for i in 0..<count { ctx.insert("Item")[Item.order] = i }
            try ctx.save()
        }
        let reader = ObjectContext(store: store, name: "reader")
        try reader.performAndWait { ctx in
            let results = try ctx.fetch(FetchRequest("Item", sortBy: [FetchSort(Item.order)], batchSize: 1000))
            XCTAssertEqual(results.count, count)
            var sum = 0
            var peak = 0
            for (i, item) in results.enumerated() {
                sum += item[Item.order]
                if i % 1000 == 0 {
                    ctx.processPendingChanges()
                    peak = max(peak, ctx.registeredObjectCount)
                }
            }
            XCTAssertEqual(sum, count * (count - 1) / 2)
            XCTAssertLessThan(peak, 10_000, "objects of old batches are released")
        }
    }

    func testIDsOnlyAndFetchFirst() throws {
        let root = ObjectContext(store: try makeStore())
        try root.performAndWait { ctx in
            for i in 0..<10 { ctx.insert("Item")[Item.order] = i }
            try ctx.save()
            let ids = try ctx.fetchIDs(FetchRequest("Item", where: Item.order >= 5, sortBy: [FetchSort(Item.order, ascending: false)]))
            XCTAssertEqual(ids.compactMap(\.rowID), [10, 9, 8, 7, 6])
            XCTAssertEqual(try ctx.fetchFirst(FetchRequest("Item", sortBy: [FetchSort(Item.order, ascending: false)]))?[Item.order], 9)
        }
    }
}
