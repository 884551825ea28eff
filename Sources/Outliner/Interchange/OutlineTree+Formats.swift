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
        case .opml: try OPMLWriter.write(self)
        case .markdown: Data(MarkdownWriter.write(self).utf8)
        case .plainText: Data(PlainTextWriter.write(self).utf8)
        case .json: JSONOutlineWriter.write(self)
        }
    }

    /// Writes the outline in `format` as UTF-8, handing the bytes on in chunks of about a
    /// megabyte as they are made: memory holds one chunk, not the whole output (for writing
    /// to a file).
    ///
    /// - Parameter deliver: Receives each chunk, in order.
    /// - throws: as ``data(format:)``; chunks delivered before the error are not taken back.
    public func write(format: OutlineFormat, inChunks deliver: @escaping ([UInt8]) -> Void) throws(OutlineFormatError) {
        let chunks = OutputChunks(deliver)
        switch format {
        case .opml: _ = try OPMLWriter.write(self, chunks: chunks)
        case .markdown: _ = MarkdownWriter.write(self, chunks: chunks)
        case .plainText: _ = PlainTextWriter.write(self, chunks: chunks)
        case .json: _ = JSONOutlineWriter.write(self, chunks: chunks)
        }
    }

    /// About how many bytes the outline takes in `format`, and how many of them are
    /// indentation: Markdown and indented text indent each level, so their size grows with
    /// the square of a deep outline's depth (OPML caps its indentation, JSON has none).
    public func estimatedSize(format: OutlineFormat) -> (bytes: Int, indentation: Int) {
        var bytes = 0, indentation = 0
        for visit in depthFirst() {
            let text = visit.item.title.utf8.count + (visit.item.note?.utf8.count ?? 0) + 4
            let indent: Int
            switch format {
            case .markdown: indent = 2 * (visit.depth - 1) * (visit.item.note == nil ? 1 : 2) + (visit.item.note == nil ? 0 : 2)
            case .plainText: indent = visit.depth - 1
            case .opml: indent = 2 * min(visit.depth + 1, OPMLWriter.maximumIndentation)
            case .json: indent = 0
            }
            bytes += text + indent
            indentation += indent
        }
        return (bytes, indentation)
    }
}
