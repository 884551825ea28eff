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
    /// Whether the item is a task, open or done (OPML `_status` of OmniOutliner and Fargo,
    /// Markdown's `- [ ]` and `- [x]`); nil for an item that is no task.
    public var status: OutlineStatus?

    /// Creates an item.
    ///
    /// For example: `OutlineItem(title: "Groceries", note: "Saturday")`.
    public init(title: String, note: String? = nil, attributes: [OutlineAttribute] = [], status: OutlineStatus? = nil) {
        self.title = title
        self.note = note
        self.attributes = attributes
        self.status = status
    }
}

/// The state of an item that is a task.
public enum OutlineStatus: String, Sendable, Hashable, CaseIterable {
    /// Still to do (OPML `_status="unchecked"`, Markdown `- [ ]`).
    case open
    /// Done (OPML `_status="checked"`, Markdown `- [x]`).
    case done

    /// The value of OPML's `_status` attribute.
    public var opmlValue: String { self == .done ? "checked" : "unchecked" }

    /// The status an OPML `_status` value stands for; nil for another value (kept as an
    /// attribute).
    public init?(opmlValue: String) {
        switch opmlValue {
        case "checked": self = .done
        case "unchecked": self = .open
        default: return nil
        }
    }
}
