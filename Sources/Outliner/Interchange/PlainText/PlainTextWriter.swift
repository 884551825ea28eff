// MARK: - PlainTextWriter

/// Writes an ``OutlineTree`` as indented plain text: one line per item, one tab per level,
/// titles with the escapes of ``LineEscaping`` and an empty title as a lone `\`. Notes,
/// attributes and head fields are not written.
enum PlainTextWriter {
    /// The indented text for `tree`.
    static func write(_ tree: OutlineTree, chunks: OutputChunks? = nil) -> String {
        var output: [UInt8] = []
        for visit in tree.depthFirst() {
            chunks?.takeIfLarge(&output)
            output.appendRepeated(ASCII.tab, count: visit.depth - 1)
            let title = LineEscaping.escape(visit.item.title)
            output.append(contentsOf: title.isEmpty ? [ASCII.backslash] : title)
            output.append(ASCII.lineFeed)
        }
        if let chunks { chunks.finish(&output) }
        return String(decoding: output, as: UTF8.self)
    }
}
