import Foundation
import OutlineInterchange
import PodDocStore

// MARK: - StoredItem

/// One item of an outline document as it is now: its content, its place among its siblings
/// and its times. A value: it does not follow later edits.
///
/// ```swift
/// for child in try outline.children(of: outline.rootID) {
///     print(child.index + 1, child.item.title)
/// }
/// ```
public struct StoredItem: Sendable, Equatable {
    /// The item's identity in the document (temporary until the document is saved).
    public let id: ObjectID
    /// The item's position among its siblings, from 0.
    public let index: Int
    /// The title, note and OPML attributes.
    public let item: OutlineItem
    /// When the item was made.
    public let created: Date
    /// When the item's title, note or place last changed.
    public let modified: Date
}

// MARK: - OutlineHeading

/// An item's title and whether it has a note: what a listing shows, read without the note
/// (``OutlineStore/headings(under:)``).
public struct OutlineHeading: Sendable, Equatable {
    /// The item's identity in the document.
    public let id: ObjectID
    /// The item's position among its siblings, from 0.
    public let index: Int
    /// The title.
    public let title: String
    /// Whether the item has a note (which was not read).
    public let hasNote: Bool
    /// Whether the item is a task, open or done (nil: no task).
    public let status: OutlineStatus?
}

// MARK: - Reading an object

extension StoredItem {
    /// The item as `object` holds it now, at `index` among its siblings.
    init(_ object: ManagedObject, index: Int) throws(OutlineError) {
        id = object.objectID
        self.index = index
        item = try OutlineItem(object)
        created = object[OutlineSchema.created]
        modified = object[OutlineSchema.modified]
    }
}

extension OutlineItem {
    /// The title, note and attributes `object` holds now.
    init(_ object: ManagedObject) throws(OutlineError) {
        self.init(
            title: object[OutlineSchema.title], note: object[OutlineSchema.note],
            attributes: try StoredAttributes.decode(object[OutlineSchema.attributes], "attributes of \(object.objectID)"),
            status: object[OutlineSchema.status].flatMap(OutlineStatus.init(rawValue:)))
    }
}
