import Foundation

/// How text values compare, both in SQL (`COLLATE`) and in memory.
///
/// The two sides must agree exactly, or a context's unsaved objects would sort differently
/// from the same rows once saved. ``binary`` compares UTF-8 bytes (SQLite's `BINARY`),
/// ``caseInsensitive`` folds ASCII letters only (SQLite's `NOCASE`), ``folded`` folds case
/// the Unicode way (``TextFolding``), and ``version`` orders version strings by their
/// numeric parts (see ``VersionOrder``).
public enum Collation: String, Sendable, Hashable, CaseIterable {
    /// Byte order of the UTF-8 encoding (SQLite `BINARY`, the default).
    case binary
    /// ASCII case-insensitive order (SQLite `NOCASE`).
    case caseInsensitive
    /// Version-aware order: `0.5.1` before `0.10.0`, pre-releases before releases.
    case version
    /// Unicode case-insensitive order: both sides folded by ``TextFolding/fold(_:)``, then
    /// compared byte by byte. In SQL it is the expression `poddoc_fold(column)`, so an
    /// attribute declared with `caseInsensitiveIndex` sorts in the order of that index.
    /// Texts that fold alike compare equal: sort on the attribute again to order them.
    case folded

    /// A column or a parameter as SQL compares it under this collation: `"name"`,
    /// `"name" COLLATE NOCASE`, `poddoc_fold("name")`.
    func sql(_ operand: String) -> String {
        switch self {
        case .binary: return operand
        case .caseInsensitive: return "\(operand) COLLATE NOCASE"
        case .version: return "\(operand) COLLATE \(VersionOrder.collationName)"
        case .folded: return "\(TextFolding.sqlFunction)(\(operand))"
        }
    }

    /// Compares two strings under this collation, as SQL compares them: negative when `lhs`
    /// comes first, 0 when they are equal, positive when `rhs` comes first.
    public func compare(_ lhs: String, _ rhs: String) -> Int {
        switch self {
        case .binary:
            return Collation.compareUTF8(lhs, rhs)
        case .caseInsensitive:
            return Collation.compareASCIICaseFolded(lhs, rhs)
        case .version:
            return VersionOrder.compare(lhs, rhs)
        case .folded:
            return Collation.compareUTF8(TextFolding.fold(lhs), TextFolding.fold(rhs))
        }
    }

    // MARK: - Byte comparisons

    /// Compares two texts byte by byte, as SQLite's `BINARY` collation: -1, 0 or 1.
    package static func compareUTF8(_ lhs: String, _ rhs: String) -> Int {
        var lhs = lhs
        var rhs = rhs
        return lhs.withUTF8 { a in rhs.withUTF8 { b in compareBuffers(a, b) } }
    }

    static func compareBytes(_ lhs: Data, _ rhs: Data) -> Int {
        lhs.withUnsafeBytes { a in
            rhs.withUnsafeBytes { b in
                compareBuffers(a.assumingMemoryBound(to: UInt8.self), b.assumingMemoryBound(to: UInt8.self))
            }
        }
    }

    static func compareBuffers(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Int {
        let n = min(a.count, b.count)
        if n > 0, let pa = a.baseAddress, let pb = b.baseAddress {
            let c = memcmp(pa, pb, n)
            if c != 0 { return c < 0 ? -1 : 1 }
        }
        return a.count < b.count ? -1 : (a.count == b.count ? 0 : 1)
    }

    static func compareASCIICaseFolded(_ lhs: String, _ rhs: String) -> Int {
        var ia = lhs.utf8.makeIterator()
        var ib = rhs.utf8.makeIterator()
        while true {
            switch (ia.next(), ib.next()) {
            case (nil, nil): return 0
            case (nil, _): return -1
            case (_, nil): return 1
            case (let a?, let b?):
                let fa = asciiLower(a)
                let fb = asciiLower(b)
                if fa != fb { return fa < fb ? -1 : 1 }
            }
        }
    }

    @inline(__always)
    static func asciiLower(_ c: UInt8) -> UInt8 {
        (c >= 65 && c <= 90) ? c + 32 : c
    }
}
