/// Writes the small JSON texts poddoc makes itself (normalised authors and platforms), far
/// faster than `JSONEncoder` for such tiny values, which matters when importing at speed.
package enum JSONWriter {
    /// An array of flat objects of optional strings: `[{"name":"A","email":"a@b"}]`; nil
    /// members are left out, keys are written in the order given.
    static func array(of objects: [[(key: String, value: String?)]]) -> String {
        var out = "["
        for (i, members) in objects.enumerated() {
            if i > 0 { out += "," }
            out += "{"
            var first = true
            for (key, value) in members {
                guard let value else { continue }
                if !first { out += "," }
                first = false
                appendQuoted(key, to: &out)
                out += ":"
                appendQuoted(value, to: &out)
            }
            out += "}"
        }
        out += "]"
        return out
    }

    /// Appends `text` as a JSON string literal.
    package static func appendQuoted(_ text: String, to out: inout String) {
        out += "\""
        if !text.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
            out += text
        } else {
            for scalar in text.unicodeScalars {
                switch scalar {
                case "\"": out += "\\\""
                case "\\": out += "\\\\"
                case "\n": out += "\\n"
                case "\r": out += "\\r"
                case "\t": out += "\\t"
                case let c where c.value < 0x20:
                    let hex = String(c.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                default:
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        out += "\""
    }
}
