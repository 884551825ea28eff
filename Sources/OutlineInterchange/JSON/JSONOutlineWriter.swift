import Foundation
import PodDocJSON

// MARK: - JSONOutlineWriter

/// Writes an outline (any ``OutlineWalk``) in the outline JSON shape (see ``JSONOutlineKeys``) with a single
/// iterative pass: JSONEncoder would recurse once per level.
///
/// The output is deterministic: compact (no spaces), keys in the documented order, every key
/// always present (`note` as `null` when there is none), strings escaped per RFC 8259 with
/// only `"`, `\` and control characters escaped, and a final line feed.
package enum JSONOutlineWriter {
    /// The JSON text for `tree`.
    static func write(_ tree: some OutlineWalk, chunks: OutputChunks? = nil) throws -> Data {
        var output: [UInt8] = []
        output.append(contentsOf: "{\"\(JSONOutlineKeys.opmlVersion)\":".utf8)
        appendOptionalString(tree.opmlVersion, to: &output)
        output.append(contentsOf: ",\"\(JSONOutlineKeys.head)\":".utf8)
        appendPairs(tree.head, to: &output)
        output.append(contentsOf: ",\"\(JSONOutlineKeys.bodyAttributes)\":".utf8)
        appendPairs(tree.bodyAttributes, to: &output)
        output.append(contentsOf: ",\"\(JSONOutlineKeys.children)\":[".utf8)
        // An item after a sibling (the step before was leaving one) follows a comma.
        var afterSibling = false
        try tree.forEachStep { step in
            chunks?.takeIfLarge(&output)
            switch step {
            case .enter(let item, _, _):
                if afterSibling { output.append(ASCII.comma) }
                output.append(contentsOf: "{\"\(JSONOutlineKeys.title)\":".utf8)
                appendString(item.title, to: &output, chunks: chunks)
                output.append(contentsOf: ",\"\(JSONOutlineKeys.note)\":".utf8)
                appendOptionalString(item.note, to: &output, chunks: chunks)
                if let status = item.status {
                    output.append(contentsOf: ",\"\(JSONOutlineKeys.status)\":\"\(status.rawValue)\"".utf8)
                }
                output.append(contentsOf: ",\"\(JSONOutlineKeys.attributes)\":".utf8)
                appendPairs(item.attributes, to: &output)
                output.append(contentsOf: ",\"\(JSONOutlineKeys.children)\":[".utf8)
                afterSibling = false
            case .exit:
                output.append(contentsOf: "]}".utf8)
                afterSibling = true
            }
        }
        output.append(contentsOf: "]}\n".utf8)
        if let chunks { chunks.finish(&output) }
        return Data(output)
    }

    // MARK: - Values

    /// Appends `[[name, value], …]` (also how the outline store keeps an item's attributes).
    package static func appendPairs(_ pairs: [OutlineAttribute], to output: inout [UInt8]) {
        output.append(ASCII.leftBracket)
        for (index, pair) in pairs.enumerated() {
            if index > 0 { output.append(ASCII.comma) }
            output.append(ASCII.leftBracket)
            appendString(pair.name, to: &output)
            output.append(ASCII.comma)
            appendString(pair.value, to: &output)
            output.append(ASCII.rightBracket)
        }
        output.append(ASCII.rightBracket)
    }

    private static func appendOptionalString(_ string: String?, to output: inout [UInt8], chunks: OutputChunks? = nil) {
        if let string {
            appendString(string, to: &output, chunks: chunks)
        } else {
            output.append(contentsOf: "null".utf8)
        }
    }

    /// With `chunks`, a long string is handed on in pieces as it is escaped.
    private static func appendString(_ string: String, to output: inout [UInt8], chunks: OutputChunks? = nil) {
        JSONEscaping.appendQuoted(string, to: &output, handOn: chunks?.handOn)
    }
}
