// MARK: - JSONEscaping

/// Writes text as a JSON string literal: `"`, `\` and the control characters escaped (`\n`,
/// `\r`, `\t`, others as `\u00XX` in uppercase hexadecimal), everything else as it is (UTF-8).
public enum JSONEscaping {
    /// Appends `text` as a JSON string literal to UTF-8 bytes.
    ///
    /// - Parameter handOn: Called with `output` after every 65,536 bytes of `text`, so that a
    ///   writer can hand a long string on in pieces rather than hold it whole.
    public static func appendQuoted(_ text: String, to output: inout [UInt8], handOn: ((inout [UInt8]) -> Void)? = nil) {
        output.append(UInt8(ascii: "\""))
        var count = 0
        for byte in text.utf8 {
            count &+= 1
            if count & 0xFFFF == 0 { handOn?(&output) }
            if let escape = escape(byte) {
                output.append(contentsOf: escape.utf8)
            } else {
                output.append(byte)
            }
        }
        output.append(UInt8(ascii: "\""))
    }

    /// The length in bytes of `text` as a JSON string literal (quotes included), without
    /// making it: to reserve room for a long one.
    public static func quotedLength(_ text: String) -> Int {
        var length = 2
        for byte in text.utf8 { length += escape(byte)?.utf8.count ?? 1 }
        return length
    }

    /// Appends `text` as a JSON string literal to a string.
    public static func appendQuoted(_ text: String, to output: inout String) {
        output += "\""
        if !text.utf8.contains(where: { escape($0) != nil }) {
            output += text
        } else {
            var bytes: [UInt8] = []
            bytes.reserveCapacity(text.utf8.count + 8)
            for byte in text.utf8 {
                if let escape = escape(byte) { bytes.append(contentsOf: escape.utf8) } else { bytes.append(byte) }
            }
            output += String(decoding: bytes, as: UTF8.self)
        }
        output += "\""
    }

    /// The escape for `byte`, or nil when it stands for itself. (Bytes of multi-byte UTF-8
    /// sequences are all 0x80 or more, so escaping byte by byte is escaping by character.)
    @inline(__always)
    private static func escape(_ byte: UInt8) -> String? {
        switch byte {
        case UInt8(ascii: "\""): "\\\""
        case UInt8(ascii: "\\"): "\\\\"
        case 0x0A: "\\n"
        case 0x0D: "\\r"
        case 0x09: "\\t"
        case ..<0x20: "\\u00" + (byte < 0x10 ? "0" : "") + String(byte, radix: 16, uppercase: true)
        default: nil
        }
    }
}
