import Foundation
internal import GRDB
internal import GRDBSQLite

/// SQLite's `SQLITE_TRANSIENT` (SQLite copies the bytes before the call returns), which Swift
/// cannot import.
let sqliteTransient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

/// A cached GRDB statement driven through the SQLite C API, for the hot paths (loading rows,
/// saving objects) where building GRDB `Row`s and `StatementArguments` per row would
/// dominate. GRDB still owns the connection, the statement cache and transactions.
struct RawStatement {
    let handle: OpaquePointer
    private let connection: OpaquePointer?
    private let sql: String

    init(_ db: Database, _ sql: String) throws {
        try self.init(db.cachedStatement(sql: sql), in: db)
    }

    /// Drives `statement`, which the caller keeps alive (an uncached statement, say, for a
    /// walk that may run beside another of the same SQL).
    init(_ statement: Statement, in db: Database) {
        handle = statement.sqliteStatement
        connection = db.sqliteConnection
        sql = statement.sql
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    // MARK: - Binding

    func bind(_ value: StoreValue, at index: Int32) {
        switch value {
        case .null:
            sqlite3_bind_null(handle, index)
        case .integer(let v):
            sqlite3_bind_int64(handle, index, v)
        case .real(let v):
            sqlite3_bind_double(handle, index, v)
        case .text(var s):
            s.withUTF8 { buffer in
                _ = sqlite3_bind_text(
                    handle, index,
                    UnsafeRawPointer(buffer.baseAddress ?? UnsafePointer(bitPattern: 1)!)
                        .assumingMemoryBound(to: CChar.self), Int32(buffer.count), sqliteTransient)
            }
        case .blob(let data):
            data.withUnsafeBytes { buffer in
                _ = sqlite3_bind_blob(
                    handle, index, buffer.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!,
                    Int32(buffer.count), sqliteTransient)
            }
        }
    }

    func bind(_ values: [StoreValue], startingAt first: Int32) {
        for (offset, value) in values.enumerated() { bind(value, at: first + Int32(offset)) }
    }

    // MARK: - Stepping

    /// Advances; true when a row is available.
    ///
    /// - Throws: ``StoreError`` naming SQLite's message (a unique-key violation becomes
    ///   ``StoreError/Code/uniqueConstraint``).
    func step() throws -> Bool {
        let code = sqlite3_step(handle)
        switch code {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default:
            let message = String(cString: sqlite3_errmsg(connection))
            sqlite3_reset(handle)
            if code & 0xFF == SQLITE_CONSTRAINT {
                if message.hasPrefix("UNIQUE") {
                    throw StoreError(
                        .uniqueConstraint,
                        "Could not save: \(message). Another object already has this value; use find-or-create to update it instead of inserting a duplicate."
                    )
                }
                throw StoreError(.validation, "Could not save: \(message).")
            }
            throw StoreError(.sqlite, "SQLite error \(code): \(message)")
        }
    }

    /// Runs a statement that returns no rows.
    func execute() throws {
        while try step() {}
        sqlite3_reset(handle)
    }

    /// Runs a statement that returns no rows with UTF-8 `text` bound at `index` where it is,
    /// without a copy (a long text would otherwise be copied into SQLite first); the binding
    /// is cleared before this returns.
    func execute(bindingText text: UnsafeBufferPointer<UInt8>, at index: Int32) throws {
        try execute(binding: [(text, true, index)])
    }

    /// Runs a statement that returns no rows with each text (UTF-8) or blob bound at its
    /// index where it lies, without a copy; the bindings are cleared before this returns.
    func execute(binding values: [(bytes: UnsafeBufferPointer<UInt8>, isText: Bool, index: Int32)]) throws {
        for (bytes, isText, index) in values {
            let start = UnsafeRawPointer(bytes.baseAddress ?? UnsafePointer(bitPattern: 1)!)
            if isText {
                _ = sqlite3_bind_text(handle, index, start.assumingMemoryBound(to: CChar.self), Int32(bytes.count), nil)
            } else {
                _ = sqlite3_bind_blob(handle, index, start, Int32(bytes.count), nil)
            }
        }
        defer { for value in values { sqlite3_bind_null(handle, value.index) } }
        try execute()
    }

    /// Runs a statement that returns no rows with a blob of `count` zero bytes bound at
    /// `index`, which SQLite writes without holding the zeros (when it is the row's last
    /// column); ``writeBlob(_:_:table:column:row:)`` then fills it in.
    func execute(bindingZeroBlob count: Int, at index: Int32) throws {
        sqlite3_bind_zeroblob64(handle, index, sqlite3_uint64(count))
        defer { sqlite3_bind_null(handle, index) }
        try execute()
    }

    /// Writes `bytes` over the start of the blob in `column` of row `row` of `table`,
    /// straight into its pages (no copy of the whole value is made).
    static func writeBlob(_ bytes: UnsafeBufferPointer<UInt8>, _ db: Database, table: String, column: String, row: Int64) throws {
        var blob: OpaquePointer?
        let connection = db.sqliteConnection
        guard sqlite3_blob_open(connection, "main", table, column, row, 1, &blob) == SQLITE_OK, let blob else {
            let message = String(cString: sqlite3_errmsg(connection))
            sqlite3_blob_close(blob)
            throw StoreError(.sqlite, "SQLite could not open \(table).\(column) of row \(row) to write it: \(message)")
        }
        defer { sqlite3_blob_close(blob) }
        guard let start = bytes.baseAddress, !bytes.isEmpty else { return }
        let code = sqlite3_blob_write(blob, start, Int32(bytes.count), 0)
        guard code == SQLITE_OK else {
            throw StoreError(
                .sqlite, "SQLite error \(code) writing \(table).\(column) of row \(row): \(String(cString: sqlite3_errmsg(connection)))")
        }
    }

    func reset() {
        sqlite3_reset(handle)
    }

    // MARK: - Reading

    func int64(_ column: Int32) -> Int64 {
        sqlite3_column_int64(handle, column)
    }

    func isNull(_ column: Int32) -> Bool {
        sqlite3_column_type(handle, column) == SQLITE_NULL
    }

    func value(_ column: Int32) -> StoreValue {
        switch sqlite3_column_type(handle, column) {
        case SQLITE_INTEGER:
            return .integer(sqlite3_column_int64(handle, column))
        case SQLITE_FLOAT:
            return .real(sqlite3_column_double(handle, column))
        case SQLITE_TEXT:
            guard let text = sqlite3_column_text(handle, column) else { return .text("") }
            let count = Int(sqlite3_column_bytes(handle, column))
            releasePagesOfLongValue(count)
            return .text(String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self))
        case SQLITE_BLOB:
            let count = Int(sqlite3_column_bytes(handle, column))
            guard count > 0, let bytes = sqlite3_column_blob(handle, column) else { return .blob(Data()) }
            releasePagesOfLongValue(count)
            return .blob(Data(bytes: bytes, count: count))
        default:
            return .null
        }
    }

