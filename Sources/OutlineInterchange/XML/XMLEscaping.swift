// MARK: - XMLEscaping

/// Writes text into XML so that ``XMLReader`` gives back exactly the same string.
enum XMLEscaping {
    /// Where escaped text goes: attribute values also escape quotes and white space controls,
    /// which attribute-value normalization would otherwise turn into spaces.
    enum Place {
        case attributeValue
        case elementContent
    }

    /// Appends `string` escaped for `place` to `output`.
    ///
    /// - Parameter handOn: Called with `output` after every ``OutputChunks/textStep`` bytes of
    ///   `string`, so that a long text is handed on in chunks rather than held whole.
    /// - throws: The description of the first character XML 1.0 cannot hold at all (control
    ///   characters such as U+0001, U+FFFE, U+FFFF), for the caller to report.
    static func append(
        _ string: String, for place: Place, to output: inout [UInt8], handOn: ((inout [UInt8]) -> Void)? = nil
    ) throws(UnrepresentableCharacter) {
        let bytes = string.utf8
        var index = bytes.startIndex
        var count = 0
        while index != bytes.endIndex {
            count &+= 1
            if count & OutputChunks.textStepMask == 0 { handOn?(&output) }
            let byte = bytes[index]
            switch byte {
            case ASCII.ampersand: output.append(contentsOf: "&amp;".utf8)
            case ASCII.lessThan: output.append(contentsOf: "&lt;".utf8)
            case ASCII.greaterThan: output.append(contentsOf: "&gt;".utf8)
            case ASCII.carriageReturn: output.append(contentsOf: "&#13;".utf8)
            case ASCII.quote where place == .attributeValue: output.append(contentsOf: "&quot;".utf8)
            case ASCII.lineFeed where place == .attributeValue: output.append(contentsOf: "&#10;".utf8)
            case ASCII.tab where place == .attributeValue: output.append(contentsOf: "&#9;".utf8)
            case ASCII.tab, ASCII.lineFeed: output.append(byte)
            case ..<ASCII.space: throw UnrepresentableCharacter(value: UInt32(byte))
            case 0xEF:
                // U+FFFE and U+FFFF are encoded EF BF BE and EF BF BF.
                let rest = bytes[bytes.index(after: index)...].prefix(2)
                if rest.elementsEqual([0xBF, 0xBE]) || rest.elementsEqual([0xBF, 0xBF]) {
                    throw UnrepresentableCharacter(value: rest.last == 0xBE ? 0xFFFE : 0xFFFF)
                }
                output.append(byte)
            default: output.append(byte)
            }
            index = bytes.index(after: index)
        }
    }
}

// MARK: - Unrepresentable characters

/// A character that no XML 1.0 document can contain, not even as a reference.
struct UnrepresentableCharacter: Error {
    /// The character's scalar value.
    var value: UInt32

    /// The character as `U+XXXX`.
    var display: String { ASCII.scalarName(value) }
}
