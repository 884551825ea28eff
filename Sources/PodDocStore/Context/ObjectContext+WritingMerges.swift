// MARK: - Writing a merge to the store as rows

extension ObjectContext {
    /// A merge as ``save(applying:storeMetadata:note:)`` wrote it: what it changed, and what
    /// the objects held before.
    public struct WrittenMerge: Sendable {
        /// What the merge changed.
        public let summary: RevertSummary
        /// What the objects it changed held before, by entity and row id: applied as changes
        /// of a context, it takes the merge back.
        let before: [String: [Int64: PastState.Object]]
    }

    /// Writes a merge worked out by ``CopyMerge/plan(mine:theirs:trees:latest:preferring:choices:twoWay:base:)``
    /// to the store as one save of this root context, with `note` (give it the merge's
    /// record, `SaveNote(merge: merge.record)`) and `storeMetadata` in the same transaction.
    ///
    /// The objects go to SQLite as rows: each is read, changed and written in one pass,
    /// never made a managed object of a context. A merge of 100,000 objects through
    /// ``apply(_:)`` and ``save(storeMetadata:note:)`` holds each object in the context and
    /// again in the save; here it holds only the merge's values. Objects registered in this
    /// context, and in the contexts below it, take the saved values as from a save made
    /// elsewhere (a context below hears of it on its own queue).
    ///
    /// Nothing is recorded for undo here: pass the result to
    /// ``ObjectUndoManager/registerRevert(of:)`` of the context whose undo manager the user
    /// drives.
    ///
    /// - Precondition: a root context, and ``CopyMerge/canApply``.
    /// - Throws: ``StoreError``: `.validation` when this context has unsaved changes (the
    ///   merge was worked out from what the store holds: save them first), `.corrupt` when the
    ///   merge puts back an object it does not hold whole, and as `save()` does otherwise. The
    ///   store is then unchanged.
    public func save(applying merge: CopyMerge, storeMetadata: [String: String] = [:], note: SaveNote) throws -> WrittenMerge {
        preconditionOnQueue()
        precondition(merge.canApply, "a merge with conflicts and no preference is not written")
        guard case .store(let store) = parent else { preconditionFailure("only a root context writes a merge to the store") }
        processPendingChanges()
        guard changes.isEmpty && stagedBatches.isEmpty else {
            throw StoreError(
                .validation,
                "Context '\(name)' has unsaved changes; a merge is worked out from what the store holds, so save them first and work the merge out again."
            )
        }
        var (writing, before, summary) = try changeSet(reaching: merge.targets, in: store)
        writing.storeMetadata = storeMetadata
        writing.note = note
        try writing.validateRequiredAttributes(model)
        let outcome = try store.write(writing)
        // Every context of the stack learns of it as of a save made elsewhere.
        let saved = SaveNotification(changes: writing, outcome: outcome, contextName: name, wroteToStore: true, model: model)
        mergeChanges(from: saved)
        if hasSaveObservers { publish(saved) }
        for child in liveChildren() { child.deliver(saved, as: .storeDidSave) }
        return WrittenMerge(summary: summary, before: before)
    }

    /// The change set that makes the store's objects what `targets` say, read from `store`
    /// (every row once, in id order), with what those objects held before.
    private func changeSet(
        reaching targets: [String: [Int64: PastState.Object]], in store: PersistentStore
    ) throws -> (ChangeSet, [String: [Int64: PastState.Object]], RevertSummary) {
        var changes = ChangeSet(policy: _mergePolicy, source: name, sourceID: ObjectIdentifier(self), pushNumber: 0)
        var before: [String: [Int64: PastState.Object]] = [:]
        var summary = RevertSummary()
        for entity in targets.keys.sorted() {
            let objects = targets[entity]!
            let layout = model.layout(entity)
            let ids = objects.keys.sorted()
            var held: [Int64: PastState.Object] = [:]
            held.reserveCapacity(ids.count)
            // A slice of rows at a time: the rows read are let go as the change set grows.
            for start in stride(from: 0, to: ids.count, by: MergePlanner.rowsAtOnce) {
                let slice = ids[start..<min(start + MergePlanner.rowsAtOnce, ids.count)]
                let stored = try store.rows(for: slice.map { .permanent(entity: entity, rowID: $0) }, entity: layout)
                let rows = Dictionary(stored.map { ($0.id.rowID!, $0) }, uniquingKeysWith: { first, _ in first })
                for id in slice {
                    let objectID = ObjectID.permanent(entity: entity, rowID: id)
                    switch (objects[id]!, rows[id]) {
                    case (.absent, nil):
                        continue
                    case (.absent, let row?):
                        changes.deleted.append(
                            PushedObject(
                                id: objectID, row: row.row, changedFields: FieldSet(), snapshot: row.row, snapshotVersion: row.version))
                        held[id] = .present(fields: MergePlanner.fields(of: row.row, layout, translate: { $0 }), whole: true)
                        summary.deleted += 1
                    case (.present(let fields, _), let row?):
                        var new = row.row
                        var changed = FieldSet()
                        var old: [Int: FieldValue] = [:]
                        for (field, value) in fields where new[field: field] != value {
                            old[field] = new[field: field]
                            new[field: field] = value
                            changed.insert(field)
                        }
                        guard !changed.isEmpty else { continue }
                        _ = changes.appendUpdated(
                            PushedObject(id: objectID, row: new, changedFields: changed, snapshot: row.row, snapshotVersion: row.version),
                            origin: nil)
                        held[id] = .present(fields: old, whole: false)
                        summary.updated += 1
                    case (.present(let fields, let whole), nil):
                        guard whole else {
                            throw StoreError(
                                .corrupt,
                                "\(entity) \(id) exists in the merged copy but only some of its values are known; the store cannot put it back."
                            )
                        }
                        var new = layout.defaultRow
                        for (field, value) in fields { new[field: field] = value }
                        changes.inserted.append(
                            PushedObject(
                                id: objectID, row: new, changedFields: FieldSet(0..<layout.fieldCount), snapshot: nil, snapshotVersion: 0))
                        held[id] = .absent
                        summary.inserted += 1
                    }
                }
            }
            if !held.isEmpty { before[entity] = held }
        }
        return (changes, before, summary)
    }
}

extension ObjectUndoManager {
    /// Records, in the current group, that undoing it takes back a merge written with
    /// ``ObjectContext/save(applying:storeMetadata:note:)``: the objects it changed get back
    /// what they held before, as changes of this undo manager's context (which its next save
    /// writes); redo makes the merge's changes again the same way.
    ///
    /// ```swift
    /// let written = try root.save(applying: merge, note: SaveNote(merge: merge.record))
    /// undo.group("Merge Notes-laptop") { undo.registerRevert(of: written) }
    /// ```
    public func registerRevert(of merge: ObjectContext.WrittenMerge) {
        guard !merge.before.isEmpty else { return }
        register(.applyTargets(merge.before, describing: "before the merge"))
    }
}
