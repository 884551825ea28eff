import Foundation
import PodDocStore

/// Find-or-create of records keyed by a unique string, half of them already stored, through a
/// worker context into the root and to disk (poddoc-bench `find-or-create`, the harness's
/// `find-or-create-10k`); the floor is ``RawSQLite`` doing the same upserts.
public enum FindOrCreateBenchmark {
    public static let key = Attribute<String>("key", unique: true)
    public static let name = Attribute<String>("name")
    public static let version = Attribute<String>("version")
    public static let summary = Attribute<String?>("summary")
    public static let score = Attribute<Double>("score", default: 0)

    /// One record to store.
    public struct Record: Sendable {
        public let key: String, name: String, version: String, summary: String, score: Double
    }

    /// The model: one entity, `Pod`, unique by `key`.
    public static func model() throws -> ObjectModel {
        try ObjectModel(entities: [EntityDescription("Pod", members: [key, name, version, summary, score])])
    }

    /// Records whose keys do not depend on `revision`, and whose summary and score do, so
    /// that storing a second revision updates every existing row.
    public static func records(_ count: Int, revision: Int) -> [Record] {
        (0..<count).map { i in
            Record(
                key: "Pod\(i)/\(i % 7).\(i % 13).0", name: "Pod\(i)", version: "\(i % 7).\(i % 13).0",
                summary: "A library that does thing number \(i) rather well (revision \(revision)).",
                score: Double(i * revision) / 3)
        }
    }

    /// The records stored before a run: every other one of `count`, in their first revision.
    public static func existingRecords(_ count: Int) -> [Record] {
        records(count, revision: 1).enumerated().filter { $0.offset % 2 == 0 }.map(\.element)
    }

    /// A new store at `url` holding `existing`.
    public static func prepareStore(at url: URL, existing: [Record]) throws -> PersistentStore {
        let store = try PersistentStore(url: url, model: model())
        let root = ObjectContext(store: store)
        try root.performAndWait { ctx in
            try ctx.findOrCreate("Pod", key: key, keys: existing.map(\.key)) { pod, i, _ in set(pod, existing[i]) }
            try ctx.save()
        }
        return store
    }

    /// Stores `all` by key through a worker context into a new root, then to disk; returns
    /// how many objects were created and updated.
    @discardableResult
    public static func storeAll(_ all: [Record], in store: PersistentStore) async throws -> (created: Int, updated: Int) {
        let root = ObjectContext(store: store)
        let worker = ObjectContext(.privateQueue, parent: root)
        let counts = try await worker.perform { ctx -> (Int, Int) in
            let result = try ctx.findOrCreate("Pod", key: key, keys: all.map(\.key)) { pod, i, _ in set(pod, all[i]) }
            try ctx.save()
            return (result.created.count, result.updated.count)
        }
        try await root.perform { try $0.save() }
        return counts
    }

    /// Stores `all` by key as rows (a ``BatchUpsert``) through a worker context into a new
    /// root, then to disk; returns how many objects were created and updated.
    @discardableResult
    public static func storeAllAsRows(_ all: [Record], in store: PersistentStore) async throws -> (created: Int, updated: Int) {
        let root = ObjectContext(store: store)
        let worker = ObjectContext(.privateQueue, parent: root)
        var batch = try BatchUpsert("Pod", key: key, model: store.model)
        batch.reserveCapacity(all.count)
        for record in all {
            batch.append { row in
                row[key] = record.key
                row[name] = record.name
                row[version] = record.version
                row[summary] = record.summary
                row[score] = record.score
            }
        }
        let receipt = try await worker.perform { [batch] ctx in
            let receipt = try ctx.upsert(batch)
            try ctx.save()
            return receipt
        }
        try await root.perform { try $0.save() }
        guard let result = receipt.result else { throw BenchmarkError("the root's save did not write the batch") }
        return (result.created.count, result.updated.count)
    }

    /// Sets the values of `record` on `pod`.
    public static func set(_ pod: ManagedObject, _ record: Record) {
        pod[name] = record.name
        pod[version] = record.version
        pod[summary] = record.summary
        pod[score] = record.score
    }
}
