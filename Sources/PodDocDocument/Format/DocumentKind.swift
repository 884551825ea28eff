/// What a document holds, named by an identifier its app owns: reverse-DNS for an app's own
/// kind (`org.example.recipes`); `pods` and `outline` for the kinds poddoc brings.
///
/// A document's metadata and store record its kind. An app declares what the kind holds
/// with a ``DocumentType``; a program that does not know a kind still opens its documents
/// with the model their store records (``ManagedDocument/open(_:types:options:)``).
///
/// ```swift
/// let recipes = DocumentKind("org.example.recipes")
/// ```
public struct DocumentKind: RawRepresentable, Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    /// The identifier: 1 to 128 ASCII letters, digits, `.`, `-` and `_`, starting with a
    /// letter.
    public let rawValue: String

    /// A kind by its identifier; nil when it is no valid identifier.
    public init?(rawValue: String) {
        guard Self.isValid(rawValue) else { return nil }
        self.rawValue = rawValue
    }

    /// A kind by an identifier written in the program, which must be valid.
    public init(_ identifier: StaticString) {
        guard let kind = Self(rawValue: identifier.description) else {
            preconditionFailure("'\(identifier)' is no valid document kind: use 1 to 128 letters, digits, '.', '-' and '_'")
        }
        self = kind
    }

    /// The identifier.
    public var description: String { rawValue }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }

    /// Whether `identifier` names a kind: 1 to 128 ASCII letters, digits, `.`, `-` and `_`,
    /// starting with a letter.
    public static func isValid(_ identifier: String) -> Bool {
        let bytes = Array(identifier.utf8)
        guard (1...128).contains(bytes.count), let first = bytes.first, isLetter(first) else { return false }
        return bytes.allSatisfy { isLetter($0) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || "._-".utf8.contains($0) }
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
    }

    /// Reads the identifier, refusing one that is not valid.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let identifier = try container.decode(String.self)
        guard let kind = Self(rawValue: identifier) else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "'\(identifier.prefix(80))' is no valid document kind"))
        }
        self = kind
    }

    /// Writes the identifier.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}
