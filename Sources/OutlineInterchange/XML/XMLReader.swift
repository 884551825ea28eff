// MARK: - XMLReader

/// A strict, iterative, non-validating XML 1.0 reader: a pull parser over the normalized UTF-8
/// that ``XMLTextDecoder`` produces.
///
/// It reads elements, attributes (in document order), character data, the five predefined
/// entities and numeric character references, CDATA sections, comments, processing
/// instructions, the XML declaration and a document type declaration without an internal
/// subset. Anything that is not well-formed stops it with an error that gives the line and
/// column. Open elements live on an explicit stack, so nesting depth is bounded only by memory.
///
/// For untrusted input it never loads anything: external identifiers are skipped, internal DTD
/// subsets (and with them every entity declaration) are refused, so no entity can expand.
struct XMLReader {
    /// Where the reader is in the document.
    enum Phase {
        /// Before the XML declaration has been checked.
        case start
        /// Before the root element.
        case prolog
        /// Inside the root element.
        case content
        /// After the root element.
        case epilog
    }

    /// The document as normalized UTF-8.
    let text: [UInt8]
    /// The offset of the next unread byte.
    var index = 0
    var phase = Phase.start
    /// The open elements, innermost last, with the offsets of their start tags.
    var openElements: [(name: String, offset: Int)] = []
    /// The end of an empty-element tag, reported on the next call.
    var pendingEnd: XMLEvent?
    var sawDocumentType = false

    /// Creates a reader over normalized UTF-8 text.
    init(text: [UInt8]) {
        self.text = text
    }

    /// The next event, or `nil` at the end of a well-formed document.
    mutating func next() throws(OutlineFormatError) -> XMLEvent? {
        if let pending = pendingEnd {
            pendingEnd = nil
            return pending
        }
        if phase == .start {
            try readDeclarationIfPresent()
            phase = .prolog
        }
        while index < text.count {
            if text[index] == ASCII.lessThan {
                if let event = try readMarkup() { return event }
            } else if phase == .content {
                return try readCharacterData()
            } else {
                try skipWhitespaceOutsideRoot()
            }
        }
        try checkEndOfDocument()
        return nil
    }

    // MARK: - Dispatch

    /// Reads the markup at `index` (which is `<`); returns an event, or `nil` for markup that
    /// is skipped.
    private mutating func readMarkup() throws(OutlineFormatError) -> XMLEvent? {
        switch byte(at: index + 1) {
        case ASCII.question:
            try skipProcessingInstruction()
            return nil
        case ASCII.exclamation:
            return try readDeclarationMarkup()
        case ASCII.slash:
            return try readEndTag()
        default:
            return try readStartTag()
        }
    }

    /// Reads `<!--`, `<![CDATA[` or `<!DOCTYPE`.
    private mutating func readDeclarationMarkup() throws(OutlineFormatError) -> XMLEvent? {
        if matches("<!--") {
            try skipComment()
            return nil
        }
        if matches("<![CDATA[") {
            return try readCDATA()
        }
        if matches("<!DOCTYPE") {
            try skipDocumentType()
            return nil
        }
        throw error(at: index, "expected a comment, a CDATA section or a document type declaration after '<!'")
    }

    private mutating func skipWhitespaceOutsideRoot() throws(OutlineFormatError) {
        while index < text.count, XMLCharacters.isWhitespace(text[index]) { index += 1 }
        guard index < text.count, text[index] != ASCII.lessThan else { return }
        let place = phase == .prolog ? "before" : "after"
        throw error(at: index, "text is not allowed \(place) the root element")
    }

    private func checkEndOfDocument() throws(OutlineFormatError) {
        if let innermost = openElements.last {
            let opened = TextPosition.locate(offset: innermost.offset, in: text)
            throw error(
                at: text.count,
                "the document ends before the element <\(innermost.name)> "
                    + "(opened at line \(opened.line), column \(opened.column)) is closed")
        }
        if phase != .epilog {
            throw error(at: text.count, "the document has no root element")
        }
    }

