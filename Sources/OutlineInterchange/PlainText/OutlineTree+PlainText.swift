// MARK: - Indented plain text

extension OutlineTree {
    /// Reads indented plain text: one item per line, nested by tabs or by a consistent number
    /// of spaces. Blank lines are ignored.
    ///
    /// For example:
    /// ```swift
    /// let tree = try OutlineTree(indentedText: "Groceries\n\tMilk\n\tBread\n")
    /// ```
    ///
    /// - throws: ``OutlineFormatError/Code/inconsistentIndentation`` with the line number when
    ///   indentation mixes tabs and spaces, is not a whole number of levels, or skips a level.
    public init(indentedText text: String) throws(OutlineFormatError) {
        self = try PlainTextReader.read(UTF8Scalars.droppingByteOrderMark(Array(text.utf8)))
    }

    /// The outline as indented plain text: one title per line, one tab per level. Notes,
    /// attributes and head fields are not written.
    public func indentedText() -> String {
        writingInfallibly { try PlainTextWriter.write(self) }
    }
}
