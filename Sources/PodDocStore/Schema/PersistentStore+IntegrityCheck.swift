import Foundation
internal import GRDB
internal import GRDBSQLite

// MARK: - Checking a store file from elsewhere

extension PersistentStore {
    /// Runs SQLite's `quick_check` on a store file that came from elsewhere, with the same
    /// defensive settings as an untrusted open (`trusted_schema=OFF`, `cell_size_check=ON`,
    /// `mmap_size=0`), without creating anything beside it: the file is opened read-only and
    /// `immutable`, so no `-wal` or `-shm` appears. That lets the check run while the folder
    /// holding the file is being synced; open the store afterwards with
    /// ``Options/integrityChecked``.
    ///
    /// The connection is SQLite's own (GRDB opens no URI file names), and it reads the
    /// schema only as `quick_check` does, registering no functions or collations.
    ///
    /// - Parameter url: The store file; it must not change while the check runs.
    /// - Throws: ``StoreError`` `.corrupt` when the check fails or the file is not a SQLite
    ///   database, `.sqlite` when it cannot be opened.
    public static func checkIntegrity(ofFileAt url: URL) throws {
        var components = URLComponents()
        components.scheme = "file"
        components.path = url.standardizedFileURL.path
        components.queryItems = [URLQueryItem(name: "mode", value: "ro"), URLQueryItem(name: "immutable", value: "1")]
        guard let uri = components.string else {
            throw StoreError(.sqlite, "Could not open \(url.path) to check it: the path cannot be written as a SQLite URI.")
        }
        var connection: OpaquePointer?
        defer { sqlite3_close_v2(connection) }
        let opened = sqlite3_open_v2(uri, &connection, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX, nil)
        guard opened == SQLITE_OK, let connection else {
            throw StoreError(
                .sqlite,
                "Could not open \(url.path) to check it: \(message(connection, opened)). Check that the file exists and can be read.")
        }
        let settings = sqlite3_exec(connection, "PRAGMA trusted_schema = OFF; " + untrustedFileSettings, nil, nil, nil)
        guard settings == SQLITE_OK else { throw checkFailure(settings, connection, url: url) }
        try quickCheck(connection, url: url)
    }

    /// Runs SQLite's `quick_check` on the bytes of a store file held in memory (an image of
    /// the file, byte for byte), with the same defensive settings as
    /// ``checkIntegrity(ofFileAt:)``. Nothing is read from disk or written to it: the image is
    /// opened read-only in SQLite's in-memory file system (`sqlite3_deserialize`).
    ///
    /// An extraction can check a store it has just written this way, mapped from the page
    /// cache, beside the rest of its work, instead of reading the file back with a system
    /// call per page.
    ///
    /// The in-memory file system has no WAL, so a WAL-mode header (bytes 18 and 19 both 2) is
    /// set to rollback-journal mode (1) in the image before SQLite reads it. Those two bytes
    /// are not part of what `quick_check` verifies; nothing else in the image is written.
    ///
    /// - Parameters:
    ///   - image: The file's bytes; nothing else may read or write them while the check runs.
    ///   - url: The file the image is of, named in errors.
    /// - Throws: ``StoreError`` `.corrupt` when the check fails or the bytes are not a SQLite
    ///   database, `.sqlite` when SQLite cannot open the image.
    public static func checkIntegrity(ofImage image: UnsafeMutableRawBufferPointer, of url: URL) throws {
        var connection: OpaquePointer?
        defer { sqlite3_close_v2(connection) }
        let opened = sqlite3_open_v2(":memory:", &connection, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, nil)
        guard opened == SQLITE_OK, let connection else {
            throw StoreError(.sqlite, "Could not check \(url.path) in memory: \(message(connection, opened)).")
        }
        if let base = image.baseAddress {
            if image.count > 19, image[18] == 2, image[19] == 2 {
                image[18] = 1
                image[19] = 1
            }
            let size = Int64(image.count)
            let loaded = sqlite3_deserialize(
                connection, "main", base.assumingMemoryBound(to: UInt8.self), size, size, UInt32(SQLITE_DESERIALIZE_READONLY))
            guard loaded == SQLITE_OK else { throw checkFailure(loaded, connection, url: url) }
        }
        let settings = sqlite3_exec(connection, "PRAGMA trusted_schema = OFF; " + untrustedFileSettings, nil, nil, nil)
        guard settings == SQLITE_OK else { throw checkFailure(settings, connection, url: url) }
        try quickCheck(connection, url: url)
    }

