// MARK: - Applying undo steps

extension ObjectContext {
    /// Reverts one recorded change; the undo manager records the opposite step.
    func revert(_ step: UndoStep) {
        switch step {
        case .remove(let id):
            let object = self.object(with: id)
            if object.state != .deleted { markDeleted(object) }
        case .restore(let deleted):
            restore(deleted)
        case .setField(let id, let field, let value):
            let object = self.object(with: id)
            if object.state != .deleted { writeField(object, field, value) }
        case .delete(let id):
            let id = resolve(id)
            if id.isTemporary {
                // Not written yet: its batch is still staged here (or went with a save that
                // has not written it, and then there is nothing left here to undo).
                unstageBatch { $0.batch.temporaryIDs.values.contains(id) }
            } else if let object = try? existingObject(with: id) {
                delete(object)
            }  // else gone already (deleted elsewhere since): nothing to undo.
        case .restage(let staged):
            stagedBatches.stage(staged)
            // Staged or written by the time it is undone: `.delete` and `.revertBatch` handle both.
            if staged.batch.isInsertOnly {
                for id in staged.batch.temporaryIDs.values { _undoManager?.register(.delete(id)) }
            } else {
                _undoManager?.register(.revertBatch(staged))
            }
        case .applyTargets(let targets, let state):
            // (A target the store no longer reads back is left: the merge's objects are
            // as the store holds them.)
            _ = try? apply(targets, describing: state)
        case .revertBatch(let staged):
            // Still staged here: unstaged. Written: reverted. Else a save carries it and the
            // store has not written it: nothing to undo yet.
            guard !unstageBatch(where: { $0.receipt === staged.receipt }), let written = staged.receipt.written else { break }
            revertWrittenBatch(staged.batch, written.result.created, written.replaced)
        }
    }

    /// Reverts a written keyed batch as changes of this context, each recording its own
    /// reverse: deletes the objects it created (with their delete rules) and puts back the
    /// values it replaced. The objects are read in two queries; ones deleted since are left.
    /// A clean object takes the stored values first, so a context that did not merge the
    /// batch writes the old values back rather than finding them unchanged.
    private func revertWrittenBatch(_ batch: BatchUpsert, _ created: [ObjectID], _ replaced: [ObjectID: [StoreValue]]) {
        func current(_ ids: [ObjectID]) -> [ManagedObject] {
            let rows = (try? sourceRows(for: ids, entity: batch.entityName)) ?? []
            return rows.sorted { $0.id < $1.id }.map(register).filter { $0.state != .deleted }
        }
        for object in current(created) { delete(object) }
        let columns = batch.updateColumns
        for object in current(Array(replaced.keys)) {
            guard let values = replaced[object.objectID] else { continue }
            for (offset, field) in columns.enumerated() { writeField(object, field, .value(values[offset])) }
        }
    }

    /// Unstages the first staged batch that `matches`, so that redo stages it again; false
    /// when no staged batch matches.
    @discardableResult
    private func unstageBatch(where matches: (StagedBatch) -> Bool) -> Bool {
        guard let staged = stagedBatches.unstage(where: matches) else { return false }
        _undoManager?.register(.restage(staged))
        return true
    }

    /// Brings a deleted object back, as the same instance: as a change against its snapshot
    /// when the delete was not saved, or as an insert under its old ID when it was (or when
    /// the parent never had the object).
    private func restore(_ deleted: DeletedObject) {
        let object = deleted.object
        let id = object.objectID
        // Objects it pointed to may have been saved since the delete: point to their
        // permanent IDs, or fetches (which compare permanent IDs) would not find it.
        var row = deleted.row
        row.resolveRefs(resolve)
        object.edits &+= 1
        if changes[id]?.state == .deleted, var snapshot = object.snapshot {
            // The delete is not saved. The snapshot is the one the object has now: an
            // asynchronous save may have given the parent newer values since the delete.
            untrackChange(object)
            snapshot.resolveRefs(resolve)
            object.snapshot = snapshot
            if isBeingPushed(object) {
                // The parent may have applied the delete already: every field is this
                // context's to give back.
                object.changedFields = FieldSet(0..<object.layout.fieldCount)
            } else {
                object.changedFields = deleted.changedFields
                object.changedFields.formUnion(differingFields(row, snapshot))
            }
            object.state = object.changedFields.isEmpty ? .clean : .updated
            object.current = object.state == .clean ? nil : row
            if object.state != .clean { trackChange(object) }
        } else {
            // Saved, or never known to the parent: an insert under its old ID. An object
            // that has taken one of its unique values since (the record imported again) goes,
            // or the insert would break the unique index and every later save would fail;
            // deleting it is recorded too, so redo brings it back.
            if let holder = objectHoldingUniqueValues(of: row, layout: object.layout, besides: id) { delete(holder) }
            object.context = self
            object.current = row
            reinsert(object)
        }
        announceInsert(object)
        _undoManager?.register(.remove(id))
    }

    /// The object, other than `id`, that has one of the unique attribute values of `row`, as
    /// this context sees it; nil when there is none, or when the parent cannot be read (the
    /// save then reports the clash).
    private func objectHoldingUniqueValues(of row: RowData, layout: EntityLayout, besides id: ObjectID) -> ManagedObject? {
        for (field, attribute) in layout.attributes.enumerated() where attribute.isUnique && !row.values[field].isNull {
            let query = Query(layout: layout, predicate: .oneOf(field, [row.values[field]]), sorts: [], limit: nil, offset: 0)
            guard let rows = try? viewRows(query) else { return nil }
            for found in rows where found.id != id {
                let holder = register(found)
                if holder.state != .deleted { return holder }
            }
        }
        return nil
    }
}
