/// Version-aware ordering of version strings, as CocoaPods (and RubyGems) order them.
///
/// A version is split into segments at dots, dashes and other punctuation, and wherever
/// digits meet letters: `0.20.0pre5` is `0, 20, 0, "pre", 5`. Segments compare pairwise:
/// numbers by value (of any length), words by bytes, and a word before any number, so a
/// pre-release sorts before its release (`1.0.0-beta` before `1.0.0`). A missing segment
/// counts as `0`, so `1.0` and `1.0.0` tie; ties are broken by comparing the whole strings
/// byte by byte, which makes the order total (two different strings never compare equal).
///
/// ```swift
/// VersionOrder.compare("0.5.1", "0.10.0")  // -1
/// VersionOrder.compare("1.0.0b1", "1.0.0") // -1
/// ```
public enum VersionOrder {
    /// The SQLite collation name under which this order is registered on every connection.
    public static let collationName = "poddoc_version"

    /// Compares two version strings.
    ///
    /// - Returns: -1, 0 or 1. Zero only when the strings are byte-for-byte equal.
    public static func compare(_ lhs: String, _ rhs: String) -> Int {
        var lhs = lhs
        var rhs = rhs
        return lhs.withUTF8 { a in rhs.withUTF8 { b in compare(a, b) } }
    }

    /// Whether `lhs` orders before `rhs`.
    public static func areInIncreasingOrder(_ lhs: String, _ rhs: String) -> Bool {
        compare(lhs, rhs) < 0
    }

    // MARK: - Internals

    private enum Segment {
        case number(Range<Int>)  // digits, leading zeros stripped
        case word(Range<Int>)
        case end
    }

    static func compare(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Int {
        var ia = 0
        var ib = 0
        while true {
            let sa = nextSegment(a, &ia)
            let sb = nextSegment(b, &ib)
            switch (sa, sb) {
            case (.end, .end):
                return Collation.compareBuffers(a, b)
            case (.number(let ra), .number(let rb)):
                let c = compareNumbers(a, ra, b, rb)
                if c != 0 { return c }
            case (.word(let ra), .word(let rb)):
                let c = Collation.compareBuffers(
                    UnsafeBufferPointer(rebasing: a[ra]),
                    UnsafeBufferPointer(rebasing: b[rb]))
                if c != 0 { return c }
            case (.word, _):
                return -1  // a word (pre-release) sorts before a number or the end
            case (_, .word):
                return 1
            case (.number(let ra), .end):
                if !ra.isEmpty { return 1 }  // 1.0.1 after 1.0; 1.0.0 ties with 1.0
            case (.end, .number(let rb)):
                if !rb.isEmpty { return -1 }
            }
        }
    }

    private static func nextSegment(_ s: UnsafeBufferPointer<UInt8>, _ i: inout Int) -> Segment {
        while i < s.count, !isAlnum(s[i]) { i += 1 }
        guard i < s.count else { return .end }
        let start = i
        if isDigit(s[i]) {
            while i < s.count, isDigit(s[i]) { i += 1 }
            var first = start
            while first < i, s[first] == 48 { first += 1 }  // strip leading zeros
            return .number(first..<i)
        }
        while i < s.count, isAlnum(s[i]), !isDigit(s[i]) { i += 1 }
        return .word(start..<i)
    }

    private static func compareNumbers(
        _ a: UnsafeBufferPointer<UInt8>, _ ra: Range<Int>,
        _ b: UnsafeBufferPointer<UInt8>, _ rb: Range<Int>
    ) -> Int {
        if ra.count != rb.count { return ra.count < rb.count ? -1 : 1 }
        return Collation.compareBuffers(UnsafeBufferPointer(rebasing: a[ra]), UnsafeBufferPointer(rebasing: b[rb]))
    }

    @inline(__always) private static func isDigit(_ c: UInt8) -> Bool { c >= 48 && c <= 57 }
    // Bytes >= 0x80 (non-ASCII letters) count as word characters.
    @inline(__always) private static func isAlnum(_ c: UInt8) -> Bool {
        isDigit(c) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c >= 0x80
    }
}
