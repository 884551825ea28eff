// MARK: - Going back to an earlier save

extension ObjectContext {
    /// What ``revert(to:)`` changed.
    public struct RevertSummary: Sendable, Hashable {
        /// Objects put back (deleted since the save).
        public var inserted = 0
        /// Objects given back values they held.
        public var updated = 0
        /// Objects removed (inserted since the save).
        public var deleted = 0

        /// A summary of these counts (nothing changed, by default).
        public init(inserted: Int = 0, updated: Int = 0, deleted: Int = 0) {
            self.inserted = inserted
            self.updated = updated
            self.deleted = deleted
        }
    }

    /// Makes the objects what they were after an earlier save, as changes of this context:
    /// objects inserted since are deleted, objects deleted since come back under their old
    /// IDs, and changed properties take their old values. Each change is recorded for undo,
    /// so undoing gives back the state before; saving makes it a new save.
    ///
    /// Apply it to a context with no unsaved changes that sees what the store holds (save
    /// first): `past` describes the store's saves, not a context's edits. Delete rules are
    /// not applied: everything a delete rule would reach was changed since the save too, and
    /// `past` gives its state.
    ///
    /// ```swift
    /// let past = try store.pastState(after: 12)
    /// let summary = context.revert(to: past)
    /// try context.save()
    /// ```
    ///
    /// - Throws: ``StoreError`` when the store cannot be read, or (`.corrupt`) when `past`
    ///   puts back an object it does not hold whole.
    @discardableResult
    public func revert(to past: PastState) throws -> RevertSummary {
        try apply(past.objects, describing: "after save \(past.save)")
    }

    /// Applies a merge of another copy worked out by ``CopyMerge/plan(mine:theirs:trees:latest:preferring:choices:twoWay:base:)``
    /// from what this context's store holds, as changes of this context (undoable, like
    /// ``revert(to:)``); saving makes it one save. Give the save the merge's record
    /// (`SaveNote(merge: merge.record)`), so that the next merge of either copy starts
    /// from what this one settled.
    ///
    /// - Precondition: ``CopyMerge/canApply``.
    /// - Throws: ``StoreError`` when the store cannot be read.
    @discardableResult
    public func apply(_ merge: CopyMerge) throws -> RevertSummary {
        precondition(merge.canApply, "a merge with conflicts and no preference is not applied")
        return try apply(merge.targets, describing: "in the merged copy")
    }

    /// Makes the objects of `targets` what they say: absent, or holding the fields given.
    func apply(_ targets: [String: [Int64: PastState.Object]], describing state: String) throws -> RevertSummary {
        preconditionOnQueue()
        var summary = RevertSummary()
        var removed: [ManagedObject] = []
        for entity in targets.keys.sorted() {
            let objects = targets[entity]!
            let ids = objects.keys.sorted()
            let existing = Dictionary(
                uniqueKeysWithValues: try sourceRows(for: ids.map { .permanent(entity: entity, rowID: $0) }, entity: entity)
                    .map { ($0.id.rowID!, $0) })
            for id in ids {
                let objectID = ObjectID.permanent(entity: entity, rowID: id)
                switch (objects[id]!, existing[id]) {
                case (.absent, nil):
                    continue
                case (.absent, .some(let row)):
                    removed.append(register(row))
                case (.present(let fields, _), .some(let row)):
                    let object = register(row)
                    let edits = object.edits
                    for field in fields.keys.sorted() { writeField(object, field, fields[field]!) }
                    if object.edits != edits { summary.updated += 1 }
                case (.present(let fields, let whole), nil):
                    guard whole else {
                        throw StoreError(
                            .corrupt,
                            "\(entity) \(id) exists \(state) but only some of its values are known; the store cannot put it back."
                        )
                    }
                    let object = self.object(with: objectID)
                    var row = object.layout.defaultRow
                    for (field, value) in fields { row[field: field] = value }
                    object.context = self
                    object.current = row
                    reinsert(object)
                    announceInsert(object)
                    _undoManager?.register(.remove(objectID))
                    summary.inserted += 1
                }
            }
        }
        // Last, so that objects moved out of them first are not reached by anything.
        for object in removed where object.state != .deleted {
            markDeleted(object)
            summary.deleted += 1
        }
        scheduleProcessing()
        return summary
    }
}
