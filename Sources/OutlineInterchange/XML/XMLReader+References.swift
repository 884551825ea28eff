// MARK: - References

extension XMLReader {
    /// Reads an entity or character reference at `index` (which is `&`) and appends its
    /// replacement text to `value`.
    ///
    /// Only the five predefined entities (`&lt;` `&gt;` `&amp;` `&apos;` `&quot;`) and numeric
    /// references (`&#233;`, `&#xE9;`) exist: the reader never declares entities, so nothing
    /// can expand into more than one character.
    mutating func readReference(into value: inout [UInt8]) throws(OutlineFormatError) {
        let start = index
        index += 1
        if byte(at: index) == ASCII.hash {
            let scalar = try readCharacterReference(startingAt: start)
            UTF8Scalars.append(scalar, to: &value)
            return
        }
        let name = try readName("an entity name after '&' (write a literal '&' as '&amp;')")
        guard byte(at: index) == ASCII.semicolon else {
            throw error(at: index, "expected ';' after the entity reference '&\(name)'")
        }
        index += 1
        switch name {
        case "lt": value.append(ASCII.lessThan)
        case "gt": value.append(ASCII.greaterThan)
        case "amp": value.append(ASCII.ampersand)
        case "apos": value.append(ASCII.apostrophe)
        case "quot": value.append(ASCII.quote)
        default:
            throw error(
                at: start,
                "the entity '&\(name);' is not defined; only &lt; &gt; &amp; &apos; &quot; "
                    + "and numeric references such as &#233; are allowed")
        }
    }

    /// Reads `&#…;` or `&#x…;` at `index` (which is `#`).
    private mutating func readCharacterReference(startingAt start: Int) throws(OutlineFormatError) -> Unicode.Scalar {
        index += 1
        let isHex = byte(at: index) == 0x78
        if isHex { index += 1 }
        var value: UInt32 = 0
        var digits = 0
        while index < text.count {
            let digit: UInt32? =
                isHex
                ? ASCII.hexValue(text[index])
                : ASCII.isDigit(text[index]) ? UInt32(text[index] - ASCII.zero) : nil
            guard let digit else { break }
            // Saturate instead of overflowing; anything above U+10FFFF is refused below.
            value = min(value * (isHex ? 16 : 10) + digit, 0x110000)
            digits += 1
            index += 1
        }
        guard digits > 0, byte(at: index) == ASCII.semicolon else {
            throw error(at: start, "malformed character reference; expected '&#' digits ';' or '&#x' hex digits ';'")
        }
        index += 1
        guard XMLCharacters.isChar(value), let scalar = Unicode.Scalar(value) else {
            let reference = String(decoding: text[start..<index], as: UTF8.self)
            throw error(at: start, "the character reference '\(reference)' is not a character XML allows")
        }
        return scalar
    }
}
