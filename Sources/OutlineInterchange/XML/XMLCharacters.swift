// MARK: - XML character classes

/// The character classes of XML 1.0 (fifth edition): which scalars may appear in a document
/// and which may start or continue a name.
enum XMLCharacters {
    /// Whether `value` is an XML `Char`: tab, line feed, carriage return, or U+0020 through
    /// U+10FFFF except the surrogates, U+FFFE and U+FFFF.
    static func isChar(_ value: UInt32) -> Bool {
        switch value {
        case 0x09, 0x0A, 0x0D, 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: true
        default: false
        }
    }

    /// Whether `scalar` may start an XML name (`NameStartChar`).
    static func isNameStart(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x3A, 0x41...0x5A, 0x5F, 0x61...0x7A, 0xC0...0xD6, 0xD8...0xF6, 0xF8...0x2FF,
            0x370...0x37D, 0x37F...0x1FFF, 0x200C...0x200D, 0x2070...0x218F, 0x2C00...0x2FEF,
            0x3001...0xD7FF, 0xF900...0xFDCF, 0xFDF0...0xFFFD, 0x10000...0xEFFFF:
            true
        default:
            false
        }
    }

    /// Whether `scalar` may continue an XML name (`NameChar`).
    static func isNameContinuation(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x2D, 0x2E, 0x30...0x39, 0xB7, 0x300...0x36F, 0x203F...0x2040: true
        default: isNameStart(scalar)
        }
    }

    /// Whether `string` is a valid XML name, for example `xmlUrl` or `dc:creator`.
    static func isName(_ string: String) -> Bool {
        var scalars = string.unicodeScalars.makeIterator()
        guard let first = scalars.next(), isNameStart(first) else { return false }
        while let scalar = scalars.next() {
            guard isNameContinuation(scalar) else { return false }
        }
        return true
    }

    /// Whether `byte` is XML white space (space, tab, line feed, carriage return).
    static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == ASCII.space || byte == ASCII.tab || byte == ASCII.lineFeed || byte == ASCII.carriageReturn
    }
}
