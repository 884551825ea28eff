// MARK: - PlainTextWriter

/// Writes an outline (any ``OutlineWalk``) as indented plain text: one line per item, one tab per level,
/// titles with the escapes of ``LineEscaping`` and an empty title as a lone `\`. Notes,
/// attributes and head fields are not written.
enum PlainTextWriter {
    /// The indented text for `tree`.
    static func write(_ tree: some OutlineWalk, chunks: OutputChunks? = nil) throws -> String {
        var output: [UInt8] = []
        try tree.forEachItem { item, depth in
            chunks?.takeIfLarge(&output)
            output.appendRepeated(ASCII.tab, count: depth - 1)
            let title = LineEscaping.escape(item.title)
            output.append(contentsOf: title.isEmpty ? [ASCII.backslash] : title)
            output.append(ASCII.lineFeed)
        }
        if let chunks { chunks.finish(&output) }
        return String(decoding: output, as: UTF8.self)
    }
}
