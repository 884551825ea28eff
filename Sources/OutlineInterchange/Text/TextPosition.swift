// MARK: - TextPosition

/// A 1-based line and column in UTF-8 text, columns counted in Unicode scalars.
///
/// Readers remember byte offsets only; the line and column are worked out once, when an error
/// is reported, so the hot loops carry no position bookkeeping.
struct TextPosition: Equatable {
    var line: Int
    var column: Int

    /// The position of byte `offset` in `bytes`. LF, CR and CRLF each end a line.
    static func locate(offset: Int, in bytes: [UInt8]) -> TextPosition {
        var position = TextPosition(line: 1, column: 1)
        var previous: UInt8 = 0
        for byte in bytes[..<min(offset, bytes.count)] {
            switch byte {
            case ASCII.lineFeed where previous == ASCII.carriageReturn:
                break
            case ASCII.lineFeed, ASCII.carriageReturn:
                position.line += 1
                position.column = 1
            default:
                if byte & 0xC0 != 0x80 { position.column += 1 }
            }
            previous = byte
        }
        return position
    }
}

// MARK: - Errors at a place

extension OutlineFormatError {
    /// An error located at byte `offset` of the UTF-8 text `bytes`.
    static func at(
        _ offset: Int,
        in bytes: [UInt8],
        _ code: Code,
        _ format: OutlineFormat,
        _ message: String
    ) -> OutlineFormatError {
        let position = TextPosition.locate(offset: offset, in: bytes)
        return OutlineFormatError(
            code: code, format: format, line: position.line, column: position.column, message: message)
    }
}
