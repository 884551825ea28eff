import Foundation
import OutlineInterchange
import PodDocStore

// MARK: - Importing

extension OutlineStore {
    /// Adds every item of `tree` under `parent` (the root when nil), its top-level items at
    /// `index` among the parent's children (appended when nil). Undo: `Import 1,329 items`.
    ///
    /// Importing at the top level of a document that has no items yet also takes the
    /// tree's head fields, OPML version and `<body>` attributes, so that exporting the
    /// document gives the tree back.
    ///
    /// The tree is walked with an explicit stack: any depth imports.
    ///
    /// - Returns: the IDs of the new top-level items.
    /// - Throws: ``OutlineError``: `notFound` for a missing parent, `invalidArgument` for
    ///   an index outside 0…(number of children). Nothing is imported then.
    @discardableResult
    public func importOutline(_ tree: OutlineTree, under parent: ObjectID? = nil, at index: Int? = nil) throws(OutlineError) -> [ObjectID] {
        let parentObject = try object(parent ?? rootID)
        let siblings = try children(of: parentObject)
        let index = try checkedInsertionIndex(index, count: siblings.count, in: parentObject)
        let takesHead = isRoot(parentObject) && siblings.isEmpty
        let topLevelCount = tree.children(of: tree.root).count
        let placement = try placement(of: topLevelCount, at: index, among: siblings)
        return undoable(ActionName.importItems(tree.count)) {
            if takesHead {
                parentObject[OutlineSchema.opmlVersion] = tree.opmlVersion
                parentObject[OutlineSchema.head] = StoredAttributes.encode(tree.head)
                parentObject[OutlineSchema.attributes] = StoredAttributes.encode(tree.bodyAttributes)
            }
            let topLevelKeys = placement.apply()
            let date = now()
            var topLevel: [ObjectID] = []
            topLevel.reserveCapacity(topLevelCount)
            // The open path: each level's object and the index of its next child.
            var path: [(object: ManagedObject, next: Int)] = [(parentObject, 0)]
            for visit in tree.depthFirst() {
                path.removeSubrange(visit.depth...)
                let next = path[visit.depth - 1].next
                let key = visit.depth == 1 ? topLevelKeys[next] : SiblingOrder.spaced(next)
                let object = insertItem(visit.item, under: path[visit.depth - 1].object, at: key, stamped: date)
                path[visit.depth - 1].next += 1
                if visit.depth == 1 { topLevel.append(object.objectID) }
                path.append((object, 0))
            }
            return topLevel
        }
    }

