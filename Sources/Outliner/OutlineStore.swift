import Foundation
import OutlineInterchange
import PodDocStore

// MARK: - OutlineStore

/// The outline of one document: a tree of items with ordered children, read and edited
/// through the document's object context.
///
/// The store does not open files or own contexts: the document hands it its main context
/// (with the context's `ObjectUndoManager`), and saves that context when it likes. Every
/// edit is one undo group on that context, named for the user (`Add "Groceries"`,
/// `Delete "Work" and 12 items`), and keeps the rule that the orders of any item's children
/// are exactly 0…n-1. An edit that is refused throws before it changes anything.
///
/// Use an outline store on its context's queue only (on the main actor for a main context),
/// like the context itself. Items are named by `ObjectID`, which stay valid across saves.
///
/// ```swift
/// let outline = try OutlineStore(context: main)
/// let groceries = try outline.add(OutlineItem(title: "Groceries"), under: outline.rootID)
/// try outline.add(OutlineItem(title: "Milk"), under: groceries)
/// print(try outline.printTree())
/// main.undoManager?.undo()   // Add "Milk"
/// ```
public final class OutlineStore {
    /// The context the outline is read and edited in.
    public let context: ObjectContext
    /// The clock that stamps created and modified times.
    let now: () -> Date
    private let rootObjectID: ObjectID

    /// Opens the outline of the document behind `context`: finds its root item, or creates
    /// it (without an undo step) when the document is new.
    ///
    /// - Parameters:
    ///   - context: The document's main context; its undo manager records every edit.
    ///   - clock: Gives the time for created and modified stamps (tests pass a fixed one).
    /// - Throws: ``OutlineError``: `damagedDocument` when the document has several roots,
    ///   `storeFailed` when it cannot be read.
    public init(context: ObjectContext, clock: @escaping () -> Date = Date.init) throws(OutlineError) {
        self.context = context
        self.now = clock
        let request = FetchRequest(OutlineSchema.entityName, where: OutlineSchema.parent == ObjectID?.none, limit: 2)
        let roots = try OutlineStore.reading("looking for the outline's root") { try context.fetchIDs(request) }
        switch roots.count {
        case 0:
            let create = { () -> ObjectID in
                let root = context.insert(OutlineSchema.entityName)
                let date = clock()
                root[OutlineSchema.created] = date
                root[OutlineSchema.modified] = date
                return root.objectID
            }
            rootObjectID = context.undoManager.map { $0.withoutRegistration(create) } ?? create()
        case 1:
            rootObjectID = roots[0]
        default:
            throw OutlineError.damaged("it has several root items (\(roots.map(\.description).joined(separator: ", ")))")
        }
    }

    /// The invisible item at the top of the outline: the parent of the top-level items.
    public var rootID: ObjectID { context.resolve(rootObjectID) }
}

// MARK: - Reading items

extension OutlineStore {
    /// The item with this ID as it is now.
    ///
    /// - Throws: ``OutlineError/Code/notFound`` when there is no such item.
    public func item(_ id: ObjectID) throws(OutlineError) -> StoredItem {
        let object = try object(id)
        return try StoredItem(object, index: position(of: object))
    }

    /// The children of an item, in order (the top-level items, for ``rootID``).
    ///
    /// - Throws: ``OutlineError/Code/notFound`` when there is no such item.
    public func children(of id: ObjectID) throws(OutlineError) -> [StoredItem] {
        var items: [StoredItem] = []
        let children = try children(of: object(id))
        try load(children[...])
        for (index, child) in children.enumerated() { items.append(try StoredItem(child, index: index)) }
        return items
    }

    /// The children of an item, in order, each with its title and whether it has a note,
    /// read without the notes (or any other value): listing costs nothing for notes however
    /// long they are.
    ///
    /// ```swift
    /// for heading in try outline.headings(under: outline.rootID) {
    ///     print(heading.index + 1, heading.title, heading.hasNote ? "[note]" : "")
    /// }
    /// ```
    ///
    /// - Throws: ``OutlineError/Code/notFound`` when there is no such item.
    public func headings(under id: ObjectID) throws(OutlineError) -> [OutlineHeading] {
        _ = try title(of: id)  // it exists; its own note stays unread too
        let request = FetchRequest(
            OutlineSchema.entityName, where: OutlineSchema.parent == context.resolve(id), sortBy: [FetchSort(OutlineSchema.order)])
        let context = self.context
        return try OutlineStore.reading("reading the children of an item") {
            let ids = try context.fetchIDs(request)
            let values = try context.values(
                of: ids, reading: [OutlineSchema.title, OutlineSchema.status], presenceOf: [OutlineSchema.note])
            return zip(ids, values).enumerated().compactMap { index, pair in
                pair.1.map {
                    OutlineHeading(
                        id: pair.0, index: index, title: String.fromStoreValue($0.values[0]) ?? "", hasNote: $0.present[0],
                        status: String.fromStoreValue($0.values[1]).flatMap(OutlineStatus.init(rawValue:)))
                }
            }
        }
    }