    /// Gives back the page cache after SQLite has read a long value (see
    /// ``PersistentStore/longValueBytes``) into one piece: its pages filled the cache (up to
    /// the 64 MiB a big save wants) for nothing a later read needs, and would otherwise sit
    /// there beside the value and the copy about to be made of it.
    private func releasePagesOfLongValue(_ count: Int) {
        if count >= PersistentStore.longValueBytes, let connection { sqlite3_db_release_memory(connection) }
    }

    /// A text, or a blob read as UTF-8 text; nil for other types.
    func utf8(_ column: Int32) -> String? {
        let type = sqlite3_column_type(handle, column)
        guard type == SQLITE_TEXT || type == SQLITE_BLOB else { return nil }
        let count = Int(sqlite3_column_bytes(handle, column))
        let start = type == SQLITE_TEXT ? UnsafeRawPointer(sqlite3_column_text(handle, column)) : sqlite3_column_blob(handle, column)
        guard count > 0, let start else { return "" }
        return String(decoding: UnsafeBufferPointer(start: start.assumingMemoryBound(to: UInt8.self), count: count), as: UTF8.self)
    }

    /// The bytes of a text or blob of at least `minimum` bytes in `column`, where SQLite
    /// holds them (valid until the next step or reset), or nil (shorter values, other types).
    /// A text is returned only when it is valid UTF-8, so that its bytes are those of the
    /// `String` ``value(_:)`` would make (which repairs invalid UTF-8).
    func longValue(_ column: Int32, atLeast minimum: Int) -> (isText: Bool, bytes: UnsafeBufferPointer<UInt8>)? {
        let type = sqlite3_column_type(handle, column)
        guard type == SQLITE_TEXT || type == SQLITE_BLOB else { return nil }
        let start = type == SQLITE_TEXT ? UnsafeRawPointer(sqlite3_column_text(handle, column)) : sqlite3_column_blob(handle, column)
        let count = Int(sqlite3_column_bytes(handle, column))
        guard count >= minimum, let start else { return nil }
        releasePagesOfLongValue(count)
        let bytes = UnsafeBufferPointer(start: start.assumingMemoryBound(to: UInt8.self), count: count)
        if type == SQLITE_TEXT && !ASCIIBytes.contains(only: bytes) {
            var iterator = bytes.makeIterator()
            var decoder = Unicode.UTF8()
            decoding: while true {
                switch decoder.decode(&iterator) {
                case .scalarValue: continue
                case .emptyInput: break decoding
                case .error: return nil
                }
            }
        }
        return (type == SQLITE_TEXT, bytes)
    }

    /// The SQLite type of `column`'s value in the current row (`SQLITE_INTEGER`, …).
    func type(_ column: Int32) -> Int32 {
        sqlite3_column_type(handle, column)
    }

    /// A real value of `column`.
    func double(_ column: Int32) -> Double {
        sqlite3_column_double(handle, column)
    }

    /// Number of rows the last statement changed.
    var changes: Int {
        Int(sqlite3_changes(connection))
    }
}
