import Foundation
import GRDBSQLite
import PodDocBenchmarkSupport
import PodDocStore
import PodSpecs

/// One spec as the columns of the `PodSpec` table.
struct SpecRow {
    let values: [String?]
    let deprecated: Bool
    let requiresARC: Bool?

    static let columns = [
        "key", "name", "version", "summary", "description", "homepage", "licenseType", "licenseFile",
        "licenseText", "authors", "sourceKind", "sourceURL", "sourceTag", "sourceCommit", "sourceBranch",
        "platforms", "socialMediaURL", "deprecatedInFavorOf", "json",
    ]

    init(_ spec: PodSpec) {
        func jsonArray(_ objects: [[(String, String?)]]) -> String {
            "["
                + objects.map { "{" + $0.compactMap { k, v in v.map { "\"\(k)\":\"\($0)\"" } }.joined(separator: ",") + "}" }.joined(
                    separator: ",") + "]"
        }
        values = [
            spec.key, spec.name, spec.version, spec.summary, spec.description, spec.homepage, spec.license?.type,
            spec.license?.file, spec.license?.text, jsonArray(spec.authors.map { [("name", $0.name), ("email", $0.email)] }),
            spec.source?.kind.rawValue, spec.source?.url, spec.source?.tag, spec.source?.commit, spec.source?.branch,
            jsonArray(spec.platforms.map { [("name", $0.name), ("deploymentTarget", $0.deploymentTarget)] }),
            spec.socialMediaURL, spec.deprecatedInFavorOf, spec.json.text,
        ]
        deprecated = spec.isDeprecated
        requiresARC = spec.requiresARC
    }
}

/// The raw SQLite C API upserting the same rows into the same schema, in one transaction:
/// as fast as a hand-written importer can store them.
enum RawSpecUpserts {
    static func run(_ rows: [SpecRow], at url: URL, fullText: Bool, foldedNameIndex: Bool = true, searchText: Bool = true) throws {
        let db = try RawSQLite.open(url)
        defer { sqlite3_close(db) }
        let columns = SpecRow.columns + ["deprecated", "requiresARC"]
        let quoted = columns.map { "\"\($0)\"" }
        var schema = "CREATE TABLE \"PodSpec\" (\"id\" INTEGER PRIMARY KEY, \"_version\" INTEGER NOT NULL DEFAULT 1, "
        schema += quoted.joined(separator: ", ") + "); "
        schema += "CREATE UNIQUE INDEX \"PodSpec_key\" ON \"PodSpec\"(\"key\"); "
        // The document's one name index is folded; before case-insensitive listing it was plain.
        schema +=
            foldedNameIndex
            ? "CREATE INDEX \"PodSpec_name_folded\" ON \"PodSpec\"(poddoc_fold(\"name\"))"
            : "CREATE INDEX \"PodSpec_name\" ON \"PodSpec\"(\"name\")"
        try TextFolding.register(onConnection: db)
        try SearchText.register(onConnection: db)
        if fullText {
            schema += "; CREATE VIRTUAL TABLE \"PodSpec_fts\" USING fts5(summary, description, tokenize = 'unicode61 remove_diacritics 2')"
        }
        try RawSQLite.exec(db, schema)
        let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
        let updates = quoted.dropFirst().map { "\($0) = excluded.\($0)" }.joined(separator: ", ")
        var sql = "INSERT INTO \"PodSpec\" (" + quoted.joined(separator: ", ") + ") VALUES ("
        sql += Array(repeating: "?", count: columns.count).joined(separator: ", ") + ") ON CONFLICT(\"key\") DO UPDATE SET "
        sql += updates + ", \"_version\" = \"_version\" + 1 RETURNING \"id\""
        var upsert: OpaquePointer?
        var index: OpaquePointer?
        guard sqlite3_prepare_v2(db, sql, -1, &upsert, nil) == SQLITE_OK,
            sqlite3_prepare_v2(
                db,
                searchText
                    ? "INSERT INTO \"PodSpec_fts\" (rowid, summary, description) VALUES (?, poddoc_search_text(?), poddoc_search_text(?))"
                    : "INSERT INTO \"PodSpec_fts\" (rowid, summary, description) VALUES (?, ?, ?)", -1, &index, nil) == SQLITE_OK
                || !fullText
        else { throw BenchmarkError(String(cString: sqlite3_errmsg(db))) }
        defer {
            sqlite3_finalize(upsert)
            sqlite3_finalize(index)
        }
        try RawSQLite.exec(db, "BEGIN IMMEDIATE")
        for row in rows {
            for (i, value) in row.values.enumerated() {
                if let value {
                    sqlite3_bind_text(upsert, Int32(i + 1), value, -1, transient)
                } else {
                    sqlite3_bind_null(upsert, Int32(i + 1))
                }
            }
            sqlite3_bind_int(upsert, Int32(row.values.count + 1), row.deprecated ? 1 : 0)
            if let arc = row.requiresARC {
                sqlite3_bind_int(upsert, Int32(row.values.count + 2), arc ? 1 : 0)
            } else {
                sqlite3_bind_null(upsert, Int32(row.values.count + 2))
            }
            guard sqlite3_step(upsert) == SQLITE_ROW else { throw BenchmarkError(String(cString: sqlite3_errmsg(db))) }
            let id = sqlite3_column_int64(upsert, 0)
            sqlite3_reset(upsert)
            if fullText {
                sqlite3_bind_int64(index, 1, id)
                for (i, value) in [row.values[3], row.values[4]].enumerated() {
                    if let value {
                        sqlite3_bind_text(index, Int32(i + 2), value, -1, transient)
                    } else {
                        sqlite3_bind_null(index, Int32(i + 2))
                    }
                }
                guard sqlite3_step(index) == SQLITE_DONE else { throw BenchmarkError(String(cString: sqlite3_errmsg(db))) }
                sqlite3_reset(index)
            }
        }
        try RawSQLite.exec(db, "COMMIT")
    }
}
