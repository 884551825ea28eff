// MARK: - TextLine

/// One line of a line-based format (Markdown, indented text), split into its leading
/// indentation (spaces and tabs) and its content.
struct TextLine {
    /// The 1-based line number.
    var number: Int
    /// The leading spaces and tabs.
    var indentation: ArraySlice<UInt8>
    /// Everything after the indentation, without the line break.
    var content: ArraySlice<UInt8>

    /// Whether the line holds nothing but white space.
    var isBlank: Bool { content.isEmpty }

    /// The 1-based column (in Unicode scalars) of byte `offset` of this line.
    func column(at offset: Int) -> Int {
        guard offset > content.startIndex else { return 1 + offset - indentation.startIndex }
        let scalars = content[..<min(offset, content.endIndex)].reduce(0) { $0 + ($1 & 0xC0 == 0x80 ? 0 : 1) }
        return 1 + indentation.count + scalars
    }

    /// An error at byte `offset` of this line.
    func error(
        at offset: Int, _ code: OutlineFormatError.Code, _ format: OutlineFormat, _ message: String
    ) -> OutlineFormatError {
        OutlineFormatError(code: code, format: format, line: number, column: column(at: offset), message: message)
    }

    /// Splits UTF-8 text into lines at LF, CRLF and CR.
    static func split(_ bytes: [UInt8]) -> [TextLine] {
        var lines: [TextLine] = []
        var start = 0
        var nextCarriageReturn = ByteSearch.firstIndex(of: ASCII.carriageReturn, in: bytes, 0..<bytes.count)
        while start < bytes.count {
            var end = ByteSearch.firstIndex(of: ASCII.lineFeed, in: bytes, start..<bytes.count) ?? bytes.count
            var next = end + 1
            if let carriageReturn = nextCarriageReturn, carriageReturn < end {
                // CRLF counts as one break; a CR at the very end (no LF after it) as one byte.
                next = carriageReturn + (carriageReturn + 1 == end && end < bytes.count ? 2 : 1)
                end = carriageReturn
                nextCarriageReturn = ByteSearch.firstIndex(of: ASCII.carriageReturn, in: bytes, next..<bytes.count)
            }
            let contentStart = ByteSearch.firstIndex(in: bytes, start..<end) { !ASCII.isBlank($0) }
            lines.append(
                TextLine(
                    number: lines.count + 1, indentation: bytes[start..<contentStart],
                    content: bytes[contentStart..<end]))
            start = next
        }
        return lines
    }
}
