// MARK: - JSONTokenizer

/// Splits RFC 8259 JSON text (UTF-8, already validated) into tokens, strictly: no comments,
/// no trailing garbage inside tokens, no unescaped control characters, no lone surrogates.
/// It keeps no nesting state, so depth never costs stack.
struct JSONTokenizer {
    let bytes: [UInt8]
    private var index = 0

    init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// The next token.
    mutating func next() throws(OutlineFormatError) -> JSONToken {
        while index < bytes.count, bytes[index] == ASCII.space || bytes[index] == ASCII.tab
            || bytes[index] == ASCII.lineFeed || bytes[index] == ASCII.carriageReturn {
            index += 1
        }
        let start = index
        guard index < bytes.count else { return JSONToken(kind: .endOfInput, offset: start) }
        let kind: JSONToken.Kind
        switch bytes[index] {
        case ASCII.leftBrace: kind = .beginObject; index += 1
        case ASCII.rightBrace: kind = .endObject; index += 1
        case ASCII.leftBracket: kind = .beginArray; index += 1
        case ASCII.rightBracket: kind = .endArray; index += 1
        case ASCII.colon: kind = .colon; index += 1
        case ASCII.comma: kind = .comma; index += 1
        case ASCII.quote: kind = .string(try readString())
        case ASCII.hyphen, ASCII.zero...ASCII.nine: try readNumber(); kind = .number
        case 0x74: try readLiteral("true"); kind = .boolean
        case 0x66: try readLiteral("false"); kind = .boolean
        case 0x6E: try readLiteral("null"); kind = .null
        default: throw error(at: start, "unexpected character '\(sample(at: start))'")
        }
        return JSONToken(kind: kind, offset: start)
    }

    /// A syntax error at byte `offset`.
    func error(at offset: Int, _ message: String) -> OutlineFormatError {
        .at(offset, in: bytes, .notWellFormed, .json, message)
    }

    // MARK: - Strings

    private mutating func readString() throws(OutlineFormatError) -> String {
        let start = index
        index += 1
        // Most strings have no escapes: find the end in one pass and decode the slice.
        let plainEnd = ByteSearch.firstIndex(in: bytes, index..<bytes.count) {
            $0 == ASCII.quote || $0 == ASCII.backslash || $0 < ASCII.space
        }
        if plainEnd < bytes.count && bytes[plainEnd] == ASCII.quote {
            defer { index = plainEnd + 1 }
            return String(decoding: bytes[index..<plainEnd], as: UTF8.self)
        }
        var value: [UInt8] = []
        var runStart = index
        while true {
            guard index < bytes.count else { throw error(at: start, "the string is never closed with '\"'") }
            let byte = bytes[index]
            switch byte {
            case ASCII.quote:
                value.append(contentsOf: bytes[runStart..<index])
                index += 1
                return String(decoding: value, as: UTF8.self)
            case ASCII.backslash:
                value.append(contentsOf: bytes[runStart..<index])
                try readEscape(into: &value)
                runStart = index
            case ..<ASCII.space:
                throw error(at: index, "control character \(ASCII.hex(byte)) must be escaped in a string")
            default:
                index += 1
            }
        }
    }

    /// Reads `\x` or `\uXXXX` (with a following low surrogate when needed).
    private mutating func readEscape(into value: inout [UInt8]) throws(OutlineFormatError) {
        let start = index
        index += 1
        guard index < bytes.count else { throw error(at: start, "the string ends inside an escape") }
        let escaped = bytes[index]
        index += 1
        switch escaped {
        case ASCII.quote, ASCII.backslash, ASCII.slash: value.append(escaped)
        case 0x62: value.append(0x08)
        case 0x66: value.append(0x0C)
        case 0x6E: value.append(ASCII.lineFeed)
        case 0x72: value.append(ASCII.carriageReturn)
        case 0x74: value.append(ASCII.tab)
        case 0x75:
            var unit = try readHexUnit(escapeStart: start)
            if (0xD800...0xDBFF).contains(unit) {
                guard bytes[index...].starts(with: [ASCII.backslash, 0x75]) else {
                    throw error(at: start, "a high surrogate \\u escape must be followed by a low surrogate")
                }
                let lowStart = index
                index += 2
                let low = try readHexUnit(escapeStart: lowStart)
                guard (0xDC00...0xDFFF).contains(low) else {
                    throw error(at: lowStart, "expected a low surrogate \\u escape")
                }
                unit = 0x10000 + ((unit - 0xD800) << 10 | (low - 0xDC00))
            }
            guard let scalar = Unicode.Scalar(unit) else {
                throw error(at: start, "a lone low surrogate \\u escape is not a character")
            }
            UTF8Scalars.append(scalar, to: &value)
        default:
            throw error(at: start, "'\\\(Character(Unicode.Scalar(escaped)))' is not a JSON escape")
        }
    }

    private mutating func readHexUnit(escapeStart: Int) throws(OutlineFormatError) -> UInt32 {
        var unit: UInt32 = 0
        for _ in 0..<4 {
            guard index < bytes.count, let digit = ASCII.hexValue(bytes[index]) else {
                throw error(at: escapeStart, "\\u must be followed by four hexadecimal digits")
            }
            unit = unit << 4 | digit
            index += 1
        }
        return unit
    }

    // MARK: - Numbers and literals

    /// Checks `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`.
    private mutating func readNumber() throws(OutlineFormatError) {
        let start = index
        if bytes[index] == ASCII.hyphen { index += 1 }
        if index < bytes.count, bytes[index] == ASCII.zero {
            index += 1
        } else if skipDigits() == 0 {
            throw error(at: start, "a number needs digits")
        }
        if index < bytes.count, bytes[index] == ASCII.period {
            index += 1
            guard skipDigits() > 0 else { throw error(at: start, "a number needs digits after '.'") }
        }
        if index < bytes.count, bytes[index] | 0x20 == 0x65 {
            index += 1
            if index < bytes.count, bytes[index] == ASCII.plus || bytes[index] == ASCII.hyphen { index += 1 }
            guard skipDigits() > 0 else { throw error(at: start, "a number needs digits in its exponent") }
        }
        if index < bytes.count, ASCII.isDigit(bytes[index]) || ASCII.isLetter(bytes[index]) {
            throw error(at: start, "malformed number")
        }
    }

    private mutating func skipDigits() -> Int {
        let start = index
        while index < bytes.count, ASCII.isDigit(bytes[index]) { index += 1 }
        return index - start
    }

    private mutating func readLiteral(_ literal: String) throws(OutlineFormatError) {
        let start = index
        guard bytes[index...].starts(with: literal.utf8) else {
            throw error(at: start, "unexpected '\(sample(at: start))'")
        }
        index += literal.utf8.count
        if index < bytes.count, ASCII.isLetter(bytes[index]) || ASCII.isDigit(bytes[index]) {
            throw error(at: start, "unexpected '\(sample(at: start))'")
        }
    }

    /// The word at `offset`, for messages.
    private func sample(at offset: Int) -> String {
        let end = bytes[offset...].prefix(12).firstIndex { !(ASCII.isLetter($0) || ASCII.isDigit($0)) } ?? min(offset + 12, bytes.count)
        return String(decoding: bytes[offset..<max(end, offset + 1)], as: UTF8.self)
    }
}
