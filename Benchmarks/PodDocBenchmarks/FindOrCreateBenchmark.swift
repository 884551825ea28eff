import Foundation
import PodDocBenchmarkSupport
import PodDocStore

extension FindOrCreateBenchmark {
    /// Find-or-create of `count` records, half of them already stored (best of 3), against the
    /// raw SQLite C API doing the same upserts.
    static func run(count: Int = 100_000) async throws -> [Measurement] {
        let folder = try scratchFolder("find-or-create")
        defer { try? FileManager.default.removeItem(at: folder) }
        let all = records(count, revision: 2)
        let existing = existingRecords(count)

        // The floor: raw sqlite3 upserts, one transaction, same schema, same pragmas.
        var rawFile = folder.appending(path: "raw.sqlite")
        let freshRawFile = {
            rawFile = folder.appending(path: "raw-\(UUID().uuidString).sqlite")
            try RawSQLite.prepare(rawFile, existing: existing)
        }
        let raw = try measure(setUp: freshRawFile) {
            try RawSQLite.upsert(rawFile, all)
        }

        // poddoc: worker context -> root -> disk.
        var store: PersistentStore!
        let freshStore = {
            store = try prepareStore(at: folder.appending(path: "store-\(UUID().uuidString)"), existing: existing)
        }
        let ours = try await measureAsync(setUp: freshStore) {
            let counts = try await storeAll(all, in: store)
            precondition(counts == (count / 2, count / 2), "unexpected find-or-create counts \(counts)")
        }
        // poddoc's row path: the same records as one keyed batch upsert.
        let rows = try await measureAsync(setUp: freshStore) {
            let counts = try await storeAllAsRows(all, in: store)
            precondition(counts == (count / 2, count / 2), "unexpected batch upsert counts \(counts)")
        }
        return [
            Measurement(
                name: "find-or-create as rows (a keyed batch upsert), worker → root → disk (half existing)", seconds: rows,
                count: count, floorName: "raw SQLite upserts", floorSeconds: raw),
            Measurement(
                name: "find-or-create, worker → root → disk (half existing)", seconds: ours, count: count,
                floorName: "raw SQLite upserts", floorSeconds: raw),
        ]
    }
}
