// MARK: - Text that is safe on a terminal

/// Escapes what a terminal would act on instead of showing: control characters (an `ESC [31m`
/// in a title would recolour the terminal, a BEL ring it), C1 controls and the bidirectional
/// overrides that can make text read backwards. Human output goes through it; `--json` and
/// exports keep every character as it is.
///
/// Escapes are Swift's: `\n`, `\r`, `\t`, and `\u{1B}` for the rest.
enum TerminalText {
    /// `text` with every control escaped but the line feeds that separate its lines.
    static func safe(_ text: String) -> String {
        escaped(text, keepingLineFeeds: true)
    }

    /// One field (a title, a summary) on one line: line feeds escaped too.
    static func oneLine(_ text: String) -> String {
        escaped(text, keepingLineFeeds: false)
    }

    private static func escaped(_ text: String, keepingLineFeeds: Bool) -> String {
        guard text.unicodeScalars.contains(where: { needsEscape($0, keepingLineFeeds) }) else { return text }
        var result = ""
        result.reserveCapacity(text.utf8.count + 8)
        for scalar in text.unicodeScalars {
            guard needsEscape(scalar, keepingLineFeeds) else {
                result.unicodeScalars.append(scalar)
                continue
            }
            switch scalar {
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            default: result += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            }
        }
        return result
    }

    private static func needsEscape(_ scalar: Unicode.Scalar, _ keepingLineFeeds: Bool) -> Bool {
        switch scalar.value {
        case 0x0A: return !keepingLineFeeds
        case 0x00...0x1F, 0x7F...0x9F: return true
        // Bidirectional embeddings, overrides and isolates, and the marks.
        case 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }
}
