// MARK: - JSONToken

/// One token of JSON text, with the byte offset where it starts.
struct JSONToken {
    enum Kind: Equatable {
        case beginObject, endObject, beginArray, endArray, colon, comma
        case string(String)
        case number
        case boolean
        case null
        case endOfInput
    }

    var kind: Kind
    var offset: Int

    /// How the token is named in error messages.
    var display: String {
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
