import Foundation
import XCTest

@testable import PodDocStore

final class FindOrCreateTests: StoreTestCase {
    func testOneQueryPerBatchAndCreatedVersusUpdated() throws {
        let statements = Collector<String>()
        var options = PersistentStore.Options()
        options.traceSQL = { statements.append($0) }
        let store = try makeStore(options: options)
        let root = ObjectContext(store: store)
        let worker = ObjectContext(.privateQueue, parent: root)
        try root.performAndWait { ctx in
            for i in 0..<500 {
                let pod = ctx.insert("Pod")
                pod[Pod.key] = "pod\(i)"
                pod[Pod.name] = "old"
                pod[Pod.version] = "1"
            }
            try ctx.save()
        }
        let before = statements.values.count
        let keys = (250..<1250).map { "pod\($0)" } + ["pod1249", "pod300"]  // repeats in the batch
        let result = try worker.performAndWait { ctx in
            try ctx.findOrCreate("Pod", key: Pod.key, keys: keys) { pod, index, isNew in
                pod[Pod.name] = isNew ? "new" : "updated"
                pod[Pod.version] = "2"
            }
        }
        let selects = statements.values[before...].filter { $0.hasPrefix("SELECT") && $0.contains("\"Pod\"") }
        XCTAssertEqual(selects.count, 1, "one query for the whole batch: \(selects.map { String($0.prefix(80)) })")
        XCTAssertEqual(result.created.count, 750)
        XCTAssertEqual(result.updated.count, 250)
        XCTAssertEqual(Set(result.created).intersection(result.updated), [])

        try worker.performAndWait { try $0.save() }
        try root.performAndWait { try $0.save() }
        let names = try otherConnection().read { db in
            try Dictionary(grouping: String.fetchAll(db, sql: #"SELECT name FROM "Pod""#), by: { $0 }).mapValues(\.count)
        }
        // pod1249 was created, then updated again by its repeat in the batch.
        XCTAssertEqual(names, ["old": 250, "updated": 251, "new": 749])

        // Running the same batch again creates nothing.
        let again = try worker.performAndWait { ctx in
            try ctx.findOrCreate("Pod", key: Pod.key, keys: keys) { pod, _, _ in pod[Pod.version] = "3" }
        }
        XCTAssertEqual(again.created, [])
        XCTAssertEqual(again.updated.count, 1000)
    }

    func testFindsTheContextsOwnUnsavedObjects() throws {
        let root = ObjectContext(store: try makeStore(inMemory: true))
        try root.performAndWait { ctx in
            let first = try ctx.findOrCreate("Pod", key: Pod.key, keys: ["a", "b"]) { pod, _, _ in
                pod[Pod.name] = "n"
                pod[Pod.version] = "1"
            }
            let second = try ctx.findOrCreate("Pod", key: Pod.key, keys: ["b", "c"]) { pod, _, _ in
                pod[Pod.name] = "n"
                pod[Pod.version] = "1"
            }
            XCTAssertEqual(first.created.count, 2)
            XCTAssertEqual(second.created.count, 1)
            XCTAssertEqual(second.updated, [first.created[1]])
            try ctx.save()
            XCTAssertEqual(try ctx.count(for: FetchRequest("Pod")), 3)
        }
    }
}