    /// Adds every item of `tree` at the end of `parent`'s children (the root when nil) as
    /// rows, the way a large import should: the items never become objects in the context.
    /// They are staged as one batch insert (`BatchUpsert.init(inserting:model:)`), `save`
    /// writes them (with whatever else the context holds) to the store in one transaction,
    /// and contexts learn of them from that save, as of any other. Undo: `Import 1,329
    /// items`, which deletes them again (redo brings them back under the same IDs).
    ///
    /// Importing at the top level of a document that has no items yet also takes the tree's
    /// head fields, OPML version and `<body>` attributes, as ``importOutline(_:under:at:)``
    /// does, in the same save and the same undo group.
    ///
    /// ```swift
    /// let ids = try await outline.importOutline(tree, under: nil) {
    ///     try await document.autosave()   // main → root → disk
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - tree: The outline to import.
    ///   - parent: The item the tree's top-level items go under; nil for the top level.
    ///   - save: Saves the context through to the store (a document's `autosave()`).
    /// - Returns: the IDs of the new top-level items.
    /// - Throws: ``OutlineError``: `notFound` for a missing parent, and nothing is staged;
    ///   `storeFailed` when the save failed: the items then wait with the context's other
    ///   unsaved changes for its next save, as an edit whose save failed does (undo takes
    ///   them out).
    @discardableResult
    nonisolated(nonsending) public func importOutline(
        _ tree: consuming OutlineTree, under parent: ObjectID? = nil, savingWith save: () async throws -> Void
    ) async throws(OutlineError) -> [ObjectID] {
        let parentObject = try object(parent ?? rootID)
        // The new items go after the last child: the greatest order key.
        let request = FetchRequest(
            OutlineSchema.entityName, where: OutlineSchema.parent == parentObject,
            sortBy: [FetchSort(OutlineSchema.order, ascending: false)], limit: 1)
        let context = self.context
        let last = try OutlineStore.reading("reading the children of an item") {
            try context.fetchIDs(request).first.map { try context.values(of: [$0], reading: [OutlineSchema.order]) }
        }
        let lastKey = last?.first??.values.first.flatMap { Int.fromStoreValue($0) }
        let takesHead = isRoot(parentObject) && last == nil
        let (count, opmlVersion, head, bodyAttributes) = (tree.count, tree.opmlVersion, tree.head, tree.bodyAttributes)
        // Made off the caller's actor (a million rows take a second); the rows hold what the
        // save needs, so the tree goes with them.
        var parts = try await Self.rows(
            of: consume tree, model: context.store.model, under: parentObject.objectID, after: lastKey, stamped: now())
        var topLevel: [ObjectID] = []
        for index in parts.indices {
            topLevel += parts[index].topLevel.map { parts[index].batch.temporaryID(ofRow: $0) }
        }
        // From here the context holds the only copy of the rows, and lets them go off this
        // thread after the save.
        let receipts: [BatchUpsertReceipt]
        do {
            let staged = parts.map(\.batch)
            parts = []
            receipts = try OutlineStore.reading("staging the imported items") { try staged.map { try context.upsert($0) } }
        }
        undoable(ActionName.importItems(count)) {
            if takesHead {
                parentObject[OutlineSchema.opmlVersion] = opmlVersion
                parentObject[OutlineSchema.head] = StoredAttributes.encode(head)
                parentObject[OutlineSchema.attributes] = StoredAttributes.encode(bodyAttributes)
            }
            context.undoManager?.registerDeletion(of: topLevel)
        }
        do {
            try await save()
        } catch {
            throw OutlineError.storeFailed(error, while: "saving \(ActionName.items(count))")
        }
        guard receipts.allSatisfy({ $0.result != nil }) else {
            throw OutlineError(
                .storeFailed, "The imported items were not saved: the save ended without writing them. Save the document to write them.")
        }
        return topLevel.map(context.resolve)
    }

    /// The rows of `tree`'s items in depth-first order, each pointing at its parent's row
    /// (top-level items at `parent`, with order keys after `lastKey`), and the indexes of
    /// the top-level rows, in parts that follow each other: a large outline's top-level
    /// items are split in two, each half's rows made on a thread of its own.
    @concurrent
    private static func rows(
        of tree: consuming OutlineTree, model: ObjectModel, under parent: ObjectID, after lastKey: Int?, stamped date: Date
    ) async throws(OutlineError) -> [(batch: BatchUpsert, topLevel: [Int])] {
        let sizes = tree.topLevelSubtreeSizes
        guard let topLevelKeys = SiblingOrder.keys(sizes.count, between: lastKey, and: nil) else {
            throw OutlineError(
                .invalidArgument,
                "Cannot add \(sizes.count) items after the last child: its order key is too close to the largest there is. Move the last child up one place, then import again."
            )
        }
        let shared = consume tree
        let ranges = halves(of: sizes, smallest: rowsWorthASecondThread)
        do {
            guard ranges.count == 2 else {
                return [
                    try rows(of: shared, topLevel: ranges[0], sizes: sizes, keys: topLevelKeys, model: model, under: parent, stamped: date)
                ]
            }
            async let second = rows(
                of: shared, topLevel: ranges[1], sizes: sizes, keys: topLevelKeys, model: model, under: parent, stamped: date)
            let first = try rows(
                of: shared, topLevel: ranges[0], sizes: sizes, keys: topLevelKeys, model: model, under: parent, stamped: date)
            return [first, try await second]
        } catch {
            throw OutlineError.storeFailed(error, while: "preparing the import")
        }
    }

