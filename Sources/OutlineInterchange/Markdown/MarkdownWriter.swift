// MARK: - MarkdownWriter

/// Writes an outline (any ``OutlineWalk``) as a Markdown nested list.
///
/// Layout: the head field `title`, if any, as `# Title` and a blank line; then one `- Title`
/// line per item, indented two spaces per level (CommonMark nests a `- ` item's children at two
/// spaces); an item's note goes on the next line, indented two spaces deeper than the item's
/// `-`. Titles and notes use the escapes of ``LineEscaping``, so a multi-line note is one line
/// with `\n`, an empty note is a lone `\`, and a note line that would read as a list marker
/// gets a backslash before the marker's punctuation (`\- not an item`, `1\. not an item`).
/// An item with a status is a task list item (`- [ ] Title`, `- [x] Title`); the title of
/// an item without one that would read as a checkbox starts with `\[`. Attributes, the other head fields and the OPML version
/// are not written.
enum MarkdownWriter {
    /// The Markdown text for `tree`.
    static func write(_ tree: some OutlineWalk, chunks: OutputChunks? = nil) throws -> String {
        var output: [UInt8] = []
        if let title = tree.head.value(named: "title") {
            output.append(ASCII.hash)
            appendText(LineEscaping.escape(title), to: &output)
            output.append(contentsOf: [ASCII.lineFeed, ASCII.lineFeed])
        }
        try tree.forEachItem { item, depth in
            chunks?.takeIfLarge(&output)
            let indentation = 2 * (depth - 1)
            output.appendRepeated(ASCII.space, count: indentation)
            output.append(ASCII.hyphen)
            if let status = item.status {
                output.append(contentsOf: (status == .done ? " [x]" : " [ ]").utf8)
            }
            var title = LineEscaping.escape(item.title)
            if item.status == nil, MarkdownReader.taskStatus(title[...]).0 != nil {
                // A title that would read as a checkbox.
                title.insert(ASCII.backslash, at: 0)
            }
            appendText(title, to: &output)
            output.append(ASCII.lineFeed)
            if let note = item.note {
                output.appendRepeated(ASCII.space, count: indentation + 2)
                appendNoteLine(note, to: &output, chunks: chunks)
                output.append(ASCII.lineFeed)
            }
        }
        if let chunks { chunks.finish(&output) }
        return String(decoding: output, as: UTF8.self)
    }

    /// Appends a space and `text` after a marker, or nothing for empty text.
    private static func appendText(_ text: [UInt8], to output: inout [UInt8]) {
        guard !text.isEmpty else { return }
        output.append(ASCII.space)
        output.append(contentsOf: text)
    }

    /// Appends `note` as one line that cannot be mistaken for a list item or a blank line;
    /// with `chunks`, a long note is handed on in pieces as it is escaped.
    private static func appendNoteLine(_ note: String, to output: inout [UInt8], chunks: OutputChunks?) {
        let start = output.count
        var checked = false
        // Before anything of the note is handed on, its start (the longest marker is 11 bytes)
        // is in `output` to be checked.
        func escapeMarker(_ output: inout [UInt8]) {
            checked = true
            if let marker = MarkdownListMarker.match(output[start...]) { output.insert(ASCII.backslash, at: marker.punctuation) }
        }
        LineEscaping.append(note, to: &output) { output in
            if !checked { escapeMarker(&output) }
            chunks?.takeIfLarge(&output)
        }
        if output.count == start {
            output.append(ASCII.backslash)
        } else if !checked {
            escapeMarker(&output)
        }
    }
}
