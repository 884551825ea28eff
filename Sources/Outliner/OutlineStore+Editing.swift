import OutlineInterchange
import PodDocStore

// MARK: - Adding

extension OutlineStore {
    /// Adds an item under `parent`, at `index` among its children (appended when nil).
    /// Undo: `Add "title"`.
    ///
    /// ```swift
    /// let groceries = try outline.add(OutlineItem(title: "Groceries"), under: outline.rootID)
    /// try outline.add(OutlineItem(title: "Milk"), under: groceries, at: 0)
    /// ```
    ///
    /// - Returns: the new item's ID.
    /// - Throws: ``OutlineError``: `notFound` for a missing parent, `invalidArgument` for an
    ///   index outside 0…(number of children).
    @discardableResult
    public func add(_ item: OutlineItem, under parent: ObjectID, at index: Int? = nil) throws(OutlineError) -> ObjectID {
        let parentObject = try object(parent)
        let index = try checkedInsertionIndex(index, count: childCount(of: parentObject), in: parentObject)
        let placement = try placement(of: 1, at: index, under: parentObject)
        return undoable(ActionName.add(item.title)) {
            insertItem(item, under: parentObject, at: placement.apply()[0], stamped: now()).objectID
        }
    }

    /// `index`, or `count` when nil, after checking it is a place to insert at.
    func checkedInsertionIndex(_ index: Int?, count: Int, in parent: ManagedObject) throws(OutlineError) -> Int {
        guard let index else { return count }
        guard (0...count).contains(index) else {
            let holder =
                isRoot(parent)
                ? "the outline has \(ActionName.items(count)) at the top level"
                : "\(ActionName.quoted(parent[OutlineSchema.title])) has \(count) \(count == 1 ? "child" : "children")"
            throw OutlineError(.invalidArgument, "Cannot insert at position \(index): \(holder); choose a position from 0 to \(count).")
        }
        return index
    }
}

// MARK: - Changing an item

extension OutlineStore {
    /// Gives an item a new title. Undo: `Rename "old" to "new"`. Nothing is recorded when
    /// the title is already `title`.
    ///
    /// - Throws: ``OutlineError``: `notFound`, or `rootItem` for the root.
    public func rename(_ id: ObjectID, to title: String) throws(OutlineError) {
        let object = try object(id)
        guard !isRoot(object) else { throw OutlineError.rootItem("renamed") }
        let old = object[OutlineSchema.title]
        guard old != title else { return }
        undoable(ActionName.rename(old, to: title)) {
            object[OutlineSchema.title] = title
            object[OutlineSchema.modified] = now()
        }
    }

    /// Marks an item as a task, open or done, or (nil) as no task. Undo: `Mark "title" done`,
    /// `Mark "title" open`, `Unmark "title"`. Nothing is recorded when it has that status.
    ///
    /// - Throws: ``OutlineError``: `notFound`, or `rootItem` for the root.
    public func setStatus(_ id: ObjectID, to status: OutlineStatus?) throws(OutlineError) {
        let object = try object(id)
        guard !isRoot(object) else { throw OutlineError.rootItem("marked") }
        guard object[OutlineSchema.status] != status?.rawValue else { return }
        undoable(ActionName.mark(object[OutlineSchema.title], status)) {
            object[OutlineSchema.status] = status?.rawValue
            object[OutlineSchema.modified] = now()
        }
    }

    /// Sets or removes (nil) an item's note. Undo: `Set note of "title"` or
    /// `Remove note of "title"`. Nothing is recorded when the note is already `note`.
    ///
    /// - Throws: ``OutlineError``: `notFound`, or `rootItem` for the root.
    public func setNote(_ id: ObjectID, to note: String?) throws(OutlineError) {
        let object = try object(id)
        guard !isRoot(object) else { throw OutlineError.rootItem("given a note") }
        guard object[OutlineSchema.note] != note else { return }
        undoable(ActionName.setNote(object[OutlineSchema.title], removing: note == nil)) {
            object[OutlineSchema.note] = note
            object[OutlineSchema.modified] = now()
        }
    }
}
