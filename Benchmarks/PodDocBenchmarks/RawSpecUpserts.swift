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
            schema +=
                "; CREATE VIRTUAL TABLE \"PodSpec_fts\" USING fts5(name, summary, description, tokenize = 'unicode61 remove_diacritics 2')"
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
                    ? "INSERT INTO \"PodSpec_fts\" (rowid, name, summary, description) VALUES (?, poddoc_search_text(?), poddoc_search_text(?), poddoc_search_text(?))"
                    : "INSERT INTO \"PodSpec_fts\" (rowid, name, summary, description) VALUES (?, ?, ?, ?)", -1, &index, nil) == SQLITE_OK
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
                for (i, value) in [row.values[1], row.values[3], row.values[4]].enumerated() {
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

/// "SQLite doing the same work": each page parsed by SQLite itself (`json_each`), every field
/// poddoc keeps upserted with one `INSERT … SELECT` per page, and the page's text added to FTS5
/// with one more `INSERT … SELECT`; same schema and pragmas, one transaction.
enum JSONEachSpecs {
    /// The columns, as SQL over one spec's JSON (`value`).
    static let fields: [(column: String, sql: String)] = [
        ("key", "json_extract(value, '$.name') || '/' || json_extract(value, '$.version')"),
        ("name", "json_extract(value, '$.name')"),
        ("version", "json_extract(value, '$.version')"),
        ("summary", "json_extract(value, '$.summary')"),
        ("description", "json_extract(value, '$.description')"),
        ("homepage", "json_extract(value, '$.homepage')"),
        (
            "licenseType",
            "CASE json_type(value, '$.license') WHEN 'text' THEN json_extract(value, '$.license') ELSE json_extract(value, '$.license.type') END"
        ),
        ("licenseFile", "json_extract(value, '$.license.file')"),
        ("licenseText", "json_extract(value, '$.license.text')"),
        ("authors", "value -> '$.authors'"),
        (
            "sourceKind",
            "CASE WHEN json_extract(value, '$.source.git') IS NOT NULL THEN 'git' WHEN json_extract(value, '$.source.http') IS NOT NULL THEN 'http' END"
        ),
        ("sourceURL", "coalesce(json_extract(value, '$.source.git'), json_extract(value, '$.source.http'))"),
        ("sourceTag", "json_extract(value, '$.source.tag')"),
        ("sourceCommit", "json_extract(value, '$.source.commit')"),
        ("sourceBranch", "json_extract(value, '$.source.branch')"),
        ("platforms", "value -> '$.platforms'"),
        ("socialMediaURL", "json_extract(value, '$.social_media_url')"),
        ("deprecatedInFavorOf", "json_extract(value, '$.deprecated_in_favor_of')"),
        ("json", "value"),
        ("deprecated", "coalesce(json_extract(value, '$.deprecated'), 0)"),
        ("requiresARC", "json_extract(value, '$.requires_arc')"),
    ]

    static func run(_ pages: [Data], at url: URL, searchText: Bool = true) throws {
        _ = try run(pageCount: pages.count, page: { pages[$0] }, at: url, searchText: searchText)
    }

    /// Runs the pages `page(0) ..< page(pageCount)`, made one at a time (so memory stays flat
    /// for the whole index), committing after every `pagesPerCommit` pages (all in one
    /// transaction by default); returns the seconds spent in SQLite, without making the pages.
    ///
    /// With `journal` false, the store is built as a new document's could be: in a private
    /// file without a journal (`journal_mode=OFF`, `synchronous=OFF`), then synced and renamed
    /// over `url` (a kill before the rename leaves what was there); the seconds include the sync
    /// and the rename.
    static func run(
        pageCount: Int, page: (Int) throws -> Data, at url: URL, searchText: Bool = true, pagesPerCommit: Int = .max,
        journal: Bool = true
    ) throws -> Double {
        let target = journal ? url : url.appendingPathExtension("private")
        // The schema of the raw upserts (no rows yet).
        try RawSpecUpserts.run([], at: target, fullText: true)
        let db = try RawSQLite.open(target)
        var isOpen = true
        defer { if isOpen { sqlite3_close(db) } }
        if !journal { try RawSQLite.exec(db, "PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF") }
        try TextFolding.register(onConnection: db)
        try SearchText.register(onConnection: db)
        let quoted = fields.map { "\"\($0.column)\"" }
        let upsertSQL =
            "INSERT INTO \"PodSpec\" (" + quoted.joined(separator: ", ") + ") SELECT " + fields.map(\.sql).joined(separator: ", ")
            + " FROM json_each(?1, '$.result') WHERE 1 ON CONFLICT(\"key\") DO UPDATE SET "
            + quoted.dropFirst().map { "\($0) = excluded.\($0)" }.joined(separator: ", ") + ", \"_version\" = \"_version\" + 1"
        let text = ["name", "summary", "description"].map { searchText ? "poddoc_search_text(\($0))" : $0 }
        let indexSQL =
            "INSERT INTO \"PodSpec_fts\" (rowid, name, summary, description) SELECT id, \(text.joined(separator: ", ")) FROM \"PodSpec\" WHERE id > ?1"
        var upsert: OpaquePointer?
        var index: OpaquePointer?
        var last: OpaquePointer?
        guard sqlite3_prepare_v2(db, upsertSQL, -1, &upsert, nil) == SQLITE_OK,
            sqlite3_prepare_v2(db, indexSQL, -1, &index, nil) == SQLITE_OK,
            sqlite3_prepare_v2(db, "SELECT coalesce(max(id), 0) FROM \"PodSpec\"", -1, &last, nil) == SQLITE_OK
        else { throw BenchmarkError(String(cString: sqlite3_errmsg(db))) }
        defer {
            sqlite3_finalize(upsert)
            sqlite3_finalize(index)
            sqlite3_finalize(last)
        }
        let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
        var seconds = 0.0
        let clock = ContinuousClock()
        var start = clock.now
        try RawSQLite.exec(db, "BEGIN IMMEDIATE")
        for number in 0..<pageCount {
            seconds += (clock.now - start).seconds
            let page = try page(number)
            start = clock.now
            if number > 0, number % pagesPerCommit == 0 {
                try RawSQLite.exec(db, "COMMIT")
                try RawSQLite.exec(db, "BEGIN IMMEDIATE")
            }
            guard sqlite3_step(last) == SQLITE_ROW else { throw BenchmarkError(String(cString: sqlite3_errmsg(db))) }
            let before = sqlite3_column_int64(last, 0)
            sqlite3_reset(last)
            _ = page.withUnsafeBytes { sqlite3_bind_text(upsert, 1, $0.baseAddress, Int32($0.count), transient) }
            guard sqlite3_step(upsert) == SQLITE_DONE else { throw BenchmarkError(String(cString: sqlite3_errmsg(db))) }
            sqlite3_reset(upsert)
            // A fresh document: every spec of the page is new, so its rows follow `before`.
            sqlite3_bind_int64(index, 1, before)
            guard sqlite3_step(index) == SQLITE_DONE else { throw BenchmarkError(String(cString: sqlite3_errmsg(db))) }
            sqlite3_reset(index)
        }
        try RawSQLite.exec(db, "COMMIT")
        if !journal {
            sqlite3_close(db)
            isOpen = false
            let handle = try FileHandle(forUpdating: target)
            try handle.synchronize()
            try handle.close()
            guard rename(target.path, url.path) == 0 else { throw BenchmarkError("cannot rename \(target.path)") }
            let folder = open(url.deletingLastPathComponent().path, O_RDONLY)
            fsync(folder)
            close(folder)
        }
        return seconds + (clock.now - start).seconds
    }
}
