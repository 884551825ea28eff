import Foundation
import OutlineInterchange
import PodDocStore

// MARK: - Exporting

extension OutlineStore {
    /// The outline as an `OutlineTree`, ready for any interchange format.
    ///
    /// From the root (the default): every item, with the document's head fields, OPML
    /// version and `<body>` attributes. From an item: that item, with everything below it,
    /// as the one top-level item of a tree without head fields.
    ///
    /// ```swift
    /// let opml = try outline.exportOutline().opmlData()
    /// ```
    ///
    /// - Throws: ``OutlineError``: `notFound`, `storeFailed`, or `damagedDocument` when an
    ///   item's stored attributes cannot be read.
    public func exportOutline(from id: ObjectID? = nil) throws(OutlineError) -> OutlineTree {
        let start = try object(id ?? rootID)
        let subtree = try loadSubtree(below: start.objectID, holding: OutlineItem(start), maxDepth: nil)
        var tree: OutlineTree
        var top: OutlineTree.NodeID
        if isRoot(start) {
            tree = OutlineTree(
                opmlVersion: start[OutlineSchema.opmlVersion],
                head: try StoredAttributes.decode(start[OutlineSchema.head], "head fields"),
                bodyAttributes: subtree.entries[0].item.attributes)
            top = tree.root
        } else {
            tree = OutlineTree()
            top = tree.appendChild(subtree.entries[0].item, to: tree.root)
        }
        var path = [top]
        subtree.walk { entry, depth, _ in
            path.removeSubrange(depth...)
            path.append(tree.appendChild(subtree.entries[entry].item, to: path[depth - 1]))
        }
        return tree
    }

    /// The outline (or the subtree of `id`) written in `format`; see
    /// ``exportOutline(from:)``.
    ///
    /// - Throws: ``OutlineError``: as ``exportOutline(from:)``, and `exportFailed` when the
    ///   format cannot hold the outline (a character XML cannot carry, for OPML).
    public func exportOutline(as format: OutlineFormat, from id: ObjectID? = nil) throws(OutlineError) -> Data {
        let tree = try exportOutline(from: id)
        do {
            return try tree.data(format: format)
        } catch {
            throw OutlineError.exportFailed(error)
        }
    }
}
