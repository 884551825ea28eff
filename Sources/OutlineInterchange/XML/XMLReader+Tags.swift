// MARK: - Start tags

extension XMLReader {
    /// Reads a start tag or an empty-element tag at `index` (which is `<`).
    mutating func readStartTag() throws(OutlineFormatError) -> XMLEvent {
        let start = index
        switch phase {
        case .epilog: throw error(at: start, "a document has only one root element; found a second one")
        case .start, .prolog, .content: phase = .content
        }
        index += 1
        let name = try readName("an element name after '<'")
        var attributes: [XMLAttribute] = []
        var manyNames: Set<String> = []
        while true {
            let hadWhitespace = skipWhitespace()
            if matches(">") {
                index += 1
                openElements.append((name, start))
                return .startElement(name: name, attributes: attributes, offset: start)
            }
            if matches("/>") {
                index += 2
                pendingEnd = .endElement(name: name, offset: start)
                if openElements.isEmpty { phase = .epilog }
                return .startElement(name: name, attributes: attributes, offset: start)
            }
            guard index < text.count else {
                throw error(at: start, "the tag <\(name)> is not closed with '>'")
            }
            guard hadWhitespace else {
                throw error(at: index, "expected white space, '>' or '/>' in the tag <\(name)>, found \(sample(at: index))")
            }
            let attribute = try readAttribute(in: name)
            // Most tags have a few attributes, checked linearly; a set takes over for hostile
            // tags with thousands, so the check never turns quadratic.
            let isRepeated =
                attributes.count < 16
                ? attributes.contains { $0.name == attribute.name }
                : !manyNames.insert(attribute.name).inserted
            if isRepeated {
                throw error(at: attribute.offset, "the attribute '\(attribute.name)' appears twice in the tag <\(name)>")
            }
            attributes.append(attribute)
            if attributes.count == 16 { manyNames = Set(attributes.map(\.name)) }
        }
    }

    /// Reads `name="value"` inside the tag of `element`.
    private mutating func readAttribute(in element: String) throws(OutlineFormatError) -> XMLAttribute {
        let offset = index
        let name = try readName("an attribute name or '>' in the tag <\(element)>")
        skipWhitespace()
        try expect("=", "after the attribute name '\(name)'")
        skipWhitespace()
        let value = try readAttributeValue(named: name)
        return XMLAttribute(name: name, value: value, offset: offset)
    }

    /// Reads a quoted attribute value, resolving references and normalizing white space
    /// characters (tab, line feed) to spaces as XML requires.
    private mutating func readAttributeValue(named name: String) throws(OutlineFormatError) -> String {
        let quote = byte(at: index)
        guard quote == ASCII.quote || quote == ASCII.apostrophe else {
            throw error(at: index, "the value of the attribute '\(name)' must be in quotes")
        }
        let start = index
        index += 1
        var value: [UInt8] = []
        var runStart = index
        while true {
            guard index < text.count else {
                throw error(at: start, "the value of the attribute '\(name)' is never closed")
            }
            switch text[index] {
            case quote:
                defer { index += 1 }
                // Most values hold no reference and no tab or line feed: one copy, no buffer.
                if value.isEmpty && runStart == start + 1 { return String(decoding: text[runStart..<index], as: UTF8.self) }
                value.append(contentsOf: text[runStart..<index])
                return String(decoding: value, as: UTF8.self)
            case ASCII.lessThan:
                throw error(at: index, "'<' is not allowed in the value of the attribute '\(name)'; write it as '&lt;'")
            case ASCII.ampersand:
                value.append(contentsOf: text[runStart..<index])
                try readReference(into: &value)
                runStart = index
            case ASCII.tab, ASCII.lineFeed:
                value.append(contentsOf: text[runStart..<index])
                value.append(ASCII.space)
                index += 1
                runStart = index
            default:
                index += 1
            }
        }
    }
}

// MARK: - End tags

extension XMLReader {
    /// Reads an end tag at `index` (which is `</`).
    mutating func readEndTag() throws(OutlineFormatError) -> XMLEvent {
        let start = index
        guard phase == .content, let open = openElements.last else {
            throw error(at: start, "an end tag appears outside the root element")
        }
        index += 2
        let name = try readName("an element name after '</'")
        skipWhitespace()
        try expect(">", "to close the end tag </\(name)>")
        guard name == open.name else {
            let opened = TextPosition.locate(offset: open.offset, in: text)
            throw error(
                at: start,
                "the end tag </\(name)> does not match the start tag <\(open.name)> "
                    + "at line \(opened.line), column \(opened.column)")
        }
        openElements.removeLast()
        if openElements.isEmpty { phase = .epilog }
        return .endElement(name: name, offset: start)
    }
}

// MARK: - Names

extension XMLReader {
    /// Reads an XML name at `index`; `expectation` says what was expected, for the error.
    /// `expectation` is only made for the error: it often names the tag, and every tag is read.
    mutating func readName(_ expectation: @autoclosure () -> String) throws(OutlineFormatError) -> String {
        let start = index
        guard index < text.count, let (first, length) = UTF8Scalars.decode(text, at: index),
            XMLCharacters.isNameStart(first)
        else {
            throw error(at: index, "expected \(expectation()), found \(sample(at: index))")
        }
        index += length
        while index < text.count {
            let byte = text[index]
            if byte < 0x80 {
                guard
                    ASCII.isLetter(byte) || ASCII.isDigit(byte) || byte == ASCII.hyphen || byte == ASCII.period
                        || byte == 0x5F || byte == ASCII.colon
                else { break }
                index += 1
            } else if let (scalar, length) = UTF8Scalars.decode(text, at: index),
                XMLCharacters.isNameContinuation(scalar)
            {
                index += length
            } else {
                break
            }
        }
        return String(decoding: text[start..<index], as: UTF8.self)
    }
}
