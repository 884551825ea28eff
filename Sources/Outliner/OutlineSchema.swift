import Foundation
import OutlineInterchange
import PodDocStore

// MARK: - OutlineSchema

/// The object model of an outline document: one entity, `OutlineItem`, whose objects form a
/// tree with ordered children.
///
/// Every document has exactly one *root* item, the only one without a parent. It is
/// invisible: its children are the outline's top-level items, and it carries the document's
/// OPML head fields, version and `<body>` attributes. Every other item has a title, an
/// optional note, the OPML attributes it came with, its order key among its siblings
/// (``order``) and creation and modification times. Deleting an item deletes everything
/// below it.
///
/// A document composes its object model from the entities of the content it holds:
/// ```swift
/// let model = try ObjectModel(
///     version: OutlineSchema.version, entities: OutlineSchema.entities, earlierVersions: try OutlineSchema.earlierVersions())
/// let store = try PersistentStore(url: url, model: model)
/// ```
public enum OutlineSchema {
    /// The version of the outline model: 2 added ``status``.
    public static let version = 2

    /// The entity's name, also its table's name.
    public static let entityName = "OutlineItem"

    /// The text shown for the item (OPML `text`).
    public static let title = Attribute<String>("title", default: "")
    /// The note under the item (OPML `_note`), or nil.
    public static let note = Attribute<String?>("note")
    /// The item's order key among its siblings (`SiblingOrder`): siblings are in the order of
    /// their keys, then of their IDs. A sparse key, not a position: an item placed between
    /// two others takes a key between theirs.
    public static let order = Attribute<Int>("order", default: 0)
    /// When the item was made (added or imported).
    public static let created = Attribute<Date>("created")
    /// When the item's title, note or place last changed.
    public static let modified = Attribute<Date>("modified")
    /// The item's other OPML attributes as JSON `[[name, value], …]`, in their original
    /// order (nil for none). On the root: the attributes of OPML `<body>`.
    public static let attributes = Attribute<JSONText?>("attributes")
    /// On the root only: the document's OPML head fields, as JSON `[[name, value], …]`.
    public static let head = Attribute<JSONText?>("head")
    /// On the root only: the OPML version the document was imported from.
    public static let opmlVersion = Attribute<String?>("opmlVersion")
    /// Whether the item is a task, and done: `open`, `done` (`OutlineStatus`), or nil for an
    /// item that is no task. Added in version 2.
    public static let status = Attribute<String?>("status")
    /// The item this one is a child of; nil only for the root.
    public static let parent = ToOne("parent", to: entityName, inverse: "children")
    /// The items below this one (in no particular order: sort them by ``order``). Deleting
    /// an item deletes its children.
    public static let children = ToMany("children", to: entityName, inverse: "parent", deleteRule: .cascade)

    /// The `OutlineItem` entity.
    public static let entity = EntityDescription(
        entityName,
        members: [
            title, note, order, created, modified, attributes, head, opmlVersion, status, parent, children,
        ],
        // The children of an item, in order, read from the index alone: never a row, whose
        // order key lies after a long note.
        indexes: [[parent.name, order.name]])

    /// The entities an outline needs, to add to a document's `ObjectModel`.
    public static let entities: [EntityDescription] = [entity]

    /// How copies of an outline merge: its items form an ordered tree, and an item's
    /// ``modified`` date takes the later of two.
    public static let merging = MergeDescription(
        trees: [OrderedTree(entity: entityName, parent: parent, order: order)],
        latestValues: [LatestValue(entity: entityName, attribute: modified)])

    /// The earlier versions of the outline model, for documents that do not record theirs
    /// (written before poddoc recorded models): version 1, without ``status``.
    public static func earlierVersions() throws -> [ObjectModel] {
        let version1 = EntityDescription(
            entityName, members: [title, note, order, created, modified, attributes, head, opmlVersion, parent, children],
            indexes: [[parent.name, order.name]])
        return [try ObjectModel(version: 1, entities: [version1])]
    }
}
