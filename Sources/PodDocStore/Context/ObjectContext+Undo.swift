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
        case let .setField(id, field, value):
            let object = self.object(with: id)
            if object.state != .deleted { writeField(object, field, value) }
        }
    }

    /// Brings a deleted object back, as the same instance: to its exact earlier state when
    /// the delete was not saved, or as an insert under its old ID when it was.
    private func restore(_ deleted: DeletedObject) {
        let object = deleted.object
        let id = object.objectID
        // Objects it pointed to may have been saved since the delete: point to their
        // permanent IDs, or fetches (which compare permanent IDs) would not find it.
        var row = deleted.row
        row.resolveRefs(resolve)
        var snapshot = deleted.snapshot
        snapshot?.resolveRefs(resolve)
        object.edits &+= 1
        if changed[id]?.state == .deleted {
            untrackChange(object)
            object.snapshot = snapshot
            object.snapshotVersion = deleted.snapshotVersion
            object.changedFields = deleted.changedFields
            object.state = deleted.previousState
            object.current = deleted.previousState == .clean ? nil : row
            if object.state != .clean { trackChange(object) }
        } else {
            object.context = self
            registry[id] = object
            object.snapshot = nil
            object.snapshotVersion = 0
            object.current = row
            object.changedFields = FieldSet(0..<object.layout.fieldCount)
            object.state = .inserted
            trackChange(object)
        }
        announceInsert(object)
        _undoManager?.register(.remove(id))
    }
}
