import PodDocJSON

/// Writes the small JSON texts poddoc makes itself (normalised authors and platforms), far
/// faster than `JSONEncoder` for such tiny values, which matters when importing at speed.
enum JSONWriter {
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
                JSONEscaping.appendQuoted(key, to: &out)
                out += ":"
                JSONEscaping.appendQuoted(value, to: &out)
            }
            out += "}"
        }
        out += "]"
        return out
    }

}
