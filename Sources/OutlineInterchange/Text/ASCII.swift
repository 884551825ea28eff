// MARK: - ASCII

/// Byte values of the ASCII characters the readers and writers look for.
package enum ASCII {
    static let tab: UInt8 = 0x09
    package static let lineFeed: UInt8 = 0x0A
    static let carriageReturn: UInt8 = 0x0D
    package static let space: UInt8 = 0x20
    static let exclamation: UInt8 = 0x21
    static let quote: UInt8 = 0x22
    static let hash: UInt8 = 0x23
    static let ampersand: UInt8 = 0x26
    static let apostrophe: UInt8 = 0x27
    static let rightParenthesis: UInt8 = 0x29
    static let asterisk: UInt8 = 0x2A
    static let plus: UInt8 = 0x2B
    static let comma: UInt8 = 0x2C
    static let hyphen: UInt8 = 0x2D
    static let period: UInt8 = 0x2E
    static let slash: UInt8 = 0x2F
    static let zero: UInt8 = 0x30
    static let nine: UInt8 = 0x39
    static let colon: UInt8 = 0x3A
    static let semicolon: UInt8 = 0x3B
    static let lessThan: UInt8 = 0x3C
    static let equals: UInt8 = 0x3D
    static let greaterThan: UInt8 = 0x3E
    static let question: UInt8 = 0x3F
    static let leftBracket: UInt8 = 0x5B
    static let backslash: UInt8 = 0x5C
    static let rightBracket: UInt8 = 0x5D
    static let leftBrace: UInt8 = 0x7B
    static let rightBrace: UInt8 = 0x7D

    /// Whether `byte` is an ASCII digit.
    static func isDigit(_ byte: UInt8) -> Bool { byte >= zero && byte <= nine }

    /// Whether `byte` is an ASCII letter.
    static func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A }

    /// Whether `byte` is a space or a tab.
    static func isBlank(_ byte: UInt8) -> Bool { byte == space || byte == tab }

    /// The value of a hexadecimal digit, or `nil`.
    static func hexValue(_ byte: UInt8) -> UInt32? {
        switch byte {
        case zero...nine: UInt32(byte - zero)
        case 0x41...0x46: UInt32(byte - 0x41 + 10)
        case 0x61...0x66: UInt32(byte - 0x61 + 10)
        default: nil
        }
    }

    /// `value` in uppercase hexadecimal, padded with zeros to at least `digits` digits.
    static func hex(_ value: UInt32, digits: Int) -> String {
        let text = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }

    /// `byte` as `0x` and two hexadecimal digits, for messages: `0xE9`.
    static func hex(_ byte: UInt8) -> String {
        "0x" + hex(UInt32(byte), digits: 2)
    }

    /// A Unicode scalar value as `U+` and at least four hexadecimal digits: `U+0001`.
    static func scalarName(_ value: UInt32) -> String {
        "U+" + hex(value, digits: 4)
    }
}
