internal import GRDBSQLite

// MARK: - SQL functions of one text

/// Registration of poddoc's SQL functions of one argument (`poddoc_fold`,
/// `poddoc_search_text`) through SQLite's C API, which they use for speed: SQLite hands them
/// the argument's bytes, and ASCII text is answered without making a `String`.
enum TextFunction {
    /// The C function SQLite calls: the context, the argument count, the arguments.
    typealias Body = @convention(c) (OpaquePointer?, Int32, UnsafeMutablePointer<OpaquePointer?>?) -> Void

    /// Registers `body` as `name(text)` on a connection: deterministic and innocuous, so that
    /// an index on it, or a use in a store from elsewhere, is allowed with `trusted_schema=OFF`.
    ///
    /// - Throws: ``StoreError`` (`.sqlite`) when SQLite refuses it.
    static func register(_ name: String, on connection: OpaquePointer, _ body: Body) throws {
        let flags = SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS
        let code = sqlite3_create_function_v2(connection, name, 1, flags, nil, body, nil, nil, nil)
        guard code == SQLITE_OK else {
            throw StoreError(.sqlite, "Could not register the \(name) SQL function (SQLite code \(code)).")
        }
    }

    /// Answers a call with `text` (SQLite copies it).
    static func result(_ context: OpaquePointer?, _ text: String) {
        text.utf8CString.withUnsafeBufferPointer { buffer in
            sqlite3_result_text(context, buffer.baseAddress, Int32(buffer.count - 1), sqliteTransient)
        }
    }
}
