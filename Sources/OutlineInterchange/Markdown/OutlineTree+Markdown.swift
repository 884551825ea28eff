// MARK: - Markdown

extension OutlineTree {
    /// Reads a Markdown nested list: `- item`, `* item`, `+ item` or `1. item`, nested by two
    /// or four spaces or tabs. A line indented under an item that is not a list item is a line
    /// of its note; a `# Heading` before the list becomes the head `title`.
    ///
    /// For example:
    /// ```swift
    /// let tree = try OutlineTree(markdown: "- Groceries\n  Saturday\n  - Milk\n")
    /// ```
    ///
    /// - throws: ``OutlineFormatError`` with the line number when a line is neither a list
    ///   item nor an indented note line, or when indentation lines up with no enclosing item.
    public init(markdown: String) throws(OutlineFormatError) {
        self = try MarkdownReader.read(UTF8Scalars.droppingByteOrderMark(Array(markdown.utf8)))
    }

    /// The outline as a Markdown nested list: `- Title` lines indented two spaces per level,
    /// each note on one line under its item, and the head `title` as a `# Heading`.
    /// Attributes, other head fields and the OPML version are not written.
    public func markdown() -> String {
        writingInfallibly { try MarkdownWriter.write(self) }
    }
}
