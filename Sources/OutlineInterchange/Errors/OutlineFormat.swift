// MARK: - OutlineFormat

/// The interchange formats an ``OutlineTree`` can be read from and written to.
public enum OutlineFormat: String, Sendable, Hashable, CaseIterable {
    /// OPML 1.0 and 2.0 (`.opml`): everything is kept.
    case opml
    /// Markdown nested lists (`.md`): titles, notes and the head title are kept.
    case markdown
    /// Indented plain text, one item per line (`.txt`): titles only.
    case plainText
    /// The outline JSON shape (`.json`): everything is kept.
    case json

    /// The name shown to users in error messages, for example "OPML".
    public var displayName: String {
        switch self {
        case .opml: "OPML"
        case .markdown: "Markdown"
        case .plainText: "indented text"
        case .json: "JSON"
        }
    }
}
