// MARK: - OutlineItem

/// The content of one outline item, without its children.
///
/// Children live in the ``OutlineTree``; an item only carries what is shown and stored for the
/// row itself.
public struct OutlineItem: Sendable, Equatable {
    /// The text shown for the item (OPML `text`).
    public var title: String
    /// An optional note under the item (OPML `_note`, the WorkFlowy convention).
    public var note: String?
    /// Any other attributes, in their original order (OPML `type`, `xmlUrl`, `created`, …).
    public var attributes: [OutlineAttribute]

    /// Creates an item.
    ///
    /// For example: `OutlineItem(title: "Groceries", note: "Saturday")`.
    public init(title: String, note: String? = nil, attributes: [OutlineAttribute] = []) {
        self.title = title
        self.note = note
        self.attributes = attributes
    }
}
