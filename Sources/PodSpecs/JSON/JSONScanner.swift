import Foundation

/// A strict, allocation-light JSON reader over UTF-8 bytes, for untrusted input.
///
/// It parses the values the caller asks for and validates (without building) the ones it
/// skips, so a page of specs is read once, its spec objects' exact byte ranges are known (for
/// keeping each spec verbatim), and only the fields poddoc normalises become Swift values.
/// Nesting is capped at ``maxDepth``: hostile input gets an error, never a stack overflow.
struct JSONScanner {
    /// What went wrong, and where (a byte offset into the input).
    struct SyntaxError: Error {
        let offset: Int
        let reason: String
    }

    /// The deepest nesting accepted.
    static let maxDepth = 200

    let bytes: UnsafeBufferPointer<UInt8>
    private(set) var index = 0

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    // MARK: - Structure

    /// Skips spaces, tabs, line feeds and carriage returns.
    @inline(__always)
    mutating func skipSpace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    /// The next significant byte, without consuming it (nil at the end).
    @inline(__always)
    mutating func peek() -> UInt8? {
        skipSpace()
        return index < bytes.count ? bytes[index] : nil
    }

    /// Whether only white space is left.
    mutating func isAtEnd() -> Bool { peek() == nil }

    /// Consumes `byte` (after white space) or throws naming what was expected.
    mutating func expect(_ byte: UInt8, _ what: String) throws {
        guard peek() == byte else { throw error("expected \(what)") }
        index += 1
    }