    /// Runs SQLite's `quick_check` on the open store (every page and b-tree, without the
    /// index cross-checks of `integrity_check`).
    ///
    /// - Throws: ``StoreError`` (`.corrupt`) naming what SQLite found.
    public func quickCheck() throws {
        do {
            try Self.runQuickCheck(database, url: url)
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError.sqlite(error, while: "checking the store")
        }
    }

    /// What SQLite's full `integrity_check` finds wrong with the open store (every page, b-tree
    /// and index, and that each index agrees with its table), at most `limit` sentences; empty
    /// when the store is sound.
    ///
    /// - Throws: ``StoreError`` (`.sqlite`) when the check cannot run.
    public func integrityProblems(limit: Int = 100) throws -> [String] {
        let answer: [String]
        do {
            answer = try database.read { db in try String.fetchAll(db, sql: "PRAGMA integrity_check(\(max(1, limit)))") }
        } catch {
            throw StoreError.sqlite(error, while: "checking the store")
        }
        return answer == ["ok"] ? [] : answer
    }

    /// What is wrong with the records merges read (the save graph, which copy this is), in
    /// sentences; empty when nothing is. Damaged, they stop every merge; the objects are not
    /// affected.
    public func mergeRecordProblems() -> [String] {
        do {
            _ = try saveGraph()
            return []
        } catch let error as StoreError {
            return [error.message]
        } catch {
            return ["The store's save graph cannot be read (\(error)); the objects are not affected."]
        }
    }

    /// `quick_check` on a store's connection, SQLite's errors as they come (opening maps
    /// them to its own, before the store is whole).
    static func runQuickCheck(_ database: DatabaseQueue, url: URL?) throws {
        try database.read { db in
            guard let connection = db.sqliteConnection else { return }
            try PersistentStore.quickCheck(connection, url: url)
        }
    }

    /// Runs `quick_check` on an open connection (this file's own, or GRDB's for an untrusted
    /// open) and throws unless it answers "ok".
    ///
    /// - Throws: ``StoreError`` `.corrupt` when the check fails or SQLite finds the file
    ///   damaged or not a database on the way; `.sqlite` for other SQLite errors.
    static func quickCheck(_ connection: OpaquePointer, url: URL?) throws {
        var statement: OpaquePointer?
        defer {
            sqlite3_finalize(statement)
            // The check read every page into the cache (up to the 64 MiB a big save wants);
            // nothing later needs them there.
            sqlite3_db_release_memory(connection)
        }
        var code = sqlite3_prepare_v2(connection, "PRAGMA quick_check", -1, &statement, nil)
        var lines: [String] = []
        if code == SQLITE_OK, let statement {
            code = sqlite3_step(statement)
            while code == SQLITE_ROW {
                lines.append(sqlite3_column_text(statement, 0).map { String(cString: $0) } ?? "")
                code = sqlite3_step(statement)
            }
        }
        guard code == SQLITE_OK || code == SQLITE_DONE else { throw checkFailure(code, connection, url: url) }
        guard lines == ["ok"] else { throw integrityCheckFailed(lines, url: url) }
    }

    /// The error for a SQLite failure while checking: damage or a file that is not a
    /// database fails the check; anything else is a SQLite error.
    private static func checkFailure(_ code: Int32, _ connection: OpaquePointer, url: URL?) -> StoreError {
        let text = message(connection, code)
        if code == SQLITE_CORRUPT || code == SQLITE_NOTADB { return integrityCheckFailed([text], url: url) }
        return StoreError(.sqlite, "Could not check \(url?.path ?? "the store"): \(text).")
    }

    /// The `.corrupt` error quoting the first of `problems`.
    private static func integrityCheckFailed(_ problems: [String], url: URL?) -> StoreError {
        StoreError(
            .corrupt,
            "\(url?.path ?? "the store") failed its integrity check: \(problems.prefix(3).joined(separator: "; ")). Restore it from a backup or an autosaved copy."
        )
    }

    private static func message(_ connection: OpaquePointer?, _ code: Int32) -> String {
        if let connection, let text = sqlite3_errmsg(connection) { return String(cString: text) }
        return String(cString: sqlite3_errstr(code))
    }
}
