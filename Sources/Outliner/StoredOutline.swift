import OutlineInterchange
import PodDocStore

// MARK: - StoredOutline

/// An outline as its document last saved it, read from the store item by item as a writer
/// asks for it: an `OutlineWalk` for exports of any size. Memory holds the item being
/// written, never the tree (see `PodDocStore.PersistentStore.walkSavedTree(below:following:siblingOrder:reading:_:)`).
///
/// Changes not yet saved are not in it: export from ``OutlineStore/exportOutline(from:)``
/// when the document has unsaved changes.
///
/// ```swift
/// try outline.savedOutline().write(format: .opml) { chunk in try sink.write(chunk) }
/// ```
public struct StoredOutline: OutlineWalk, Sendable {
    public let opmlVersion: String?
    public let head: [OutlineAttribute]
    public let bodyAttributes: [OutlineAttribute]
    private let store: PersistentStore
    private let start: ObjectID
    /// The start item itself, as the one top-level item (an export of one item's subtree).
    private let startItem: OutlineItem?

    /// Reads the items from the store, depth first.
    ///
    /// - Throws: ``OutlineError``: `storeFailed` when the store cannot be read, `damagedDocument`
    ///   when an item's stored attributes cannot be, or what `body` throws.
    public func forEachItem(_ body: (_ item: OutlineItem, _ depth: Int) throws -> Void) throws {
        let offset = startItem == nil ? 0 : 1
        if let startItem { try body(startItem, 1) }
        var failure: (any Error)?
        do {
            try store.walkSavedTree(
                below: start, following: OutlineSchema.parent, siblingOrder: OutlineSchema.order,
                reading: [OutlineSchema.title, OutlineSchema.note, OutlineSchema.attributes, OutlineSchema.status]
            ) { depth, values in
                let item: OutlineItem
                do {
                    item = OutlineItem(
                        title: String.fromStoreValue(values[0]) ?? "", note: String.fromStoreValue(values[1]),
                        attributes: try StoredAttributes.decode(
                            String.fromStoreValue(values[2]).map(JSONText.init), "attributes of an item"),
                        status: String.fromStoreValue(values[3]).flatMap(OutlineStatus.init(rawValue:)))
                } catch {
                    failure = error
                    throw error
                }
                do {
                    try body(item, depth + offset)
                } catch {
                    failure = error
                    throw error
                }
            }
        } catch {
            throw failure ?? OutlineError.storeFailed(error, while: "reading the outline")
        }
    }

    init(
        store: PersistentStore, start: ObjectID, startItem: OutlineItem?, opmlVersion: String?, head: [OutlineAttribute],
        bodyAttributes: [OutlineAttribute]
    ) {
        self.store = store
        self.start = start
        self.startItem = startItem
        self.opmlVersion = opmlVersion
        self.head = head
        self.bodyAttributes = bodyAttributes
    }
}

extension OutlineStore {
    /// The outline (or the subtree of `id`) as last saved, for writing in any format while
    /// reading one item at a time; see ``exportOutline(from:)`` for the shape.
    ///
    /// - Throws: ``OutlineError``: `notFound`, `damagedDocument` when the start item's stored
    ///   attributes cannot be read.
    public func savedOutline(from id: ObjectID? = nil) throws(OutlineError) -> StoredOutline {
        let start = try object(id ?? rootID)
        if isRoot(start) {
            return StoredOutline(
                store: context.store, start: start.objectID, startItem: nil, opmlVersion: start[OutlineSchema.opmlVersion],
                head: try StoredAttributes.decode(start[OutlineSchema.head], "head fields"),
                bodyAttributes: try OutlineItem(start).attributes)
        }
        return StoredOutline(
            store: context.store, start: start.objectID, startItem: try OutlineItem(start), opmlVersion: nil, head: [], bodyAttributes: [])
    }
}
