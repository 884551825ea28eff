// MARK: - Receiving a child's save

extension ObjectContext {
    /// Applies a child context's save to this context's memory (on this context's queue).
    ///
    /// Conflicts are found by comparing the child's snapshot of each object with this
    /// context's current values; a difference means the object changed here since the child
    /// read it. Delete rules run again here, for objects the child did not know about.
    func acceptPush(_ changes: ChangeSet) throws -> PushOutcome {
        preconditionOnQueue()
        return try withUndoRecordingSuspended { try applyPush(changes) }
    }

    private func applyPush(_ changes: ChangeSet) throws -> PushOutcome {
        try changes.validateRequiredAttributes(model)
        let conflicts = findConflicts(changes)
        if !conflicts.isEmpty && changes.policy == .error {
            throw StoreError.mergeConflict(conflicts)
        }
        var outcome = PushOutcome()
        registry.reserveCapacity(adding: changes.inserted.count + changes.updated.count)
        self.changes.reserveCapacity(adding: changes.inserted.count + changes.updated.count)
        outcome.inserted = changes.inserted.map(acceptInsert)
        outcome.updated = changes.updated.indices.map { i in
            acceptUpdate(
                changes.updated[i], policy: changes.policy,
                origin: PushOrigin(source: changes.sourceID, push: changes.pushNumber, index: i))
        }
        var deletedHere: [ManagedObject] = []
        outcome.deleted = changes.deleted.map { pushed in
            let (kept, deleted) = acceptDelete(pushed, policy: changes.policy)
            if let deleted { deletedHere.append(deleted) }
            return kept
        }
        applyDeleteRules(deletedHere)
        stagedBatches.stage(contentsOf: changes.batches)
        outcome.findUpdatesNotAsPushed(changes)

        let siblings = liveChildren().filter { ObjectIdentifier($0) != changes.sourceID }
        if !siblings.isEmpty {
            let note = SaveNotification(changes: changes, outcome: outcome, contextName: changes.source, wroteToStore: false, model: model)
            for child in siblings { child.deliver(note, as: .siblingSave) }
        }
        return outcome
    }

    /// The objects the child changed that changed here too since the child read them.
    private func findConflicts(_ changes: ChangeSet) -> [MergeConflict] {
        var conflicts: [MergeConflict] = []
        func check(_ pushed: PushedObject, isDelete: Bool) {
            guard let object = registry[resolve(pushed.id)], !object.isFault, let snapshot = pushed.snapshot else { return }
            if object.state == .deleted {
                if !isDelete {
                    conflicts.append(MergeConflict(objectID: object.objectID, kind: .deletedElsewhere, properties: [], foundIn: name))
                }
                return
            }
            let differing = differingFields(object.row, snapshot)
            if !differing.isEmpty {
                conflicts.append(
                    MergeConflict(
                        objectID: object.objectID, kind: isDelete ? .changedElsewhereWhileDeleted : .changedElsewhere,
                        properties: differing.map(object.layout.fieldName), foundIn: name))
            }
        }
        for pushed in changes.updated { check(pushed, isDelete: false) }
        for pushed in changes.deleted { check(pushed, isDelete: true) }
        return conflicts
    }

    /// Fields that differ, comparing references by their permanent IDs.
    func differingFields(_ a: RowData, _ b: RowData) -> FieldSet {
        var a = a
        var b = b
        a.resolveRefs(resolve)
        b.resolveRefs(resolve)
        return a.differingFields(from: b)
    }

    private func acceptInsert(_ pushed: PushedObject) -> VersionedRow {
        let id = resolve(pushed.id)
        let object: ManagedObject
        if let existing = registry[id] {
            // An undone delete coming back: the object exists here (deleted, or clean).
            object = existing
            untrackChange(object)
            let base = object.snapshot ?? pushed.row
            object.current = pushed.row
            object.changedFields.formUnion(differingFields(pushed.row, base))
            object.state = object.snapshot == nil ? .inserted : .updated
            announceUpdate(object)
        } else {
            object = ManagedObject(id: id, layout: model.layout(id.entityName), context: self)
            object.current = pushed.row
            object.changedFields = FieldSet(0..<object.layout.fieldCount)
            object.state = .inserted
            registry.register(object, as: id)
            announceInsert(object)
        }
        trackChange(object)
        return VersionedRow(id: id, row: pushed.row, version: object.snapshotVersion)
    }

    /// Applies a pushed update; `origin` is remembered on the object when it takes the row
    /// as pushed (see ``ManagedObject/origin``).
    private func acceptUpdate(_ pushed: PushedObject, policy: MergePolicy, origin: PushOrigin) -> VersionedRow? {
        let id = resolve(pushed.id)
        let object = registeredOrNewFault(id)
        var result = pushed.row
        var changedFields = pushed.changedFields
        if object.isFault {
            // Unknown here: the child's snapshot stands in for ours; the store checks it.
            object.snapshot = pushed.snapshot
            object.snapshotVersion = pushed.snapshotVersion
        } else if object.state == .deleted {
            guard policy.oursSurvives else { return nil }
            untrackChange(object)
            object.state = .updated
        } else if let snapshot = pushed.snapshot {
            let theirs = object.row
            let conflicting = differingFields(theirs, snapshot)
            if conflicting.isEmpty {
                result = theirs
                result.copyFields(pushed.changedFields, from: pushed.row)
            } else {
                result = policy.resolve(ours: pushed.row, changed: pushed.changedFields, theirs: theirs, conflicting: conflicting)
            }
            if let base = object.snapshot { changedFields.formUnion(differingFields(result, base)) }
        }
        // The child's row when the values are the same: sharing its storage makes the
        // child's and the store's later comparisons of this row immediate.
        let asPushed = result == pushed.row
        if asPushed { result = pushed.row }
        untrackChange(object)
        object.changedFields.formUnion(changedFields)
        object.current = result
        object.origin = asPushed ? origin : nil
        if object.state != .inserted { object.state = .updated }
        trackChange(object)
        announceUpdate(object)
        return VersionedRow(id: id, row: result, version: object.snapshotVersion)
    }

    /// Applies a pushed delete: returns the row kept when the delete is cancelled, and the
    /// object when it became deleted here.
    private func acceptDelete(_ pushed: PushedObject, policy: MergePolicy) -> (kept: VersionedRow?, deleted: ManagedObject?) {
        let id = resolve(pushed.id)
        let object = registeredOrNewFault(id)
        if object.state == .deleted { return (nil, nil) }
        if object.isFault {
            object.snapshot = pushed.snapshot ?? pushed.row
            object.snapshotVersion = pushed.snapshotVersion
        } else if let snapshot = pushed.snapshot, !differingFields(object.row, snapshot).isEmpty, !policy.oursSurvives {
            return (VersionedRow(id: id, row: object.row, version: object.snapshotVersion), nil)
        }
        markDeleted(object)
        return (nil, object)
    }
}
