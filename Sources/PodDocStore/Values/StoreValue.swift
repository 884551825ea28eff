import Foundation

/// A value as SQLite stores it: the storage classes NULL, INTEGER, REAL, TEXT and BLOB.
///
/// Every attribute of a managed object is held in memory as a `StoreValue`, so that a
/// context's unsaved changes compare, sort and match predicates exactly as the same rows
/// do in SQLite. Typed access goes through ``AttributeValue``.
public enum StoreValue: Sendable, Hashable {
    /// SQL NULL.
    case null
    /// A 64-bit signed integer (also used for booleans).
    case integer(Int64)
    /// A double-precision float (also used for dates, as seconds since 1970).
    case real(Double)
    /// UTF-8 text (also used for JSON).
    case text(String)
    /// Raw bytes.
    case blob(Data)

    /// The length of a text (UTF-8) or blob in bytes; 0 for other values.
    var byteCount: Int {
        switch self {
        case .text(let text): text.utf8.count
        case .blob(let data): data.count
        default: 0
        }
    }

    /// Whether this is a text or blob long enough to be handled apart (bound where it lies,
    /// its pages given back after reading it): ``PersistentStore/longValueBytes`` or more.
    var isLong: Bool { byteCount >= PersistentStore.longValueBytes }

    /// Whether this value is SQL NULL.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }
}

// MARK: - Hashable

extension StoreValue {
    /// Text compares byte by byte, as SQLite's `BINARY` does (Swift's `String ==` would call
    /// the NFC and NFD spellings of "é" equal, which SQLite does not).
    public static func == (lhs: StoreValue, rhs: StoreValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case (.integer(let a), .integer(let b)): return a == b
        case (.real(let a), .real(let b)): return a == b
        case (.text(let a), .text(let b)): return Collation.compareUTF8(a, b) == 0
        case (.blob(let a), .blob(let b)): return a == b
        default: return false
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch self {
        case .null:
            hasher.combine(0 as UInt8)
        case .integer(let v):
            hasher.combine(1 as UInt8)
            hasher.combine(v)
        case .real(let v):
            hasher.combine(2 as UInt8)
            hasher.combine(v)
        case .text(var s):
            hasher.combine(3 as UInt8)
            s.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
        case .blob(let d):
            hasher.combine(4 as UInt8)
            hasher.combine(d)
        }
    }
}

// MARK: - Ordering

extension StoreValue {
    /// The rank SQLite gives a storage class when it sorts mixed values:
    /// NULL, then numbers, then text, then blobs.
    var storageRank: Int {
        switch self {
        case .null: return 0
        case .integer, .real: return 1
        case .text: return 2
        case .blob: return 3
        }
    }

    /// Compares two values the way SQLite's `ORDER BY` does under the given collation.
    ///
    /// - Returns: a negative number, zero, or a positive number.
    static func compare(_ lhs: StoreValue, _ rhs: StoreValue, collation: Collation) -> Int {
        switch (lhs, rhs) {
        case (.null, .null):
            return 0
        case (.integer(let a), .integer(let b)):
            return a < b ? -1 : (a == b ? 0 : 1)
        case (.real(let a), .real(let b)):
            return a < b ? -1 : (a == b ? 0 : 1)
        case (.integer(let a), .real(let b)):
            let a = Double(a)
            return a < b ? -1 : (a == b ? 0 : 1)
        case (.real(let a), .integer(let b)):
            let b = Double(b)
            return a < b ? -1 : (a == b ? 0 : 1)
        case (.text(let a), .text(let b)):
            return collation.compare(a, b)
        case (.blob(let a), .blob(let b)):
            return Collation.compareBytes(a, b)
        default:
            return lhs.storageRank - rhs.storageRank
        }
    }

    /// Equality as SQL's `=` sees it: numbers compare by value, NULL equals nothing.
    static func sqlEquals(_ lhs: StoreValue, _ rhs: StoreValue, collation: Collation = .binary) -> Bool {
        if lhs.isNull || rhs.isNull { return false }
        if lhs.storageRank != rhs.storageRank { return false }
        return compare(lhs, rhs, collation: collation) == 0
    }
}

// MARK: - CustomStringConvertible

extension StoreValue: CustomStringConvertible {
    public var description: String {
        switch self {
        case .null: return "NULL"
        case .integer(let v): return String(v)
        case .real(let v): return String(v)
        case .text(let v): return String(reflecting: v)
        case .blob(let v): return "<\(v.count) bytes>"
        }
    }
}