    /// An item's note, read alone (its other values, and other items' notes, stay unread).
    ///
    /// - Throws: ``OutlineError/Code/notFound`` when there is no such item.
    public func note(of id: ObjectID) throws(OutlineError) -> String? {
        let context = self.context
        guard id.entityName == OutlineSchema.entityName,
            let values = try OutlineStore.reading("reading a note", { try context.values(of: [id], reading: [OutlineSchema.note]) })[0]
        else {
            throw Self.noSuchItem(id)
        }
        return String.fromStoreValue(values.values[0])
    }

    /// The managed object of an item.
    func object(_ id: ObjectID) throws(OutlineError) -> ManagedObject {
        guard id.entityName == OutlineSchema.entityName,
            let object = try OutlineStore.reading("reading an item", { try context.existingObject(with: id) })
        else {
            throw Self.noSuchItem(id)
        }
        return object
    }

    /// The title of an item, read alone (its note stays unread).
    func title(of id: ObjectID) throws(OutlineError) -> String {
        let context = self.context
        guard id.entityName == OutlineSchema.entityName,
            let values = try OutlineStore.reading("reading an item", { try context.values(of: [id], reading: [OutlineSchema.title]) })[0]
        else {
            throw Self.noSuchItem(id)
        }
        return String.fromStoreValue(values.values[0]) ?? ""
    }

    private static func noSuchItem(_ id: ObjectID) -> OutlineError {
        OutlineError.notFound("There is no outline item \(id); it was deleted, or never saved. Look it up again by its path.")
    }

    /// The children of `parent`, in order (by order key, then id), as objects whose values are
    /// not read yet: an edit loads (``load(_:)``) the ones it changes, so a long note is read
    /// only when its item changes. (A query of whole rows sorted by order would also have SQLite copy each
    /// note into its sorter.)
    func children(of parent: ManagedObject) throws(OutlineError) -> [ManagedObject] {
        let request = FetchRequest(
            OutlineSchema.entityName, where: OutlineSchema.parent == parent,
            sortBy: [FetchSort(OutlineSchema.order)])
        let context = self.context
        return try OutlineStore.reading("reading the children of an item") { try context.fetchIDs(request).map(context.object(with:)) }
    }

    /// The parent of the item `id`; nil for the root.
    ///
    /// - Throws: ``OutlineError``: `notFound`, or `storeFailed` when the store cannot be read.
    public func parent(of id: ObjectID) throws(OutlineError) -> ObjectID? {
        try object(id)[OutlineSchema.parent]?.objectID
    }

    /// The number of children of the item `id`, counted in the store (none read).
    ///
    /// - Throws: ``OutlineError``: `notFound`, or `storeFailed` when the store cannot be read.
    public func childCount(of id: ObjectID) throws(OutlineError) -> Int {
        try childCount(of: object(id))
    }

    /// The number of children of `parent`, counted in the store (none read).
    func childCount(of parent: ManagedObject) throws(OutlineError) -> Int {
        let request = FetchRequest(OutlineSchema.entityName, where: OutlineSchema.parent == parent)
        let context = self.context
        return try OutlineStore.reading("counting the children of an item") { try context.count(for: request) }
    }

    /// The children of `parent` from `offset`, at most `limit` of them, in order.
    func children(of parent: ManagedObject, from offset: Int, limit: Int) throws(OutlineError) -> [ManagedObject] {
        let request = FetchRequest(
            OutlineSchema.entityName, where: OutlineSchema.parent == parent, sortBy: [FetchSort(OutlineSchema.order)], limit: limit,
            offset: offset)
        let context = self.context
        return try OutlineStore.reading("reading the children of an item") { try context.fetchIDs(request).map(context.object(with:)) }
    }

    /// Reads the values of `objects` (those not read yet), in batches: before an edit
    /// changes them, inside an undo group that cannot fail.
    func load(_ objects: ArraySlice<ManagedObject>) throws(OutlineError) {
        guard !objects.isEmpty else { return }
        let context = self.context
        try OutlineStore.reading("reading items") { try context.prefetch(Array(objects)) }
    }

