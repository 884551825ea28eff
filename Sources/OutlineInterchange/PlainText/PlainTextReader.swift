// MARK: - PlainTextReader

/// Reads indented plain text into an ``OutlineTree``: one item per non-blank line, nested by
/// tabs or by a consistent number of spaces (see ``PlainTextIndentation``), titles with the
/// escapes of ``LineEscaping``.
enum PlainTextReader {
    /// The outline in `bytes` (UTF-8 without a byte order mark).
    static func read(_ bytes: [UInt8]) throws(OutlineFormatError) -> OutlineTree {
        var builder = LevelTreeBuilder()
        var indentation = PlainTextIndentation()
        for line in TextLine.split(bytes) where !line.isBlank {
            let level = try indentation.level(of: line)
            builder.append(OutlineItem(title: LineEscaping.unescape(line.content)), atLevel: level)
        }
        return builder.finish()
    }
}
