// MARK: - MarkdownReader

/// Reads a Markdown nested list into an ``OutlineTree``.
///
/// Conventions (the same ones ``MarkdownWriter`` writes):
/// - Each list item (`- `, `* `, `+ `, `1. `, `1) `) is one item; its indentation sets the
///   nesting (see ``MarkdownIndentation``). Blank lines are ignored.
/// - A line that is not a list item and is indented deeper than the item before it is a line
///   of that item's note; several such lines are joined with line feeds.
/// - A `# Heading` before the first item becomes the head field `title`.
/// - Titles and notes use the backslash escapes of ``LineEscaping``.
/// - A task list item (`- [ ] title`, `- [x] title`, GitHub's checkboxes) is an item with a
///   status, open or done; `- \[x] title` is a title that starts with `[x]`.
enum MarkdownReader {
    /// The outline in `bytes` (UTF-8 without a byte order mark).
    static func read(_ bytes: [UInt8]) throws(OutlineFormatError) -> OutlineTree {
        var builder = LevelTreeBuilder()
        var indentation = MarkdownIndentation()
        for line in TextLine.split(bytes) where !line.isBlank {
            if let marker = MarkdownListMarker.match(line.content) {
                let level = try indentation.level(of: line)
                let (status, text) = taskStatus(line.content[marker.end...].drop(while: ASCII.isBlank))
                builder.append(OutlineItem(title: LineEscaping.unescape(text), status: status), atLevel: level)
            } else if !builder.hasItems, !builder.hasHead, let heading = headingText(line.content) {
                builder.setHead([OutlineAttribute("title", LineEscaping.unescape(heading))])
            } else if indentation.isIndentedUnderCurrentItem(line) {
                builder.appendNoteLine(LineEscaping.unescape(line.content))
            } else {
                let problem =
                    !builder.hasItems
                    ? "expected a list item ('- ', '* ', '+ ' or '1. ') or a '# ' heading"
                    : "expected a list item ('- ', '* ', '+ ' or '1. '); a note line must be indented deeper than "
                        + "its item and come right after it, before the item's children"
                throw line.error(at: line.content.startIndex, .unexpectedStructure, .markdown, problem)
            }
        }
        return builder.finish()
    }

    /// A task list item's checkbox (`[ ]`, `[x]`, `[X]`, then a space or the end) and the
    /// text after it; no status and the whole text otherwise.
    static func taskStatus(_ text: ArraySlice<UInt8>) -> (OutlineStatus?, ArraySlice<UInt8>) {
        let start = text.startIndex
        guard text.count >= 3, text[start] == ASCII.leftBracket, text[start + 2] == ASCII.rightBracket else { return (nil, text) }
        let status: OutlineStatus
        switch text[start + 1] {
        case ASCII.space: status = .open
        case 0x78, 0x58: status = .done  // x, X
        default: return (nil, text)
        }
        let rest = text[(start + 3)...]
        guard rest.isEmpty || ASCII.isBlank(rest[rest.startIndex]) else { return (nil, text) }
        return (status, rest.drop(while: ASCII.isBlank))
    }

    /// The text of a level-1 ATX heading (`# Title`), if `content` is one.
    private static func headingText(_ content: ArraySlice<UInt8>) -> ArraySlice<UInt8>? {
        guard content.first == ASCII.hash else { return nil }
        let rest = content.dropFirst()
        guard rest.isEmpty || ASCII.isBlank(rest[rest.startIndex]) else { return nil }
        return rest.drop(while: ASCII.isBlank)
    }
}
