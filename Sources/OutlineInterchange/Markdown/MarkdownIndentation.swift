// MARK: - MarkdownIndentation

/// Works out the nesting level of Markdown list items from their indentation, the way
/// CommonMark lists nest: any deeper indentation opens one level, and a shallower one must
/// line up with an enclosing item. A tab counts to the next multiple of four columns, so
/// 2-space, 4-space and tab indentation all work.
struct MarkdownIndentation {
    /// The indentation (in columns) of each open level, outermost first.
    private var columns: [Int] = []

    /// The width of `indentation` in columns.
    static func width(of indentation: ArraySlice<UInt8>) -> Int {
        indentation.reduce(0) { width, byte in byte == ASCII.tab ? (width / 4 + 1) * 4 : width + 1 }
    }

    /// Whether `line` is indented deeper than the most recent list item.
    func isIndentedUnderCurrentItem(_ line: TextLine) -> Bool {
        guard let current = columns.last else { return false }
        return Self.width(of: line.indentation) > current
    }

    /// The level (0 for top level) of the list item on `line`.
    ///
    /// - throws: ``OutlineFormatError/Code/inconsistentIndentation`` when the item is less
    ///   indented than the one before but lines up with no enclosing item.
    mutating func level(of line: TextLine) throws(OutlineFormatError) -> Int {
        let width = Self.width(of: line.indentation)
        guard let current = columns.last, width <= current else {
            columns.append(width)
            return columns.count - 1
        }
        let open = columns
        while let last = columns.last, width < last { columns.removeLast() }
        guard columns.last == width else {
            let expected = open.map(String.init).joined(separator: ", ")
            throw line.error(
                at: line.content.startIndex, .inconsistentIndentation, .markdown,
                "the list item is indented by \(width) columns, which lines up with no enclosing item "
                    + "(items before it are indented by \(expected) columns)")
        }
        return columns.count - 1
    }
}
