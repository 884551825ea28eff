import Foundation
import GRDBSQLite
import OutlineInterchange
import Outliner
import PodDocStore

/// The floor for saving an imported outline: the same rows written with the raw SQLite C
/// API into a table the store made (same columns, indexes and pragmas), in one transaction.
public enum RawOutlineInsert {
    /// Inserts every item of `tree` below the root into the store file at `url`.
    public static func insert(_ tree: OutlineTree, into url: URL) throws {
        let db = try RawSQLite.open(url)
        defer { sqlite3_close(db) }
        let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
        var statement: OpaquePointer?
        let sql =
            #"INSERT INTO "OutlineItem" ("id", "title", "note", "order", "created", "modified", "attributes", "parent") VALUES (?, ?, ?, ?, ?, ?, ?, ?)"#
        guard sqlite3_prepare_v2(db, sql, -1, &statement, nil) == SQLITE_OK else {
            throw BenchmarkError(String(cString: sqlite3_errmsg(db)))
        }
        defer { sqlite3_finalize(statement) }
        let now = Date().timeIntervalSince1970
        try RawSQLite.exec(db, "BEGIN IMMEDIATE")
        try RawSQLite.exec(db, #"INSERT INTO "OutlineItem" ("id", "title", "order", "created", "modified") VALUES (1, '', 0, 0, 0)"#)
        // Row ids in depth-first order; each item's parent is the row of the open path above it.
        var path: [Int64] = [1]
        var orders: [Int] = [0]
        var id: Int64 = 1
        for visit in tree.depthFirst() {
            path.removeSubrange(visit.depth...)
            orders.removeSubrange(visit.depth...)
            id += 1
            sqlite3_bind_int64(statement, 1, id)
            sqlite3_bind_text(statement, 2, visit.item.title, -1, transient)
            if let note = visit.item.note { sqlite3_bind_text(statement, 3, note, -1, transient) } else { sqlite3_bind_null(statement, 3) }
            sqlite3_bind_int64(statement, 4, Int64(orders[visit.depth - 1]))
            sqlite3_bind_double(statement, 5, now)
            sqlite3_bind_double(statement, 6, now)
            if let attributes = attributesJSON(visit.item.attributes) {
                sqlite3_bind_text(statement, 7, attributes, -1, transient)
            } else {
                sqlite3_bind_null(statement, 7)
            }
            sqlite3_bind_int64(statement, 8, path[visit.depth - 1])
            guard sqlite3_step(statement) == SQLITE_DONE else { throw BenchmarkError(String(cString: sqlite3_errmsg(db))) }
            sqlite3_reset(statement)
            orders[visit.depth - 1] += 1
            path.append(id)
            orders.append(0)
        }
        try RawSQLite.exec(db, "COMMIT")
    }

    /// The attributes as the store keeps them, `[["name","value"],…]` (the benchmark's
    /// values need no escaping).
    private static func attributesJSON(_ attributes: [OutlineAttribute]) -> String? {
        attributes.isEmpty ? nil : "[" + attributes.map { "[\"\($0.name)\",\"\($0.value)\"]" }.joined(separator: ",") + "]"
    }
}
