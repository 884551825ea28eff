import OutlineInterchange
import PodDocStore

// MARK: - Deleting

extension OutlineStore {
    /// Deletes an item and everything below it. Undo: `Delete "title"`, or
    /// `Delete "title" and 12 items` when it had descendants; undoing brings every item
    /// back under its old ID.
    ///
    /// The subtree is found with one recursive query and its rows read in batches, so a
    /// chain a hundred thousand items deep is deleted like a flat list.
    ///
    /// - Returns: how many items were deleted, the item included.
    /// - Throws: ``OutlineError``: `notFound`, or `rootItem` for the root.
    @discardableResult
    public func delete(_ id: ObjectID) throws(OutlineError) -> Int {
        let item = try object(id)
        guard !isRoot(item) else { throw OutlineError.rootItem("deleted") }
        _ = try siblings(of: item)  // it is where its parent says
        let title = item[OutlineSchema.title]
        return undoable(ActionName.delete(title, descendants: 0)) {
            let deleted = context.delete(item)
            context.undoManager?.setActionName(ActionName.delete(title, descendants: deleted - 1))
            return deleted
        }
    }
}
