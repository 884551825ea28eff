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
        try save(storeMetadata: [:])
    }

    /// Saves, and for a root context also writes `storeMetadata` into the store's metadata in
    /// the same transaction as the objects (see ``PersistentStore/metadataValue(forKey:)``), so
    /// the two can never disagree after a crash.
    ///
    /// - Precondition: `storeMetadata` is empty unless this is a root context.
    /// - Throws: as ``save()``.
    public func save(storeMetadata: [String: String]) throws {
        preconditionOnQueue()
        processPendingChanges()
        if case .context = parent {
            precondition(storeMetadata.isEmpty, "only a root context writes store metadata")
        }
        guard !changed.isEmpty || !stagedBatches.isEmpty || !storeMetadata.isEmpty else { return }
        var (changes, objects) = makeChangeSet()
        try validateDeletes(objects.deleted)
        changes.storeMetadata = storeMetadata
        let outcome: PushOutcome
        switch parent {
        case .store(let store):
            try changes.validateRequiredAttributes(model)
            outcome = try store.write(changes)
        case .context(let parent):
            outcome = try parent.performAndWait { try $0.acceptPush(changes) }
        }
        finishSave(objects, outcome)
        finishBatches(changes, outcome)
        processPendingChanges()
        let wroteToStore = if case .store = parent { true } else { false }
        let children = wroteToStore ? liveChildren() : []
        if hasSaveObservers || !children.isEmpty {
            let note = SaveNotification(changes: changes, outcome: outcome, contextName: name, wroteToStore: wroteToStore, model: model)
            publish(note)
            for child in children {
                child.queue.async { child.storeDidSave(note) }
            }
        }
        sweep()
    }

    /// Saves a main context into its parent without blocking the main actor while the parent
    /// applies the changes: the change set is made here, applied on the parent's queue, and
    /// the objects settled back here. Edits made while the parent worked stay unsaved.
    ///
    /// - Precondition: a main context (a child of another context).
    /// - Throws: as ``save()``; nothing changes here when the parent refuses the save.
    @MainActor
    public func save() async throws {
        guard case .context(let parent) = parent, concurrencyType == .main else {
            return try save(storeMetadata: [:])
        }
        preconditionOnQueue()
        processPendingChanges()
        guard !changed.isEmpty || !stagedBatches.isEmpty else { return }
        let (changes, objects) = makeChangeSet()
        try validateDeletes(objects.deleted)
        pushInFlight = true
        defer { pushInFlight = false }
        let outcome = try await parent.perform { try $0.acceptPush(changes) }
        finishSave(objects, outcome)
        finishBatches(changes, outcome)
        processPendingChanges()
        if hasSaveObservers {
            publish(SaveNotification(changes: changes, outcome: outcome, contextName: name, wroteToStore: false, model: model))
        }
        sweep()
    }

    /// The saved objects, in the change set's order, with their edit counts at the time.
    struct SavedObjects {
        var inserted: [(object: ManagedObject, edits: UInt64)] = []
        var updated: [(object: ManagedObject, edits: UInt64)] = []
        var deleted: [(object: ManagedObject, edits: UInt64)] = []
    }

    /// The context's changes, ready to cross to the parent's queue.
    func makeChangeSet() -> (ChangeSet, SavedObjects) {
        var changes = ChangeSet(policy: _mergePolicy, source: name, sourceID: ObjectIdentifier(self), batches: stagedBatches)
        var objects = SavedObjects()
        pushCount &+= 1
        changes.updated.reserveCapacity(changed.count)
        objects.updated.reserveCapacity(changed.count)
        for object in changed.values {
            object.pushNumber = pushCount
            let pushed = PushedObject(
                id: object.objectID, row: object.current ?? object.row, changedFields: object.changedFields,
                snapshot: object.snapshot, snapshotVersion: object.snapshotVersion)
            switch object.state {
            case .inserted:
                changes.inserted.append(pushed)
                objects.inserted.append((object, object.edits))
            case .updated:
                changes.updated.append(pushed)
                objects.updated.append((object, object.edits))
            case .deleted:
                changes.deleted.append(pushed)
                objects.deleted.append((object, object.edits))
            case .clean:
                continue
            }
        }
        return (changes, objects)
    }

    /// Brings the saved objects up to date with what the parent (or store) made of them. An
    /// object edited again while the parent worked (an asynchronous save) takes the saved row
    /// as its snapshot and keeps its newer edits unsaved.
    private func finishSave(_ objects: SavedObjects, _ outcome: PushOutcome) {
        for ((object, edits), row) in zip(objects.inserted, outcome.inserted) {
            if object.edits != edits {
                rebase(object, on: row)
                continue
            }
            untrackChange(object)
            settle(object, row)
            if row.id != object.objectID { rename(object, to: row.id) }
        }
        for ((object, edits), row) in zip(objects.updated, outcome.updated) {
            guard let row else {
                // Deleted elsewhere, and the merge policy let that win.
                untrackChange(object)
                registry.removeValue(forKey: object.objectID)
                object.state = .deleted
                pending.deleted(object.objectID)
                continue
            }
            if object.edits != edits {
                rebase(object, on: row)
                continue
            }
            if row.row != object.current { announceUpdate(object) }
            untrackChange(object)
            settle(object, row)
        }
        for ((object, edits), kept) in zip(objects.deleted, outcome.deleted) {
            if let kept {
                if object.edits != edits {
                    rebase(object, on: kept)
                    continue
                }
                untrackChange(object)
                settle(object, kept)
                announceUpdate(object)
            } else if object.edits != edits, object.state != .deleted {
                // Brought back (undo) while the parent applied the delete: the parent no
                // longer has it, so what remains is an insert under its old ID.
                reinsert(object)
            } else {
                untrackChange(object)
                registry.removeValue(forKey: object.objectID)
            }
        }
    }

    /// Whether the parent is applying a save of this object (an asynchronous save of a main
    /// context). Meanwhile the parent's view of it may already be the saved one, so every
    /// later change of it stays tracked, even one that undoes the saved change: an insert
    /// deleted, or a delete undone.
    func isBeingPushed(_ object: ManagedObject) -> Bool {
        pushInFlight && object.pushNumber == pushCount
    }

    /// Makes `object` an insert of its current values (its parent no longer has it).
    func reinsert(_ object: ManagedObject) {
        untrackChange(object)
        object.current = object.row
        object.snapshot = nil
        object.snapshotVersion = 0
        object.changedFields = FieldSet(0..<object.layout.fieldCount)
        object.state = .inserted
        registry[object.objectID] = object
        trackChange(object)
    }

    /// The parent now has `row` for an object edited again since the save began: it becomes
    /// the snapshot, and the object's current state stays a change against it.
    private func rebase(_ object: ManagedObject, on row: VersionedRow) {
        untrackChange(object)
        if object.state == .clean { object.state = .updated }
        let current = object.current ?? row.row
        object.snapshot = row.row
        object.snapshotVersion = row.version
        object.current = current
        object.changedFields.formUnion(current.differingFields(from: row.row))
        switch object.state {
        case .inserted:
            // The parent has it now: what remains is an update (or, when it was deleted
            // meanwhile, a delete).
            object.state = .updated
            registry[object.objectID] = object
            trackChange(object)
        case .deleted:
            registry[object.objectID] = object
            trackChange(object)
        case .updated, .clean:
            trackChange(object)
        }
    }

    /// Makes `object` clean with `row` as its snapshot.
    func settle(_ object: ManagedObject, _ row: VersionedRow) {
        if let old = object.snapshot { retiredRows.append(old) }
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
        pending.renamed(old, to: id)
    }
}
