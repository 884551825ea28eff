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
        return undoable(ActionName.importItems(tree.count)) {
            if takesHead {
                parentObject[OutlineSchema.opmlVersion] = tree.opmlVersion
                parentObject[OutlineSchema.head] = StoredAttributes.encode(tree.head)
                parentObject[OutlineSchema.attributes] = StoredAttributes.encode(tree.bodyAttributes)
            }
            shift(siblings, index..<siblings.count, by: topLevelCount)
            let date = now()
            var topLevel: [ObjectID] = []
            topLevel.reserveCapacity(topLevelCount)
            // The open path: each level's object and the order of its next child.
            var path: [(object: ManagedObject, next: Int)] = [(parentObject, index)]
            for visit in tree.depthFirst() {
                path.removeSubrange(visit.depth...)
                let object = insertItem(visit.item, under: path[visit.depth - 1].object, at: path[visit.depth - 1].next, stamped: date)
                path[visit.depth - 1].next += 1
                if visit.depth == 1 { topLevel.append(object.objectID) }
                path.append((object, 0))
            }
            return topLevel
        }
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
    ///   ``OutlineFormatError``); the document is unchanged then.
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