    /// From this many items on, an import makes its rows on two threads.
    static let rowsWorthASecondThread = 20_000

    /// The top-level positions split where the items before and after are closest to half
    /// of them; one range for fewer than `smallest` items (or a single top-level item).
    static func halves(of sizes: [Int], smallest: Int) -> [Range<Int>] {
        let total = sizes.reduce(0, +)
        guard total >= smallest, sizes.count > 1 else { return [0..<sizes.count] }
        var before = 0
        var split = 0
        while split < sizes.count - 1, before + sizes[split] <= total / 2 {
            before += sizes[split]
            split += 1
        }
        // One more item, when that brings the first part closer to half.
        if split < sizes.count - 1, abs(total - 2 * (before + sizes[split])) < abs(total - 2 * before) { split += 1 }
        split = max(split, 1)
        return [0..<split, split..<sizes.count]
    }

    /// The rows of the subtrees of the top-level items at `topLevel` and the indexes of their
    /// top-level rows; `keys` holds the order keys of all top-level items.
    private static func rows(
        of tree: OutlineTree, topLevel range: Range<Int>, sizes: [Int], keys topLevelKeys: [Int], model: ObjectModel,
        under parent: ObjectID, stamped date: Date
    ) throws -> (batch: BatchUpsert, topLevel: [Int]) {
        var batch = try BatchUpsert(inserting: OutlineSchema.entityName, model: model)
        batch.reserveCapacity(sizes[range].reduce(0, +))
        var topLevel: [Int] = []
        // The open path: each level's row (nil for `parent`) and the index of its next child.
        var path: [(row: Int?, next: Int)] = [(nil, range.lowerBound)]
        for visit in tree.depthFirst(topLevel: range) {
            path.removeSubrange(visit.depth...)
            let level = path[visit.depth - 1]
            path[visit.depth - 1].next += 1
            let index = batch.count
            batch.append { row in
                row[OutlineSchema.title] = visit.item.title
                row[OutlineSchema.note] = visit.item.note
                row[OutlineSchema.order] = visit.depth == 1 ? topLevelKeys[level.next] : SiblingOrder.spaced(level.next)
                row[OutlineSchema.created] = date
                row[OutlineSchema.modified] = date
                row[OutlineSchema.attributes] = StoredAttributes.encode(visit.item.attributes)
                if let status = visit.item.status { row[OutlineSchema.status] = status.rawValue }
                row[OutlineSchema.parent] = level.row.map(BatchReference.row) ?? .object(parent)
            }
            if visit.depth == 1 { topLevel.append(index) }
            path.append((index, 0))
        }
        return (batch, topLevel)
    }

    /// Reads `data` as `format` and imports it; see ``importOutline(_:under:at:)``.
    ///
    /// ```swift
    /// do {
    ///     try outline.importOutline(Data(contentsOf: url), as: .opml)
    /// } catch {
    ///     print(error)  // OPML: not well-formed XML at line 12, column 5: …; nothing was imported
    /// }
    /// ```
    ///
    /// - Throws: ``OutlineError``: `importFailed` when the data is not a valid outline in
    ///   that format (the message gives the line and column, the cause is the
    ///   `OutlineFormatError`); the document is unchanged then.
    @discardableResult
    public func importOutline(
        _ data: Data, as format: OutlineFormat, under parent: ObjectID? = nil, at index: Int? = nil
    ) throws(OutlineError) -> [ObjectID] {
        let tree: OutlineTree
        do {
            tree = try OutlineTree(data: data, format: format)
        } catch {
            throw OutlineError.importFailed(error)
        }
        return try importOutline(tree, under: parent, at: index)
    }
}
