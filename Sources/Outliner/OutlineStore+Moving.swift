import OutlineInterchange
import PodDocStore

// MARK: - Moving

extension OutlineStore {
    /// Moves an item, with everything below it, under `parent` at `index` among the
    /// parent's other children (appended when nil). Undo: `Move "title"`. Moving an item to
    /// where it already is records nothing.
    ///
    /// The move itself changes one item (its parent and its order key), whatever the size of
    /// the subtree and of the sibling lists; checking that the target is not inside the item
    /// walks up from the target in one query.
    ///
    /// - Throws: ``OutlineError``: `notFound`; `rootItem` for the root; `moveIntoItself`
    ///   when `parent` is the item or lies below it; `invalidArgument` for an index outside
    ///   0…(number of the parent's other children).
    public func move(_ id: ObjectID, under parent: ObjectID, at index: Int? = nil) throws(OutlineError) {
        let item = try object(id)
        guard !isRoot(item) else { throw OutlineError.rootItem("moved") }
        let target = try object(parent)
        try checkNotInside(item, target)
        let name = ActionName.move(item[OutlineSchema.title])
        guard target === item[OutlineSchema.parent] else {
            // To another parent: its two new neighbours are read from the index, as for an add.
            let index = try checkedInsertionIndex(index, count: childCount(of: target), in: target)
            let placement = try placement(of: 1, at: index, under: target)
            return undoable(name) {
                item[OutlineSchema.parent] = target
                item[OutlineSchema.order] = placement.apply()[0]
                item[OutlineSchema.modified] = now()
            }
        }
        // Among its siblings: its place is a count in the index, unless a sibling shares its
        // order key (then the list is read to tell them apart).
        guard let oldIndex = try uniquePosition(of: item, under: target) else {
            let old = try siblings(of: item)
            let others = old.list.filter { $0 !== item }
            let index = try checkedInsertionIndex(index, count: others.count, in: target)
            return try relocate(item, from: old.index, to: target, others, at: index, as: name)
        }
        let index = try checkedInsertionIndex(index, count: childCount(of: target) - 1, in: target)
        guard index != oldIndex else { return }
        // The new neighbours in the list that still holds the item: past it, one further on.
        let placement = try placement(of: 1, at: index > oldIndex ? index + 1 : index, under: target)
        undoable(name) {
            item[OutlineSchema.order] = placement.apply()[0]
            item[OutlineSchema.modified] = now()
        }
    }

    /// The item's position among the children of `parent` (its parent), counted in the
    /// index, or nil when another child has the same order key.
    private func uniquePosition(of item: ManagedObject, under parent: ManagedObject) throws(OutlineError) -> Int? {
        try load([item][...])
        let key = item[OutlineSchema.order]
        let context = self.context
        return try OutlineStore.reading("counting the items before an item") {
            let same = try context.count(
                for: FetchRequest(OutlineSchema.entityName, where: OutlineSchema.parent == parent && OutlineSchema.order == key))
            guard same == 1 else { return nil }
            return try context.count(
                for: FetchRequest(OutlineSchema.entityName, where: OutlineSchema.parent == parent && OutlineSchema.order < key))
        }
    }

    /// Makes an item the last child of the sibling before it. Undo: `Indent "title"`.
    ///
    /// - Throws: ``OutlineError``: `notFound`; `rootItem`; `cannotIndent` for the first
    ///   item of a list.
    public func indent(_ id: ObjectID) throws(OutlineError) {
        let item = try object(id)
        guard !isRoot(item) else { throw OutlineError.rootItem("indented") }
        let (siblings, position) = try siblings(of: item)
        guard position > 0 else {
            throw OutlineError(
                .cannotIndent,
                "Cannot indent \(ActionName.quoted(item[OutlineSchema.title])): it is the first item of its list, so there is no item above it to go under."
            )
        }
        let newParent = siblings[position - 1]
        let newSiblings = try children(of: newParent)
        try relocate(
            item, from: position, to: newParent, newSiblings, at: newSiblings.count,
            as: ActionName.indent(item[OutlineSchema.title]))
    }

    /// Makes an item the next sibling of its parent; the items after it stay where they are.
    /// Undo: `Outdent "title"`.
    ///
    /// - Throws: ``OutlineError``: `notFound`; `rootItem`; `cannotOutdent` for a
    ///   top-level item.
    public func outdent(_ id: ObjectID) throws(OutlineError) {
        let item = try object(id)
        guard !isRoot(item) else { throw OutlineError.rootItem("outdented") }
        guard let parent = item[OutlineSchema.parent], !isRoot(parent), let grandparent = parent[OutlineSchema.parent] else {
            throw OutlineError(
                .cannotOutdent, "Cannot outdent \(ActionName.quoted(item[OutlineSchema.title])): it is already at the top level.")
        }
        let position = try siblings(of: item).index
        let newSiblings = try children(of: grandparent)
        guard let parentIndex = newSiblings.firstIndex(where: { $0 === parent }) else {
            throw OutlineError.damaged("\(parent.objectID) is not among the children of its own parent")
        }
        try relocate(
            item, from: position, to: grandparent, newSiblings, at: parentIndex + 1,
            as: ActionName.outdent(item[OutlineSchema.title]))
    }

    // MARK: - Internals

    /// The children of the item's parent, the item included, in order, and the item's index
    /// among them.
    func siblings(of item: ManagedObject) throws(OutlineError) -> (list: [ManagedObject], index: Int) {
        guard let parent = item[OutlineSchema.parent] else {
            throw OutlineError.damaged("\(item.objectID) has no parent but is not the root")
        }
        let siblings = try children(of: parent)
        guard let index = siblings.firstIndex(where: { $0 === item }) else {
            throw OutlineError.damaged("\(item.objectID) is not among the children of its own parent")
        }
        return (siblings, index)
    }

    /// Refuses a move of `item` under `target` when `target` is `item` or lies below it.
    private func checkNotInside(_ item: ManagedObject, _ target: ManagedObject) throws(OutlineError) {
        let above = try OutlineStore.reading("walking up the outline") {
            try context.ancestorIDs(of: target.objectID, following: OutlineSchema.parent)
        }
        guard target === item || above.contains(item.objectID) else { return }
        let title = ActionName.quoted(item[OutlineSchema.title])
        let place = target === item ? "under itself" : "into \(ActionName.quoted(target[OutlineSchema.title])), which is inside it"
        throw OutlineError(.moveIntoItself, "Cannot move \(title) \(place). Move it somewhere outside its own subtree.")
    }

    /// Takes `item` (at `oldIndex` among its siblings) and puts it under `parent` at `index`
    /// of `newSiblings` (which does not hold it), with an order key between its new
    /// neighbours' (``placement(of:at:among:)``). Records nothing when the item would stay
    /// where it is.
    private func relocate(
        _ item: ManagedObject, from oldIndex: Int, to parent: ManagedObject,
        _ newSiblings: [ManagedObject], at index: Int, as actionName: String
    ) throws(OutlineError) {
        let sameParent = item[OutlineSchema.parent] === parent
        guard !(sameParent && index == oldIndex) else { return }
        let placement = try placement(of: 1, at: index, among: newSiblings)
        undoable(actionName) {
            if !sameParent { item[OutlineSchema.parent] = parent }
            item[OutlineSchema.order] = placement.apply()[0]
            item[OutlineSchema.modified] = now()
        }
    }
}
