import Foundation
internal import GRDB
import PodDocJSON

// MARK: - Reading the history

extension PersistentStore {
    /// The store's history, newest first: what each save (or run of saves) changed, when,
    /// where and by whom. A store made before history was recorded has none until it is
    /// saved by this version.
    ///
    /// - Parameter limit: The most entries returned (the newest ones); all by default.
    /// - Throws: ``StoreError`` when the store cannot be read, or (`.corrupt`) when an entry
    ///   holds values of the wrong type.
    public func history(limit: Int? = nil) throws -> [HistoryEntry] {
        try unsafeRead { db in
            guard try HistoryTable.exists(db) else { return [] }
            try HistoryTable.checkColumns(db)
            let statement = try RawStatement(
                db,
                """
                SELECT \(HistoryTable.entryColumns.joined(separator: ", ")) FROM _poddoc_history ORDER BY save DESC LIMIT ?
                """)
            statement.bind(.integer(Int64(limit ?? -1)), at: 1)
            defer { statement.reset() }
            var entries: [HistoryEntry] = []
            while try statement.step() {
                entries.append(try HistoryTable.entry(statement))
            }
            return entries
        }
    }
}

// MARK: - The table

/// `_poddoc_history`: one row per save, or per run of saves (see docs/FORMAT.md, "History").
enum HistoryTable {
    static let createSQL = """
        CREATE TABLE IF NOT EXISTS _poddoc_history (save INTEGER PRIMARY KEY NOT NULL, first_save INTEGER NOT NULL, \
        time REAL NOT NULL, host TEXT NOT NULL, writer TEXT NOT NULL, description TEXT NOT NULL, run TEXT, \
        inserted INTEGER NOT NULL, updated INTEGER NOT NULL, deleted INTEGER NOT NULL, entities TEXT NOT NULL, \
        summary TEXT NOT NULL, changes TEXT NOT NULL)
        """
    /// The `_poddoc_store` key of the last save number given (numbers are never reused).
    static let lastSaveKey = "history.lastSave"
    /// The `_poddoc_store` keys `history.state.<save>`: what a merge recorded before the save
    /// graph existed, as JSON `{"identity": "...", "holds": ["...", ...]}` (read only).
    static let stateKeyPrefix = "history.state."

    /// Reads ``encodeState(_:)``'s JSON; nil when it is not that.
    static func decodeState(_ json: String) -> SaveNote.State? {
        guard let object = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any],
            let identity = object["identity"] as? String, let holds = object["holds"] as? [String]
        else { return nil }
        return SaveNote.State(identity: identity, holds: holds)
    }

    static func exists(_ db: Database) throws -> Bool {
        try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = '_poddoc_history')")
            ?? false
    }

    /// The columns this version reads and writes.
    static let columns = [
        "save", "first_save", "time", "host", "writer", "description", "run", "inserted", "updated", "deleted", "entities", "summary",
        "changes",
    ]

    /// Throws ``StoreError`` (`.corrupt`) naming the first column the table lacks.
    static func checkColumns(_ db: Database) throws {
        let present = Set(try String.fetchAll(db, sql: "SELECT name FROM pragma_table_info('_poddoc_history')"))
        if let missing = columns.first(where: { !present.contains($0) }) {
            throw StoreError(
                .corrupt,
                "The store's history table has no column '\(missing)'; it was damaged or written by another program. The objects are not affected."
            )
        }
    }

    /// The columns an entry is read from, in the order ``entry(_:)`` reads them.
    static let entryColumns = [
        "save", "first_save", "time", "host", "writer", "description", "inserted", "updated", "deleted", "summary", "changes",
    ]

    /// An entry from a row of ``entryColumns``; the row came from a file that may have been
    /// made elsewhere, so every value's type is checked.
    static func entry(_ row: RawStatement) throws -> HistoryEntry {
        func integer(_ column: Int32) throws -> Int {
            guard case .integer(let value) = row.value(column) else { throw corrupt(column) }
            return Int(value)
        }
        func text(_ column: Int32) throws -> String {
            guard case .text(let value) = row.value(column) else { throw corrupt(column) }
            return value
        }
        func changes(_ column: Int32) throws -> String {
            guard let value = row.utf8(column) else { throw corrupt(column) }
            return value
        }
        let time: Double
        switch row.value(2) {
        case .real(let value): time = value
        case .integer(let value): time = Double(value)
        default: throw corrupt(2)
        }
        return HistoryEntry(
            save: try integer(0), firstSave: try integer(1), time: Date(timeIntervalSince1970: time), host: try text(3),
            writer: try text(4), description: try text(5), inserted: try integer(6), updated: try integer(7),
            deleted: try integer(8), summary: try text(9), changes: try changes(10).split(separator: "\n").map(String.init))
    }

    private static func corrupt(_ column: Int32) -> StoreError {
        StoreError(
            .corrupt,
            "The store's history holds a value of the wrong type in '\(entryColumns[Int(column)])'; it was damaged or written by another program. The objects are not affected."
        )
    }
}