    /// An item's position among its siblings, from 0 (0 for the root).
    func position(of object: ManagedObject) throws(OutlineError) -> Int {
        guard !isRoot(object) else { return 0 }
        return try siblings(of: object).index
    }

    /// Whether `object` is the root.
    func isRoot(_ object: ManagedObject) -> Bool {
        object.objectID == rootID
    }

    /// Runs a read of the store, turning its errors into ``OutlineError``.
    static func reading<T>(_ action: String, _ body: () throws -> T) throws(OutlineError) -> T {
        do {
            return try body()
        } catch {
            throw OutlineError.storeFailed(error, while: action)
        }
    }
}

// MARK: - Writing

extension OutlineStore {
    /// Runs the changes of one user action as one named undo group. The changes themselves
    /// cannot fail: every edit reads and checks first, then writes.
    func undoable<T>(_ name: String, _ changes: () -> T) -> T {
        guard let undoManager = context.undoManager else { return changes() }
        undoManager.beginUndoGrouping(named: name)
        defer { undoManager.endUndoGrouping() }
        return changes()
    }

    /// Inserts an item with its values. Only the insert is recorded for undo: undoing it
    /// removes the object, and redoing brings the same object back with all its values, so
    /// recording each value too would only cost memory (a million of them on a big import).
    func insertItem(_ item: OutlineItem, under parent: ManagedObject, at order: Int, stamped date: Date) -> ManagedObject {
        let object = context.insert(OutlineSchema.entityName)
        let fill = {
            object[OutlineSchema.title] = item.title
            object[OutlineSchema.note] = item.note
            object[OutlineSchema.order] = order
            object[OutlineSchema.created] = date
            object[OutlineSchema.modified] = date
            object[OutlineSchema.attributes] = StoredAttributes.encode(item.attributes)
            object[OutlineSchema.status] = item.status?.rawValue
            object[OutlineSchema.parent] = parent
        }
        if let undoManager = context.undoManager { undoManager.withoutRegistration(fill) } else { fill() }
        return object
    }

    /// Order keys for `count` new items at `index` of `siblings` (`SiblingOrder`): keys
    /// between the two neighbours, which are read first; or, when they leave no room, the
    /// whole list is read and numbered afresh around the new items when the placement is
    /// applied (inside the edit's undo group).
    func placement(of count: Int, at index: Int, under parent: ManagedObject) throws(OutlineError) -> Placement {
        // The two neighbours alone, read from the index; the whole list only when it is
        // numbered afresh.
        let start = max(0, index - 1)
        let neighbours = try children(of: parent, from: start, limit: index - start + 1)
        // Their keys alone: a neighbour's long note stays unread.
        let context = self.context
        let keys = try OutlineStore.reading("reading order keys") {
            try context.values(of: neighbours.map(\.objectID), reading: [OutlineSchema.order]).map { values in
                values.flatMap { Int.fromStoreValue($0.values[0]) } ?? 0
            }
        }
        let before = index > 0 ? keys.first : nil
        let after = keys.count > index - start ? keys[index - start] : nil
        if let keys = SiblingOrder.keys(count, between: before, and: after) { return Placement(keys: keys, renumbered: []) }
        return try placement(of: count, at: index, among: children(of: parent))
    }

    /// ``placement(of:at:under:)`` among `siblings`, all the parent's children in order.
    func placement(of count: Int, at index: Int, among siblings: [ManagedObject]) throws(OutlineError) -> Placement {
        try load(siblings[max(0, index - 1)..<min(siblings.count, index + 1)])
        let before = index > 0 ? siblings[index - 1][OutlineSchema.order] : nil
        let after = index < siblings.count ? siblings[index][OutlineSchema.order] : nil
        if let keys = SiblingOrder.keys(count, between: before, and: after) { return Placement(keys: keys, renumbered: []) }
        try load(siblings[...])
        let renumbered = siblings.enumerated().map { position, sibling in
            (sibling, SiblingOrder.spaced(position < index ? position : position + count))
        }
        return Placement(keys: (index..<(index + count)).map(SiblingOrder.spaced), renumbered: renumbered)
    }
}

/// Where new items go among their siblings (``OutlineStore/placement(of:at:among:)``).
struct Placement {
    /// The new items' order keys, in order.
    let keys: [Int]
    /// The siblings numbered afresh, with their keys (none when the neighbours had room).
    let renumbered: [(object: ManagedObject, key: Int)]

    /// Gives the renumbered siblings their keys, and returns the new items' keys.
    func apply() -> [Int] {
        for (object, key) in renumbered where object[OutlineSchema.order] != key { object[OutlineSchema.order] = key }
        return keys
    }
}
