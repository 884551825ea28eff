import Foundation

// MARK: - Any format

extension OutlineTree {
    /// Reads an outline in `format` from `data`. Markdown, indented text and JSON must be UTF-8
    /// (a byte order mark is skipped); OPML may use any encoding it declares.
    ///
    /// For example: `let tree = try OutlineTree(data: data, format: .markdown)`.
    ///
    /// - throws: ``OutlineFormatError`` describing the first problem; nothing is returned.
    public init(data: Data, format: OutlineFormat) throws(OutlineFormatError) {
        switch format {
        case .opml:
            self = try OPMLReader.read(data)
        case .markdown:
            self = try MarkdownReader.read(UTF8Scalars.validatedText(data, format: format))
        case .plainText:
            self = try PlainTextReader.read(UTF8Scalars.validatedText(data, format: format))
        case .json:
            self = try JSONOutlineReader.read(UTF8Scalars.validatedText(data, format: format))
        }
    }

    /// The outline written in `format`, as UTF-8.
    ///
    /// - throws: ``OutlineFormatError/Code/unrepresentable`` only for OPML, when the outline
    ///   holds something XML cannot.
    public func data(format: OutlineFormat) throws(OutlineFormatError) -> Data {
        switch format {
        case .opml: try opmlData()
        case .markdown: Data(markdown().utf8)
        case .plainText: Data(indentedText().utf8)
        case .json: jsonData()
        }
    }
}
