import Foundation

// MARK: - OPMLReader

/// Reads OPML 1.0 and 2.0 into an ``OutlineTree`` with ``XMLReader``, ``XMLTextDecoder`` and
/// ``OPMLTreeBuilder``.
enum OPMLReader {
    /// The outline in `data`, or an error; never a partial tree.
    static func read(_ data: Data) throws(OutlineFormatError) -> OutlineTree {
        let text = try XMLTextDecoder.decode(data)
        var reader = XMLReader(text: text)
        var builder = OPMLTreeBuilder(text: text)
        while let event = try reader.next() {
            try builder.consume(event)
        }
        return try builder.finish()
    }
}
