// MARK: - XMLEncoding

/// The text encodings the XML reader accepts, and how a document announces them.
enum XMLEncoding: Equatable {
    case utf8
    case usASCII
    case latin1
    case windows1252
    case utf16LittleEndian
    case utf16BigEndian

    /// The encoding a declaration names (case-insensitively), or `nil` if it is not supported.
    /// A bare `UTF-16` is returned as big-endian; the byte order mark decides the real order.
    init?(declaredName: String) {
        switch declaredName.uppercased() {
        case "UTF-8", "UTF8": self = .utf8
        case "US-ASCII", "ASCII": self = .usASCII
        case "ISO-8859-1", "ISO_8859-1", "ISO8859-1", "LATIN1", "LATIN-1", "L1": self = .latin1
        case "WINDOWS-1252", "CP1252": self = .windows1252
        case "UTF-16", "UTF-16BE": self = .utf16BigEndian
        case "UTF-16LE": self = .utf16LittleEndian
        default: return nil
        }
    }

    /// Whether this is one of the two UTF-16 byte orders.
    var isUTF16: Bool { self == .utf16BigEndian || self == .utf16LittleEndian }

    /// The encodings a document may name, for error messages.
    static let supportedNames = "UTF-8, UTF-16, ISO-8859-1, Windows-1252 and US-ASCII"
}

// MARK: - Windows-1252

extension XMLEncoding {
    /// The scalars of Windows-1252 bytes 0x80 through 0x9F. The five unassigned bytes map to
    /// the C1 control with the same value, as the WHATWG Encoding Standard does.
    static let windows1252HighControls: [UInt32] = [
        0x20AC, 0x81, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021,
        0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x8D, 0x017D, 0x8F,
        0x90, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
        0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x9D, 0x017E, 0x0178,
    ]
}
