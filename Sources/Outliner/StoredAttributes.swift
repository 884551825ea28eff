import OutlineInterchange
import PodDocStore

// MARK: - StoredAttributes

/// How the store keeps a list of name/value pairs (an item's OPML attributes, the root's
/// head fields): the `[[name, value], …]` JSON of the outline JSON shape, in order, with nil
/// for an empty list.
enum StoredAttributes {
    /// The JSON for `pairs`, or nil when there are none.
    static func encode(_ pairs: [OutlineAttribute]) -> JSONText? {
        guard !pairs.isEmpty else { return nil }
        var bytes: [UInt8] = []
        JSONOutlineWriter.appendPairs(pairs, to: &bytes)
        return JSONText(String(decoding: bytes, as: UTF8.self))
    }

    /// The pairs stored as `text`; `what` names the field in errors.
    ///
    /// - throws: ``OutlineError/Code/damagedDocument`` when the text is not such a list.
    static func decode(_ text: JSONText?, _ what: String) throws(OutlineError) -> [OutlineAttribute] {
        guard let text else { return [] }
        do {
            return try JSONOutlineReader.readPairs(Array(text.text.utf8), for: what)
        } catch {
            throw OutlineError.damaged("the stored \(what) cannot be read (\(error.message))", cause: error)
        }
    }
}
