// MARK: - LineEscaping

/// The backslash escapes that keep any title or note on one line of Markdown or indented
/// text, and read back exactly.
///
/// Writing: `\` → `\\`, line feed → `\n`, carriage return → `\r`, tab → `\t`, and a space at
/// the very start or end → `\s` (so indentation and editors that trim lines cannot eat it).
///
/// Reading also follows CommonMark where it does not conflict: `\` before ASCII punctuation
/// stands for that character (`\-` is `-`), a `\` before any other character is kept as a
/// literal backslash (`C:\Users` stays as it is), and a lone `\` at the end of a line stands
/// for nothing (it is how an empty title is written in indented text).
package enum LineEscaping {
    /// `text` escaped for one line.
    package static func escape(_ text: String) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(text.utf8.count)
        append(text, to: &output)
        return output
    }

    /// Appends `text` escaped for one line to `output`.
    ///
    /// - Parameter handOn: Called with `output` after every ``OutputChunks/textStep`` bytes of
    ///   `text`, so that a long text is handed on in chunks rather than held whole.
    static func append(_ text: String, to output: inout [UInt8], handOn: ((inout [UInt8]) -> Void)? = nil) {
        let bytes = text.utf8
        let lastIndex = bytes.indices.last
        var count = 0
        for index in bytes.indices {
            count &+= 1
            if count & OutputChunks.textStepMask == 0 { handOn?(&output) }
            switch bytes[index] {
            case ASCII.backslash: output.append(contentsOf: [ASCII.backslash, ASCII.backslash])
            case ASCII.lineFeed: output.append(contentsOf: [ASCII.backslash, 0x6E])
            case ASCII.carriageReturn: output.append(contentsOf: [ASCII.backslash, 0x72])
            case ASCII.tab: output.append(contentsOf: [ASCII.backslash, 0x74])
            case ASCII.space where index == bytes.startIndex || index == lastIndex:
                output.append(contentsOf: [ASCII.backslash, 0x73])
            case let byte: output.append(byte)
            }
        }
    }

    /// The text that the escaped line content `bytes` stands for.
    static func unescape(_ bytes: ArraySlice<UInt8>) -> String {
        guard bytes.contains(ASCII.backslash) else { return String(decoding: bytes, as: UTF8.self) }
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            index += 1
            guard byte == ASCII.backslash else {
                output.append(byte)
                continue
            }
            guard index < bytes.endIndex else { break }
            let next = bytes[index]
            switch next {
            case 0x6E: output.append(ASCII.lineFeed)
            case 0x72: output.append(ASCII.carriageReturn)
            case 0x74: output.append(ASCII.tab)
            case 0x73: output.append(ASCII.space)
            case 0x21...0x2F, 0x3A...0x40, 0x5B...0x60, 0x7B...0x7E: output.append(next)
            default:
                output.append(ASCII.backslash)
                continue
            }
            index += 1
        }
        return String(decoding: output, as: UTF8.self)
    }
}
