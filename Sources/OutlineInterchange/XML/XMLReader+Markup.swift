// MARK: - XML declaration

extension XMLReader {
    /// Checks the XML declaration, if the document starts with one:
    /// `<?xml version="1.x" encoding="…" standalone="yes|no"?>`, in that order.
    mutating func readDeclarationIfPresent() throws(OutlineFormatError) {
        guard matches("<?xml"), XMLCharacters.isWhitespace(byte(at: index + 5)) else { return }
        index += 5
        skipWhitespace()
        guard matches("version") else {
            throw error(at: index, "the XML declaration must start with 'version', found \(sample(at: index))")
        }
        index += 7
        let (version, versionOffset) = try readPseudoAttributeValue("version")
        guard version.hasPrefix("1."), version.utf8.count > 2, version.utf8.dropFirst(2).allSatisfy(ASCII.isDigit) else {
            throw error(at: versionOffset, "unsupported XML version '\(version)'")
        }
        var sawEncoding = false
        var sawStandalone = false
        while true {
            let hadWhitespace = skipWhitespace()
            if matches("?>") {
                index += 2
                return
            }
            if hadWhitespace && !sawEncoding && !sawStandalone && matches("encoding") {
                index += 8
                let (name, nameOffset) = try readPseudoAttributeValue("encoding")
                guard let first = name.utf8.first, ASCII.isLetter(first),
                    name.utf8.allSatisfy({
                        ASCII.isLetter($0) || ASCII.isDigit($0) || $0 == ASCII.period || $0 == 0x5F || $0 == ASCII.hyphen
                    })
                else {
                    throw error(at: nameOffset, "'\(name)' is not a valid encoding name")
                }
                sawEncoding = true
            } else if hadWhitespace && !sawStandalone && matches("standalone") {
                index += 10
                let (value, valueOffset) = try readPseudoAttributeValue("standalone")
                guard value == "yes" || value == "no" else {
                    throw error(at: valueOffset, "standalone must be 'yes' or 'no', not '\(value)'")
                }
                sawStandalone = true
            } else {
                throw error(at: index, "expected 'encoding', 'standalone' or '?>' in the XML declaration, found \(sample(at: index))")
            }
        }
    }

    /// Reads `= "value"` after a pseudo-attribute name of the XML declaration; returns the
    /// value and the offset of its opening quote.
    private mutating func readPseudoAttributeValue(_ name: String) throws(OutlineFormatError) -> (String, Int) {
        skipWhitespace()
        try expect("=", "after '\(name)' in the XML declaration")
        skipWhitespace()
        let quote = byte(at: index)
        guard quote == ASCII.quote || quote == ASCII.apostrophe else {
            throw error(at: index, "the value of '\(name)' in the XML declaration must be in quotes")
        }
        let start = index + 1
        guard let end = text[start...].prefix(256).firstIndex(of: quote) else {
            throw error(at: index, "the value of '\(name)' in the XML declaration is never closed")
        }
        index = end + 1
        return (String(decoding: text[start..<end], as: UTF8.self), start - 1)
    }
}

// MARK: - Comments, processing instructions, CDATA

extension XMLReader {
    /// Skips `<!-- … -->`; `--` may not appear inside.
    mutating func skipComment() throws(OutlineFormatError) {
        let start = index
        index += 4
        while index + 1 < text.count {
            if text[index] == ASCII.hyphen && text[index + 1] == ASCII.hyphen {
                guard byte(at: index + 2) == ASCII.greaterThan else {
                    throw error(at: index, "'--' is not allowed inside a comment")
                }
                index += 3
                return
            }
            index += 1
        }
        throw error(at: start, "the comment is never closed with '-->'")
    }

    /// Skips `<?target …?>`. The target `xml` is reserved for the declaration at the start.
    mutating func skipProcessingInstruction() throws(OutlineFormatError) {
        let start = index
        index += 2
        let target = try readName("a processing instruction target after '<?'")
        if target.lowercased() == "xml" {
            throw error(at: start, "an XML declaration '<?xml …?>' is only allowed at the very start of the document")
        }
        if matches("?>") {
            index += 2
            return
        }
        guard skipWhitespace() else {
            throw error(at: index, "expected white space or '?>' after the processing instruction target '\(target)'")
        }
        while index + 1 < text.count {
            if text[index] == ASCII.question && text[index + 1] == ASCII.greaterThan {
                index += 2
                return
            }
            index += 1
        }
        throw error(at: start, "the processing instruction is never closed with '?>'")
    }

    /// Reads `<![CDATA[ … ]]>` as text.
    mutating func readCDATA() throws(OutlineFormatError) -> XMLEvent {
        let start = index
        guard phase == .content else {
            throw error(at: start, "a CDATA section is only allowed inside the root element")
        }
        index += 9
        let contentStart = index
        while index + 2 < text.count {
            if text[index] == ASCII.rightBracket && text[index + 1] == ASCII.rightBracket
                && text[index + 2] == ASCII.greaterThan
            {
                let content = String(decoding: text[contentStart..<index], as: UTF8.self)
                index += 3
                return .text(content, offset: start)
            }
            index += 1
        }
        throw error(at: start, "the CDATA section is never closed with ']]>'")
    }
}

// MARK: - Document type declaration

extension XMLReader {
    /// Skips `<!DOCTYPE name [SYSTEM "…" | PUBLIC "…" "…"]>` before the root element.
    ///
    /// External identifiers are never fetched. An internal subset (`[ … ]`) is refused: it is
    /// where entities are declared, and refusing it rules out entity expansion attacks.
    mutating func skipDocumentType() throws(OutlineFormatError) {
        let start = index
        guard phase == .prolog, !sawDocumentType else {
            throw error(at: start, "a document type declaration is only allowed once, before the root element")
        }
        sawDocumentType = true
        index += 9
        guard skipWhitespace() else {
            throw error(at: index, "expected white space after '<!DOCTYPE'")
        }
        _ = try readName("the root element name in the document type declaration")
        while true {
            skipWhitespace()
            guard index < text.count else {
                throw error(at: start, "the document type declaration is never closed with '>'")
            }
            switch text[index] {
            case ASCII.greaterThan:
                index += 1
                return
            case ASCII.leftBracket:
                throw error(
                    at: index,
                    "document type definitions with an internal subset ('[ … ]') are not "
                        + "supported: entity declarations are refused for safety")
            case ASCII.quote, ASCII.apostrophe:
                let quote = text[index]
                guard let end = text[(index + 1)...].firstIndex(of: quote) else {
                    throw error(at: index, "a quoted identifier in the document type declaration is never closed")
                }
                index = end + 1
            default:
                guard matches("SYSTEM") || matches("PUBLIC") else {
                    throw error(at: index, "expected SYSTEM, PUBLIC, a quoted identifier or '>' in the document type declaration")
                }
                index += 6
            }
        }
    }
}
