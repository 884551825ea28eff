import Glibc

// MARK: - JSONScanner

/// A strict, allocation-light reader of RFC 8259 JSON over UTF-8 bytes, for untrusted input:
/// no comments, no unescaped control characters, nothing after a number or a literal that
/// would run into it.
///
/// It serves two kinds of reader:
/// - a reader that walks the structure and asks for values (the pod spec parser) uses
///   ``forEachMember(depth:_:)``, ``forEachElement(depth:_:)``, ``parseValue(depth:)`` and
///   ``skipValue(depth:)``, which validate without building what they skip; nesting is capped
///   at ``maxDepth``, so hostile input gets an error, never a stack overflow;
/// - a reader that keeps its own stack (the outline JSON reader, which takes any depth) pulls
///   tokens with ``nextToken()``.
///
/// The bytes must be valid UTF-8 (check them first) and must outlive the scanner.
public struct JSONScanner {
    /// What went wrong, and where (a byte offset into the input).
    public struct SyntaxError: Error, Sendable {
        /// Where: the start of the token or escape at fault, or the offending byte.
        public let offset: Int
        /// Why, as a phrase: `the string is never closed (cut short?)`.
        public let reason: String
    }

    /// What a `\u` escape of half a surrogate pair (with no other half) becomes.
    public enum LoneSurrogates: Sendable {
        /// U+FFFD, as most JSON readers do (specs found in the wild hold such strings).
        case replace
        /// A syntax error: text that cannot round-trip is refused.
        case reject
    }

    /// The deepest nesting the structure walks accept, by default.
    public static let defaultMaxDepth = 200

    /// The text.
    public let bytes: UnsafeBufferPointer<UInt8>
    /// The offset of the next byte to read.
    public private(set) var index = 0
    /// The deepest nesting ``forEachMember(depth:_:)`` and ``forEachElement(depth:_:)`` accept.
    public let maxDepth: Int
    /// What a lone surrogate escape becomes.
    public let loneSurrogates: LoneSurrogates

    /// A scanner at the start of `bytes` (valid UTF-8).
    public init(_ bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int = JSONScanner.defaultMaxDepth, loneSurrogates: LoneSurrogates = .replace)
    {
        self.bytes = bytes
        self.maxDepth = maxDepth
        self.loneSurrogates = loneSurrogates
    }

    // MARK: - Structure

    /// Skips spaces, tabs, line feeds and carriage returns.
    @inline(__always)
    public mutating func skipSpace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    /// The next significant byte, without consuming it (nil at the end).
    @inline(__always)
    public mutating func peek() -> UInt8? {
        skipSpace()
        return index < bytes.count ? bytes[index] : nil
    }

    /// Whether only white space is left.
    public mutating func isAtEnd() -> Bool { peek() == nil }

    /// Consumes `byte` (after white space) or throws naming what was expected.
    public mutating func expect(_ byte: UInt8, _ what: String) throws(SyntaxError) {
        guard peek() == byte else { throw error("expected \(what)") }
        index += 1
    }

