// MARK: - MarkdownListMarker

/// Recognizes the start of a Markdown list item: `-`, `*` or `+`, or one to nine digits and
/// `.` or `)`, followed by a space, a tab or the end of the line.
enum MarkdownListMarker {
    /// The offset where the marker ends (before the space) and the offset of its punctuation
    /// character, if `content` starts with a list marker.
    static func match(_ content: ArraySlice<UInt8>) -> (end: Int, punctuation: Int)? {
        guard let first = content.first else { return nil }
        var end = content.startIndex
        switch first {
        case ASCII.hyphen, ASCII.asterisk, ASCII.plus:
            end += 1
        case ASCII.zero...ASCII.nine:
            while end < content.endIndex, ASCII.isDigit(content[end]), end - content.startIndex < 9 { end += 1 }
            guard end < content.endIndex, content[end] == ASCII.period || content[end] == ASCII.rightParenthesis else {
                return nil
            }
            end += 1
        default:
            return nil
        }
        guard end == content.endIndex || ASCII.isBlank(content[end]) else { return nil }
        return (end, end - 1)
    }
}
