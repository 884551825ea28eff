import Foundation

// MARK: - OPML

extension OutlineTree {
    /// Reads an OPML 1.0 or 2.0 document.
    ///
    /// The `text` attribute becomes the title, `_note` the note, every other outline attribute
    /// is kept in order, every `<head>` field is kept in order, and the `version` is recorded in
    /// ``opmlVersion``. The encoding is taken from the byte order mark or the XML declaration
    /// (UTF-8, UTF-16, ISO-8859-1, Windows-1252, US-ASCII). Entity declarations are refused and
    /// nothing external is loaded.
    ///
    /// For example: `let tree = try OutlineTree(opml: Data(contentsOf: url))`.
    ///
    /// - throws: ``OutlineFormatError`` with the line and column of the first problem, for
    ///   example "OPML: not well-formed XML at line 1, column 7: the XML declaration must start
    ///   with 'version', found 'encoding'; nothing was imported".
    public init(opml data: Data) throws(OutlineFormatError) {
        self = try OPMLReader.read(data)
    }

    /// The outline as a UTF-8 OPML document: the version read (or 2.0), head fields in order,
    /// one tab of indentation per level, attributes in the order `text`, `_note`, then the rest.
    ///
    /// - throws: ``OutlineFormatError/Code/unrepresentable`` if the outline holds a character
    ///   or name that XML cannot, or an attribute OPML reserves.
    public func opmlData() throws(OutlineFormatError) -> Data {
        try writing { try OPMLWriter.write(self) }
    }
}
