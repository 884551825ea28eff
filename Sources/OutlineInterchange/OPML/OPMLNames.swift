// MARK: - OPML vocabulary

/// The element and attribute names OPML gives a meaning to.
enum OPMLNames {
    static let opml = "opml"
    static let head = "head"
    static let body = "body"
    static let outline = "outline"
    static let version = "version"
    /// The outline attribute that holds an item's title.
    static let title = "text"
    /// The outline attribute that holds an item's note (the WorkFlowy convention).
    static let note = "_note"
    static let status = "_status"
    /// The version written when the tree records none.
    static let defaultVersion = "2.0"

    /// Whether `name` declares an XML namespace (`xmlns` or `xmlns:prefix`).
    static func isNamespaceDeclaration(_ name: String) -> Bool {
        name == "xmlns" || name.hasPrefix("xmlns:")
    }
}
