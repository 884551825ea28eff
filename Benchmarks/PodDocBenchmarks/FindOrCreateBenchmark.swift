import Foundation
import GRDBSQLite
import PodDocStore

/// Find-or-create of 100,000 records, half of them already stored, through a worker context
/// into the root and to disk; against the raw SQLite C API doing the same upserts.
enum FindOrCreateBenchmark {
    static let key = Attribute<String>("key", unique: true)
    static let name = Attribute<String>("name")
    static let version = Attribute<String>("version")
    static let summary = Attribute<String?>("summary")
    static let score = Attribute<Double>("score", default: 0)

    struct Record {
        let key: String, name: String, version: String, summary: String, score: Double
    }

    /// Records whose keys do not depend on `revision`, and whose summary and score do, so
    /// that storing a second revision updates every existing row.
    static func records(_ count: Int, revision: Int) -> [Record] {
        (0..<count).map { i in
            Record(
                key: "Pod\(i)/\(i % 7).\(i % 13).0", name: "Pod\(i)", version: "\(i % 7).\(i % 13).0",
                summary: "A library that does thing number \(i) rather well (revision \(revision)).",
                score: Double(i * revision) / 3)
        }
    }

    static func run(count: Int = 100_000) async throws -> [Measurement] {
        let folder = try scratchFolder("find-or-create")
        defer { try? FileManager.default.removeItem(at: folder) }
        let model = try ObjectModel(entities: [EntityDescription("Pod", members: [key, name, version, summary, score])])
        let all = records(count, revision: 2)
        let existing = records(count, revision: 1).enumerated().filter { $0.offset % 2 == 0 }.map(\.element)

        // The floor: raw sqlite3 upserts, one transaction, same schema, same pragmas.
        var rawFile = folder.appending(path: "raw.sqlite")
        let raw = try measure(setUp: {
            rawFile = folder.appending(path: "raw-\(UUID().uuidString).sqlite")
            try RawSQLite.prepare(rawFile, existing: existing)
        }) {
            try RawSQLite.upsert(rawFile, all)
        }

        // poddoc: worker context -> root -> disk.
        var store: PersistentStore!
        let ours = try await measureAsync(setUp: {
            store = try PersistentStore(url: folder.appending(path: "store-\(UUID().uuidString)"), model: model)
            let root = ObjectContext(store: store)
            try root.performAndWait { ctx in
                try ctx.findOrCreate("Pod", key: key, keys: existing.map(\.key)) { pod, i, _ in
                    set(pod, existing[i])
                }
                try ctx.save()
            }
        }) {
            let root = ObjectContext(store: store)
            let worker = ObjectContext(.privateQueue, parent: root)
            let counts = try await worker.perform { ctx -> (Int, Int) in
                let result = try ctx.findOrCreate("Pod", key: key, keys: all.map(\.key)) { pod, i, _ in
                    set(pod, all[i])
                }
                try ctx.save()
                return (result.created.count, result.updated.count)
            }
            precondition(counts == (count / 2, count / 2), "unexpected find-or-create counts \(counts)")
            try await root.perform { try $0.save() }
        }
        return [
            Measurement(
                name: "find-or-create, worker → root → disk (half existing)", seconds: ours, count: count,
                floorName: "raw SQLite upserts", floorSeconds: raw)
        ]
    }

    static func set(_ pod: ManagedObject, _ record: Record) {
        pod[name] = record.name
        pod[version] = record.version
        pod[summary] = record.summary
        pod[score] = record.score
    }
}

/// The raw SQLite C API, as fast as a hand-written importer can be.
enum RawSQLite {
    static func open(_ url: URL) throws -> OpaquePointer {
        var db: OpaquePointer?
        guard sqlite3_open(url.path, &db) == SQLITE_OK, let db else { throw BenchmarkError("cannot open \(url.path)") }
        try exec(db, "PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL; PRAGMA cache_size=-65536")
        return db
    }

    static func exec(_ db: OpaquePointer, _ sql: String) throws {
        guard sqlite3_exec(db, sql, nil, nil, nil) == SQLITE_OK else {
            throw BenchmarkError(String(cString: sqlite3_errmsg(db)))
        }
    }

    static func prepare(_ url: URL, existing: [FindOrCreateBenchmark.Record]) throws {
        let db = try open(url)
        defer { sqlite3_close(db) }
        try exec(
            db,
            #"CREATE TABLE "Pod" ("id" INTEGER PRIMARY KEY, "_version" INTEGER NOT NULL DEFAULT 1, "key" TEXT, "name" TEXT, "version" TEXT, "summary" TEXT, "score" REAL); CREATE UNIQUE INDEX "Pod_key" ON "Pod"("key")"#
        )
        try upsert(db, existing)
    }

    static func upsert(_ url: URL, _ records: [FindOrCreateBenchmark.Record]) throws {
        let db = try open(url)
        defer { sqlite3_close(db) }
        try upsert(db, records)
    }

    static func upsert(_ db: OpaquePointer, _ records: [FindOrCreateBenchmark.Record]) throws {
        let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
        var statement: OpaquePointer?
        let sql =
            #"INSERT INTO "Pod" ("key", "name", "version", "summary", "score") VALUES (?, ?, ?, ?, ?) ON CONFLICT("key") DO UPDATE SET "name" = excluded."name", "version" = excluded."version", "summary" = excluded."summary", "score" = excluded."score", "_version" = "_version" + 1"#
        guard sqlite3_prepare_v2(db, sql, -1, &statement, nil) == SQLITE_OK else {
            throw BenchmarkError(String(cString: sqlite3_errmsg(db)))
        }
        defer { sqlite3_finalize(statement) }
        try exec(db, "BEGIN IMMEDIATE")
        for r in records {
            sqlite3_bind_text(statement, 1, r.key, -1, transient)
            sqlite3_bind_text(statement, 2, r.name, -1, transient)
            sqlite3_bind_text(statement, 3, r.version, -1, transient)
            sqlite3_bind_text(statement, 4, r.summary, -1, transient)
            sqlite3_bind_double(statement, 5, r.score)
            guard sqlite3_step(statement) == SQLITE_DONE else { throw BenchmarkError(String(cString: sqlite3_errmsg(db))) }
            sqlite3_reset(statement)
        }
        try exec(db, "COMMIT")
    }
}

struct BenchmarkError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
