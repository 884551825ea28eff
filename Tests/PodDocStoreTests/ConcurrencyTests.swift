import Foundation
import XCTest

@testable import PodDocStore

final class ConcurrencyTests: StoreTestCase {
    @MainActor
    private static func readRepeatedly(_ main: ObjectContext, into reads: Collector<Int>) async throws {
        for _ in 0..<40 {
            reads.append(try main.count(for: FetchRequest("Pod")))
            _ = try main.fetch(FetchRequest("Pod", where: Pod.name.hasPrefix("worker"), limit: 20))
            await Task.yield()
        }
    }

    /// Several workers save into the main context's parent while the main context keeps
    /// reading; at the end everything is on disk exactly once.
    func testConcurrentWorkersSaveWhileMainReads() async throws {
        let store = try makeStore()
        let root = ObjectContext(store: store)
        let main = await MainActor.run { () -> ObjectContext in
            let main = ObjectContext(.main, parent: root)
            main.automaticallyMergesChangesFromParent = true
            return main
        }
        let workers = 4
        let batches = 10
        let perBatch = 50
        let reads = Collector<Int>()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for w in 0..<workers {
                group.addTask {
                    let worker = ObjectContext(.privateQueue, parent: root, name: "worker\(w)")
                    for b in 0..<batches {
                        try await worker.perform { ctx in
                            let keys = (0..<perBatch).map { "w\(w)-b\(b)-\($0)" }
                            try ctx.findOrCreate("Pod", key: Pod.key, keys: keys) { pod, i, _ in
                                pod[Pod.name] = "worker \(w)"
                                pod[Pod.version] = "\(b).\(i)"
                            }
                            try ctx.save()
                        }
                        if b % 3 == 0 { try await root.perform { try $0.save() } }
                    }
                }
            }
            group.addTask { try await Self.readRepeatedly(main, into: reads) }
            try await group.waitForAll()
        }
        try await root.perform { try $0.save() }
        let total = workers * batches * perBatch
        let distinct = try await otherConnection().read { try Int.fetchOne($0, sql: #"SELECT count(DISTINCT key) FROM "Pod""#) }
        let rows = try await otherConnection().read { try Int.fetchOne($0, sql: #"SELECT count(*) FROM "Pod""#) }
        XCTAssertEqual(distinct, total)
        XCTAssertEqual(rows, total)
        let counts = reads.values
        XCTAssertEqual(counts, counts.sorted(), "the main context never sees objects disappear")
        await drain(main)
        let mainCount = try await MainActor.run { try main.count(for: FetchRequest("Pod")) }
        XCTAssertEqual(mainCount, total)
    }
}