    /// Reads an object's members, calling `body` with each key; `body` must read or skip the
    /// value. The scanner must be at the opening brace.
    mutating func forEachMember(depth: Int = 0, _ body: (String, inout JSONScanner) throws -> Void) throws {
        guard depth < JSONScanner.maxDepth else { throw error("nesting deeper than \(JSONScanner.maxDepth) levels") }
        try expect(UInt8(ascii: "{"), "'{'")
        if peek() == UInt8(ascii: "}") {
            index += 1
            return
        }
        while true {
            guard peek() == UInt8(ascii: "\"") else { throw error("expected a member name in quotes") }
            let key = try parseString()
            try expect(UInt8(ascii: ":"), "':' after a member name")
            try body(key, &self)
            switch peek() {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "}"): index += 1; return
            default: throw error("expected ',' or '}' in an object")
            }
        }
    }

    /// Reads an array's elements, calling `body` for each; `body` must read or skip the
    /// element. The scanner must be at the opening bracket.
    mutating func forEachElement(depth: Int = 0, _ body: (inout JSONScanner) throws -> Void) throws {
        guard depth < JSONScanner.maxDepth else { throw error("nesting deeper than \(JSONScanner.maxDepth) levels") }
        try expect(UInt8(ascii: "["), "'['")
        if peek() == UInt8(ascii: "]") {
            index += 1
            return
        }
        while true {
            try body(&self)
            switch peek() {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "]"): index += 1; return
            default: throw error("expected ',' or ']' in an array")
            }
        }
    }

    // MARK: - Values

    /// Parses the next value into a ``JSONValue``.
    mutating func parseValue(depth: Int = 0) throws -> JSONValue {
        switch peek() {
        case UInt8(ascii: "\"")?:
            return .string(try parseString())
        case UInt8(ascii: "{")?:
            var members: [(key: String, value: JSONValue)] = []
            try forEachMember(depth: depth) { key, scanner in
                members.append((key, try scanner.parseValue(depth: depth + 1)))
            }
            return .object(members)
        case UInt8(ascii: "[")?:
            var elements: [JSONValue] = []
            try forEachElement(depth: depth) { scanner in
                elements.append(try scanner.parseValue(depth: depth + 1))
            }
            return .array(elements)
        case UInt8(ascii: "t")?:
            try literal("true")
            return .bool(true)
        case UInt8(ascii: "f")?:
            try literal("false")
            return .bool(false)
        case UInt8(ascii: "n")?:
            try literal("null")
            return .null
        case nil:
            throw error("the text ends where a value was expected (cut short?)")
        default:
            let range = try numberRange()
            return .number(String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self))
        }
    }

    /// Checks the next value's syntax without building it.
    mutating func skipValue(depth: Int = 0) throws {
        switch peek() {
        case UInt8(ascii: "\"")?:
            try skipString()
        case UInt8(ascii: "{")?:
            try forEachMember(depth: depth) { _, scanner in try scanner.skipValue(depth: depth + 1) }
        case UInt8(ascii: "[")?:
            try forEachElement(depth: depth) { scanner in try scanner.skipValue(depth: depth + 1) }
        case UInt8(ascii: "t")?:
            try literal("true")
        case UInt8(ascii: "f")?:
            try literal("false")
        case UInt8(ascii: "n")?:
            try literal("null")
        case nil:
            throw error("the text ends where a value was expected (cut short?)")
        default:
            _ = try numberRange()
        }
    }

    /// Whether the next value is `null` (consumed if so).
    mutating func consumeNull() throws -> Bool {
        guard peek() == UInt8(ascii: "n") else { return false }
        try literal("null")
        return true
    }

    // MARK: - Strings

    /// Parses a string, decoding escapes.
    mutating func parseString() throws -> String {
        try expect(UInt8(ascii: "\""), "'\"'")
        let start = index
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
                index += 1
                return text
            }
            if byte == UInt8(ascii: "\\") { return try parseEscapedString(from: start) }
            if byte < 0x20 { throw error("a control character inside a string") }
            index += 1
        }
        throw error("a string is not closed (cut short?)")
    }

    /// Skips a string, checking its escapes.
    mutating func skipString() throws {
        try expect(UInt8(ascii: "\""), "'\"'")
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\""): return
            case UInt8(ascii: "\\"): _ = try escape()
            case ..<0x20:
                index -= 1
                throw error("a control character inside a string")
            default: break
            }
        }
        throw error("a string is not closed (cut short?)")
    }

    private mutating func parseEscapedString(from start: Int) throws -> String {
        var utf8 = Array(UnsafeBufferPointer(rebasing: bytes[start..<index]))
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                return String(decoding: utf8, as: UTF8.self)
            case UInt8(ascii: "\\"):
                let scalar = try escape()
                utf8.append(contentsOf: UTF8.encode(scalar)!)
            case ..<0x20:
                index -= 1
                throw error("a control character inside a string")
            default:
                utf8.append(byte)
            }
        }
        throw error("a string is not closed (cut short?)")
    }

    /// Reads the escape after a backslash. A lone surrogate becomes U+FFFD.
    private mutating func escape() throws -> Unicode.Scalar {
        guard index < bytes.count else { throw error("a string is not closed (cut short?)") }
        let byte = bytes[index]
        index += 1
        switch byte {
        case UInt8(ascii: "\""): return "\""
        case UInt8(ascii: "\\"): return "\\"
        case UInt8(ascii: "/"): return "/"
        case UInt8(ascii: "b"): return "\u{08}"
        case UInt8(ascii: "f"): return "\u{0C}"
        case UInt8(ascii: "n"): return "\n"
        case UInt8(ascii: "r"): return "\r"
        case UInt8(ascii: "t"): return "\t"
        case UInt8(ascii: "u"):
            let unit = try hex4()
            if (0xD800..<0xDC00).contains(unit), index + 1 < bytes.count,
               bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") {
                let mark = index
                index += 2
                let low = try hex4()
                if (0xDC00..<0xE000).contains(low) {
                    return Unicode.Scalar(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00))!
                }
                index = mark
            }
            return Unicode.Scalar(unit) ?? "\u{FFFD}"
        default:
            index -= 1
            throw error("an unknown escape '\\\(Character(Unicode.Scalar(byte)))' in a string")
        }
    }

    private mutating func hex4() throws -> UInt32 {
        guard index + 4 <= bytes.count else { throw error("a \\u escape is cut short") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw error("a \\u escape with a non-hexadecimal digit")
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }

    // MARK: - Numbers and literals

    /// The byte range of a number literal (JSON's grammar, strictly).
    private mutating func numberRange() throws -> Range<Int> {
        let start = index
        if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
        if index < bytes.count, bytes[index] == UInt8(ascii: "0") {
            index += 1
            if digits() > 0 { throw error("a number with a leading zero") }
        } else if digits() == 0 {
            index = start
            throw error("an unexpected character where a value was expected")
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard digits() > 0 else { throw error("a number with no digit after its decimal point") }
        }
        if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard digits() > 0 else { throw error("a number with no digit in its exponent") }
        }
        return start..<index
    }

    private mutating func digits() -> Int {
        let start = index
        while index < bytes.count, bytes[index] &- UInt8(ascii: "0") < 10 { index += 1 }
        return index - start
    }

    private mutating func literal(_ word: StaticString) throws {
        let count = word.utf8CodeUnitCount
        guard index + count <= bytes.count,
              memcmp(bytes.baseAddress! + index, word.utf8Start, count) == 0 else {
            throw error("an unexpected word where a value was expected")
        }
        index += count
    }

    // MARK: - Errors

    func error(_ reason: String) -> SyntaxError {
        SyntaxError(offset: index, reason: reason)
    }
}

