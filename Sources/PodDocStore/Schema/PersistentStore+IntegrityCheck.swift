import Foundation
import GRDBSQLite

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
            throw StoreError(.sqlite, "Could not open \(url.path) to check it: \(message(connection, opened)). Check that the file exists and can be read.")
        }
        var lines: [String] = []
        do {
            try execute("PRAGMA trusted_schema = OFF; PRAGMA cell_size_check = ON; PRAGMA mmap_size = 0", on: connection)
            lines = try quickCheckLines(connection)
        } catch let code as SQLiteCode {
            let text = message(connection, code.value)
            if code.value == SQLITE_NOTADB || code.value == SQLITE_CORRUPT {
                throw StoreError(.corrupt, "\(url.path) failed its integrity check: \(text). Restore it from a backup or an autosaved copy.")
            }
            throw StoreError(.sqlite, "Could not check \(url.path): \(text).")
        }
        try checkQuickCheckResult(lines, url: url)
    }

    /// A SQLite result code other than `SQLITE_OK`.
    private struct SQLiteCode: Error {
        let value: Int32
    }

    private static func execute(_ sql: String, on connection: OpaquePointer) throws {
        let code = sqlite3_exec(connection, sql, nil, nil, nil)
        guard code == SQLITE_OK else { throw SQLiteCode(value: code) }
    }

    private static func quickCheckLines(_ connection: OpaquePointer) throws -> [String] {
        var statement: OpaquePointer?
        let prepared = sqlite3_prepare_v2(connection, "PRAGMA quick_check", -1, &statement, nil)
        defer { sqlite3_finalize(statement) }
        guard prepared == SQLITE_OK, let statement else { throw SQLiteCode(value: prepared) }
        var lines: [String] = []
        while true {
            let step = sqlite3_step(statement)
            if step == SQLITE_DONE { return lines }
            guard step == SQLITE_ROW else { throw SQLiteCode(value: step) }
            lines.append(sqlite3_column_text(statement, 0).map { String(cString: $0) } ?? "")
        }
    }

    private static func message(_ connection: OpaquePointer?, _ code: Int32) -> String {
        if let connection, let text = sqlite3_errmsg(connection) { return String(cString: text) }
        return String(cString: sqlite3_errstr(code))
    }
}