    // MARK: - Character data

    /// Reads text up to the next `<`, resolving references.
    private mutating func readCharacterData() throws(OutlineFormatError) -> XMLEvent {
        let start = index
        let end = ByteSearch.firstIndex(of: ASCII.lessThan, in: text, index..<text.count) ?? text.count
        if let bracket = ByteSearch.firstIndex(of: ASCII.rightBracket, in: text, index..<end),
            let closing = findCDATAEnd(from: bracket, before: end)
        {
            throw error(at: closing, "']]>' is not allowed in text; write it as ']]&gt;'")
        }
        guard ByteSearch.firstIndex(of: ASCII.ampersand, in: text, index..<end) != nil else {
            index = end
            return .text(String(decoding: text[start..<end], as: UTF8.self), offset: start)
        }
        var value: [UInt8] = []
        while index < end {
            let reference = ByteSearch.firstIndex(of: ASCII.ampersand, in: text, index..<end) ?? end
            value.append(contentsOf: text[index..<reference])
            index = reference
            if index < end { try readReference(into: &value) }
        }
        return .text(String(decoding: value, as: UTF8.self), offset: start)
    }

    /// The offset of the first `]]>` at or after `offset` that starts before `end`, if any.
    private func findCDATAEnd(from offset: Int, before end: Int) -> Int? {
        var bracket: Int? = offset
        while let candidate = bracket {
            if candidate + 2 < text.count && text[candidate + 1] == ASCII.rightBracket
                && text[candidate + 2] == ASCII.greaterThan
            {
                return candidate
            }
            bracket = ByteSearch.firstIndex(of: ASCII.rightBracket, in: text, (candidate + 1)..<end)
        }
        return nil
    }

    // MARK: - Helpers

    /// The byte at `offset`, or 0 past the end.
    func byte(at offset: Int) -> UInt8 {
        offset < text.count ? text[offset] : 0
    }

    /// Whether the text at `index` starts with `literal` (ASCII).
    func matches(_ literal: StaticString) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard index + count <= text.count else { return false }
        return literal.withUTF8Buffer { expected in
            for offset in 0..<count where text[index + offset] != expected[offset] { return false }
            return true
        }
    }

    /// Skips XML white space; returns whether there was any.
    @discardableResult
    mutating func skipWhitespace() -> Bool {
        let start = index
        while index < text.count, XMLCharacters.isWhitespace(text[index]) { index += 1 }
        return index > start
    }

    /// Consumes `literal` or throws "expected `literal`".
    /// `context` is only made for the error: it often names the tag, and every tag is read.
    mutating func expect(_ literal: StaticString, _ context: @autoclosure () -> String) throws(OutlineFormatError) {
        guard matches(literal) else {
            throw error(at: index, "expected '\(literal)' \(context())")
        }
        index += literal.utf8CodeUnitCount
    }

    /// A not-well-formed error at byte `offset`.
    func error(at offset: Int, _ message: String) -> OutlineFormatError {
        .at(offset, in: text, .notWellFormed, .opml, message)
    }

    /// A short, printable sample of the text at `offset` (up to the next white space or
    /// delimiter), for messages.
    func sample(at offset: Int) -> String {
        if offset >= text.count { return "the end of the document" }
        let delimiters: Set<UInt8> = [
            ASCII.space, ASCII.tab, ASCII.lineFeed, ASCII.equals, ASCII.quote,
            ASCII.apostrophe, ASCII.lessThan, ASCII.greaterThan,
        ]
        let window = text[offset..<min(offset + 16, text.count)]
        let end = window.firstIndex { delimiters.contains($0) } ?? window.endIndex
        return "'" + String(decoding: text[offset..<max(end, offset + 1)], as: UTF8.self) + "'"
    }
}