    /// Reads an object's members, calling `body` with each key; `body` must read or skip the
    /// value. The scanner must be at the opening brace.
    public mutating func forEachMember(depth: Int = 0, _ body: (String, inout JSONScanner) throws -> Void) throws {
        guard depth < maxDepth else { throw error("nesting deeper than \(maxDepth) levels") }
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
            case UInt8(ascii: "}"):
                index += 1
                return
            default: throw error("expected ',' or '}' in an object")
            }
        }
    }

    /// Reads an array's elements, calling `body` for each; `body` must read or skip the
    /// element. The scanner must be at the opening bracket.
    public mutating func forEachElement(depth: Int = 0, _ body: (inout JSONScanner) throws -> Void) throws {
        guard depth < maxDepth else { throw error("nesting deeper than \(maxDepth) levels") }
        try expect(UInt8(ascii: "["), "'['")
        if peek() == UInt8(ascii: "]") {
            index += 1
            return
        }
        while true {
            try body(&self)
            switch peek() {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "]"):
                index += 1
                return
            default: throw error("expected ',' or ']' in an array")
            }
        }
    }

    // MARK: - Values

    /// Parses the next value into a ``JSONValue``.
    public mutating func parseValue(depth: Int = 0) throws -> JSONValue {
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
    public mutating func skipValue(depth: Int = 0) throws {
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
    public mutating func consumeNull() throws(SyntaxError) -> Bool {
        guard peek() == UInt8(ascii: "n") else { return false }
        try literal("null")
        return true
    }

    // MARK: - Tokens

    /// The next token, for readers that keep their own stack of open containers.
    public mutating func nextToken() throws(SyntaxError) -> JSONToken {
        guard let byte = peek() else { return JSONToken(kind: .endOfInput, offset: index) }
        let start = index
        if let punctuation = Self.punctuation(byte) {
            index += 1
            return JSONToken(kind: punctuation, offset: start)
        }
        let kind: JSONToken.Kind
        switch byte {
        case UInt8(ascii: "\""): kind = .string(try parseString())
        case UInt8(ascii: "t"):
            try literal("true")
            kind = .boolean
        case UInt8(ascii: "f"):
            try literal("false")
            kind = .boolean
        case UInt8(ascii: "n"):
            try literal("null")
            kind = .null
        default:
            _ = try numberRange()
            kind = .number
        }
        return JSONToken(kind: kind, offset: start)
    }

    /// The token a one-byte structural character is, or nil.
    private static func punctuation(_ byte: UInt8) -> JSONToken.Kind? {
        switch byte {
        case UInt8(ascii: "{"): .beginObject
        case UInt8(ascii: "}"): .endObject
        case UInt8(ascii: "["): .beginArray
        case UInt8(ascii: "]"): .endArray
        case UInt8(ascii: ":"): .colon
        case UInt8(ascii: ","): .comma
        default: nil
        }
    }

    // MARK: - Strings

    /// Parses a string, decoding escapes.
    public mutating func parseString() throws(SyntaxError) -> String {
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
            if byte < 0x20 { throw controlCharacter(byte) }
            index += 1
        }
        throw SyntaxError(offset: start - 1, reason: "the string is never closed (cut short?)")
    }

    /// Skips a string, checking its escapes.
    public mutating func skipString() throws(SyntaxError) {
        try expect(UInt8(ascii: "\""), "'\"'")
        let start = index - 1
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                return
            case UInt8(ascii: "\\"):
                _ = try escape()
            case ..<0x20:
                throw controlCharacter(byte)
            default:
                index += 1
            }
        }
        throw SyntaxError(offset: start, reason: "the string is never closed (cut short?)")
    }

    private mutating func parseEscapedString(from start: Int) throws(SyntaxError) -> String {
        var utf8 = Array(UnsafeBufferPointer(rebasing: bytes[start..<index]))
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                return String(decoding: utf8, as: UTF8.self)
            case UInt8(ascii: "\\"):
                utf8.append(contentsOf: UTF8.encode(try escape())!)
            case ..<0x20:
                throw controlCharacter(byte)
            default:
                utf8.append(byte)
                index += 1
            }
        }
        throw SyntaxError(offset: start - 1, reason: "the string is never closed (cut short?)")
    }

    /// Reads the escape at the backslash under the scanner.
    private mutating func escape() throws(SyntaxError) -> Unicode.Scalar {
        let start = index
        index += 1
        guard index < bytes.count else { throw SyntaxError(offset: start, reason: "the string ends inside an escape (cut short?)") }
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
            let unit = try hex4(escapeStart: start)
            if (0xD800..<0xDC00).contains(unit) {
                if index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") {
                    let lowStart = index
                    index += 2
                    let low = try hex4(escapeStart: lowStart)
                    if (0xDC00..<0xE000).contains(low) {
                        return Unicode.Scalar(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00))!
                    }
                    guard loneSurrogates == .replace else {
                        throw SyntaxError(offset: lowStart, reason: "expected a low surrogate \\u escape")
                    }
                    index = lowStart
                }
                guard loneSurrogates == .replace else {
                    throw SyntaxError(offset: start, reason: "a high surrogate \\u escape must be followed by a low surrogate")
                }
                return "\u{FFFD}"
            }
            if let scalar = Unicode.Scalar(unit) { return scalar }
            guard loneSurrogates == .replace else {
                throw SyntaxError(offset: start, reason: "a lone low surrogate \\u escape is not a character")
            }
            return "\u{FFFD}"
        default:
            throw SyntaxError(offset: start, reason: "'\\\(Character(Unicode.Scalar(byte)))' is not a JSON escape")
        }
    }

    private mutating func hex4(escapeStart: Int) throws(SyntaxError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard index < bytes.count else {
                throw SyntaxError(offset: escapeStart, reason: "\\u must be followed by four hexadecimal digits (cut short?)")
            }
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw SyntaxError(offset: escapeStart, reason: "\\u must be followed by four hexadecimal digits")
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }

    private func controlCharacter(_ byte: UInt8) -> SyntaxError {
        let hex = String(byte, radix: 16, uppercase: true)
        return SyntaxError(offset: index, reason: "control character 0x\(hex.count == 1 ? "0" : "")\(hex) must be escaped in a string")
    }

    // MARK: - Numbers and literals

    /// The byte range of a number literal (JSON's grammar, strictly).
    private mutating func numberRange() throws(SyntaxError) -> Range<Int> {
        let start = index
        if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
        if index < bytes.count, bytes[index] == UInt8(ascii: "0") {
            index += 1
        } else if digits() == 0 {
            index = start
            throw SyntaxError(
                offset: start,
                reason: start < bytes.count && bytes[start] != UInt8(ascii: "-")
                    ? "unexpected character '\(sample(at: start))'" : "a number needs digits")
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard digits() > 0 else { throw SyntaxError(offset: start, reason: "a number needs digits after '.'") }
        }
        if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard digits() > 0 else { throw SyntaxError(offset: start, reason: "a number needs digits in its exponent") }
        }
        if index < bytes.count, isWordByte(bytes[index]) {
            throw SyntaxError(offset: start, reason: "malformed number '\(sample(at: start))'")
        }
        return start..<index
    }

    private mutating func digits() -> Int {
        let start = index
        while index < bytes.count, bytes[index] &- UInt8(ascii: "0") < 10 { index += 1 }
        return index - start
    }

    private mutating func literal(_ word: StaticString) throws(SyntaxError) {
        let count = word.utf8CodeUnitCount
        guard index + count <= bytes.count, memcmp(bytes.baseAddress! + index, word.utf8Start, count) == 0,
            index + count == bytes.count || !isWordByte(bytes[index + count])
        else {
            throw error("unexpected '\(sample(at: index))'")
        }
        index += count
    }

    /// A letter, digit, `.`, `+` or `-`: a byte that would run into a number or a literal.
    private func isWordByte(_ byte: UInt8) -> Bool {
        (byte | 0x20) &- UInt8(ascii: "a") < 26 || byte &- UInt8(ascii: "0") < 10
            || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-")
    }

    /// The word at `offset` (at most 12 bytes), for messages.
    private func sample(at offset: Int) -> String {
        guard offset < bytes.count else { return "" }
        var end = offset + 1
        if isWordByte(bytes[offset]) {
            while end < bytes.count, end - offset < 12, isWordByte(bytes[end]) { end += 1 }
        } else {
            // One character, whole (a UTF-8 sequence's continuation bytes are 0b10xxxxxx).
            while end < bytes.count, bytes[end] & 0xC0 == 0x80 { end += 1 }
        }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[offset..<end]), as: UTF8.self)
    }

    // MARK: - Errors

    /// A syntax error at the scanner's position.
    public func error(_ reason: String) -> SyntaxError {
        SyntaxError(offset: index, reason: reason)
    }
}
