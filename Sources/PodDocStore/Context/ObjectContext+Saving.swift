// MARK: - Saving

extension ObjectContext {
    /// Saves the context's changes one level up: into the parent context's memory, or, for a
    /// root context, to the store in one SQLite transaction.
    ///
    /// Conflicts with changes made elsewhere since the objects were read are resolved by
    /// ``mergePolicy``; under `.error` nothing is saved and every conflict is reported.
    /// After a root save, inserted objects have permanent IDs in every context of the stack.
    ///
    /// - Throws: ``StoreError``: `.validation`, `.uniqueConstraint`, `.mergeConflict`,
    ///   `.readOnly` or `.sqlite`. The context keeps its changes when a save fails.
    public func save() throws {
        preconditionOnQueue()
        processPendingChanges()
        guard !changed.isEmpty else { return }
        try validateForSave()
        let changes = makeChangeSet()
        let outcome: PushOutcome
        switch parent {
        case .store(let store):
            outcome = try store.write(changes)
        case .context(let parent):
            outcome = try parent.performAndWait { try $0.acceptPush(changes) }
        }
        let note = finishSave(changes, outcome)
        processPendingChanges()
        publish(note)
        if note.wroteToStore {
            for child in liveChildren() {
                child.queue.async { child.storeDidSave(note) }
            }
        }
        sweep()
    }

    /// The context's changes, ready to cross to the parent's queue.
    func makeChangeSet() -> ChangeSet {
        var changes = ChangeSet(policy: _mergePolicy, source: name, sourceID: ObjectIdentifier(self))
        for object in changed.values {
            let pushed = PushedObject(
                id: object.objectID, row: object.current ?? object.row, changedFields: object.changedFields,
                snapshot: object.snapshot, snapshotVersion: object.snapshotVersion)
            switch object.state {
            case .inserted: changes.inserted.append(pushed)
            case .updated: changes.updated.append(pushed)
            case .deleted: changes.deleted.append(pushed)
            case .clean: continue
            }
        }
        return changes
    }

    /// Brings the saved objects up to date with what the parent (or store) made of them.
    private func finishSave(_ changes: ChangeSet, _ outcome: PushOutcome) -> SaveNotification {
        let wroteToStore: Bool
        if case .store = parent { wroteToStore = true } else { wroteToStore = false }
        let saved = Array(changed.values)
        clearChangeTracking()
        for object in saved {
            let oldID = object.objectID
            if object.state == .deleted {
                if let row = outcome.undeleted[oldID] {
                    settle(object, row)
                    pending.updated(oldID)
                } else {
                    registry.removeValue(forKey: oldID)
                }
                continue
            }
            guard let row = outcome.rows[oldID] else {
                // Deleted elsewhere and dropped by the merge policy.
                registry.removeValue(forKey: oldID)
                object.state = .deleted
                pending.deleted(oldID)
                continue
            }
            if row.row != object.current { pending.updated(oldID) }
            settle(object, row)
            if row.id != oldID { rename(object, to: row.id) }
        }
        return SaveNotification(changes: changes, outcome: outcome, contextName: name, wroteToStore: wroteToStore, model: model)
    }

    /// Makes `object` clean with `row` as its snapshot.
    func settle(_ object: ManagedObject, _ row: VersionedRow) {
        object.snapshot = row.row
        object.snapshotVersion = row.version
        object.current = nil
        object.changedFields = FieldSet()
        object.state = .clean
    }

    /// Gives a registered object its permanent ID.
    func rename(_ object: ManagedObject, to id: ObjectID) {
        let old = object.objectID
        registry.removeValue(forKey: old)
        object.objectID = id
        registry[id] = object
        pending.change.renamed[old] = id
    }
}

extension SaveNotification {
    /// The notification for a change set as the receiving side resolved it.
    init(changes: ChangeSet, outcome: PushOutcome, contextName: String, wroteToStore: Bool, model: ObjectModel) {
        var inserted = Set<ObjectID>(), updated = Set<ObjectID>(), deleted = Set<ObjectID>()
        var changedKeys: [ObjectID: Set<String>] = [:]
        var rows: [ObjectID: VersionedRow] = [:]
        for object in changes.inserted {
            guard let row = outcome.rows[object.id] else { continue }
            inserted.insert(row.id)
            rows[row.id] = row
        }
        for object in changes.updated {
            guard let row = outcome.rows[object.id] else {
                deleted.insert(object.id)
                continue
            }
            updated.insert(row.id)
            rows[row.id] = row
            let layout = model.layout(row.id.entityName)
            changedKeys[row.id] = Set(object.changedFields.map(layout.fieldName))
        }
        for object in changes.deleted {
            if let row = outcome.undeleted[object.id] {
                updated.insert(row.id)
                rows[row.id] = row
            } else {
                deleted.insert(object.id)
            }
        }
        self.init(contextName: contextName, wroteToStore: wroteToStore, inserted: inserted, updated: updated,
                  deleted: deleted, changedKeys: changedKeys, permanentIDs: outcome.permanentIDs,
                  rows: rows, source: changes.sourceID)
    }

}
