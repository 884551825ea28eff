// MARK: - JSONToken

/// One token of JSON text, with the byte offset where it starts (``JSONScanner/nextToken()``).
public struct JSONToken: Sendable, Equatable {
    /// What the token is.
    public enum Kind: Sendable, Equatable {
        case beginObject, endObject, beginArray, endArray, colon, comma
        /// A string, escapes decoded.
        case string(String)
        /// A number (its syntax checked, its value not read).
        case number
        /// `true` or `false`.
        case boolean
        case null
        /// No more tokens: only white space was left.
        case endOfInput
    }

    /// What the token is.
    public var kind: Kind
    /// The byte offset where it starts.
    public var offset: Int

    /// A token of `kind` at `offset`.
    public init(kind: Kind, offset: Int) {
        self.kind = kind
        self.offset = offset
    }

    /// How the token is named in error messages: `'{'`, `a string`, `the end of the text`.
    public var display: String {
        switch kind {
        case .beginObject: "'{'"
        case .endObject: "'}'"
        case .beginArray: "'['"
        case .endArray: "']'"
        case .colon: "':'"
        case .comma: "','"
        case .string: "a string"
        case .number: "a number"
        case .boolean: "true or false"
        case .null: "null"
        case .endOfInput: "the end of the text"
        }
    }
}
