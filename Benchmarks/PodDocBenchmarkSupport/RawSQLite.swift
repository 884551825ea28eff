import Foundation
import GRDBSQLite

/// The raw SQLite C API, as fast as a hand-written importer can be.
public enum RawSQLite {
    /// Opens `url` with the store's pragmas (WAL, `synchronous=FULL`, a 64 MiB cache).
    public static func open(_ url: URL) throws -> OpaquePointer {
        var db: OpaquePointer?
        guard sqlite3_open(url.path, &db) == SQLITE_OK, let db else { throw BenchmarkError("cannot open \(url.path)") }
        try exec(db, "PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL; PRAGMA cache_size=-65536")
        return db
    }

    /// Runs SQL, throwing SQLite's message.
    public static func exec(_ db: OpaquePointer, _ sql: String) throws {
        guard sqlite3_exec(db, sql, nil, nil, nil) == SQLITE_OK else {
            throw BenchmarkError(String(cString: sqlite3_errmsg(db)))
        }
    }

    /// Creates the find-or-create table at `url` holding `existing`.
    public static func prepare(_ url: URL, existing: [FindOrCreateBenchmark.Record]) throws {
        let db = try open(url)
        defer { sqlite3_close(db) }
        try exec(
            db,
            #"CREATE TABLE "Pod" ("id" INTEGER PRIMARY KEY, "_version" INTEGER NOT NULL DEFAULT 1, "key" TEXT, "name" TEXT, "version" TEXT, "summary" TEXT, "score" REAL); CREATE UNIQUE INDEX "Pod_key" ON "Pod"("key")"#
        )
        try upsert(db, existing)
    }

    /// Upserts `records` into the table at `url`, one transaction.
    public static func upsert(_ url: URL, _ records: [FindOrCreateBenchmark.Record]) throws {
        let db = try open(url)
        defer { sqlite3_close(db) }
        try upsert(db, records)
    }

    /// Upserts `records` through an open connection, one transaction.
    public static func upsert(_ db: OpaquePointer, _ records: [FindOrCreateBenchmark.Record]) throws {
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

/// A benchmark that could not run as intended.
public struct BenchmarkError: Error, CustomStringConvertible {
    /// What went wrong.
    public let description: String
    /// An error saying `description`.
    public init(_ description: String) { self.description = description }
}
