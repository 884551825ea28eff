import Foundation
internal import GRDB
internal import GRDBSQLite

// MARK: - Unicode case folding

/// How case-insensitive text matching compares: Unicode full case folding (`Straße` and
/// `STRASSE`, `Über` and `über`, `Σ`, `σ` and `ς`, `Серафими` and `серафими` match), on text in
/// Normalization Form C (a composed `é` and `e` with a combining accent match).
///
/// The same function runs in SQL (`poddoc_fold(text)`, registered on every connection of a
/// store) and in memory, so an unsaved object matches a predicate exactly as its saved row
/// does. Attributes declared with `caseInsensitiveIndex` get an index on `poddoc_fold(column)`,
/// so a case-insensitive prefix listing reads a range of that index.
///
/// Folding follows Unicode's `CaseFolding.txt` without the Turkic special cases: `İ` folds
/// to `i` followed by U+0307 and `ı` stays itself, as in every language but Turkish and
/// Azerbaijani.
public enum TextFolding {
    /// The SQL function's name, for queries written by hand (`ORDER BY poddoc_fold(name)`).
    public static let sqlFunction = "poddoc_fold"

    /// `text` case-folded and in Normalization Form C.
    public static func fold(_ text: String) -> String {
        if text.utf8.allSatisfy({ $0 < 0x80 }) {
            // The common case, without Foundation: ASCII letters lowered.
            return String(decoding: text.utf8.map(Collation.asciiLower), as: UTF8.self)
        }
        return text.folding(options: [.caseInsensitive], locale: nil).precomposedStringWithCanonicalMapping
    }

    /// The smallest string greater than every string starting with `prefix`, in SQLite's
    /// binary order: the upper end of a prefix's range of an index.
    static func upperBound(ofPrefix prefix: String) -> String {
        prefix + "\u{10FFFF}"
    }

    /// Registers `poddoc_fold` on a connection (every store connection, and a benchmark's
    /// floor maintaining the same index): deterministic and innocuous, so an index on it is
    /// allowed with `trusted_schema=OFF`.
    public static func register(onConnection connection: OpaquePointer) throws {
        try TextFunction.register(sqlFunction, on: connection) { context, count, values in
            guard count == 1, let value = values?[0] else { return }
            switch sqlite3_value_type(value) {
            case SQLITE_NULL:
                sqlite3_result_null(context)
            default:
                guard let bytes = sqlite3_value_text(value) else {
                    sqlite3_result_null(context)
                    return
                }
                let text = UnsafeBufferPointer(start: bytes, count: Int(sqlite3_value_bytes(value)))
                if text.allSatisfy({ $0 < 0x80 }) {
                    // ASCII (most names): lowered straight into SQLite's result, no String made.
                    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: max(text.count, 1)) { buffer in
                        for (index, byte) in text.enumerated() { buffer[index] = Collation.asciiLower(byte) }
                        sqlite3_result_text(
                            context, UnsafeRawPointer(buffer.baseAddress!).assumingMemoryBound(to: CChar.self),
                            Int32(text.count), sqliteTransient)
                    }
                    return
                }
                TextFunction.result(context, TextFolding.fold(String(decoding: text, as: UTF8.self)))
            }
        }
    }
}
