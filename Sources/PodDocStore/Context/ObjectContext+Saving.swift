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
    /// A root save also records what it changed in the store's history
    /// (``PersistentStore/history(limit:)``), with `note` saying when, where, by whom and why.
    ///
    /// - Precondition: `storeMetadata` is empty and `note` nil unless this is a root context.
    /// - Throws: as `save()`.
    public func save(storeMetadata: [String: String], note: SaveNote? = nil) throws {
        preconditionOnQueue()
        processPendingChanges()
        if case .context = parent {
            precondition(storeMetadata.isEmpty && note == nil, "only a root context writes store metadata and history")
        }
        guard !changes.isEmpty || !stagedBatches.isEmpty || !storeMetadata.isEmpty || note?.merge != nil else { return }
        let discards = stagedBatches.discards
        var (changes, objects, flight) = makeChangeSet()
        changes.storeMetadata = storeMetadata
        changes.note = note
        let outcome: PushOutcome
        do {
            try validateDeletes(objects.deleted)
            switch parent {
            case .store(let store):
                try changes.validateRequiredAttributes(model)
                outcome = try store.write(changes)
            case .context(let parent):
                outcome = try parent.performAndWait { try $0.acceptPush(changes) }
            }
        } catch {
            abandon(flight, batches: changes.batches, takenAfter: discards)
            throw error
        }
        finishSave(objects, flight, outcome)
        forgetDisplaced(outcome.displaced)
        finishBatches(changes, outcome)
        processPendingChanges()
        let wroteToStore = if case .store = parent { true } else { false }
        let children = wroteToStore ? liveChildren() : []
        if hasSaveObservers || !children.isEmpty {
            let note = SaveNotification(changes: changes, outcome: outcome, contextName: name, wroteToStore: wroteToStore, model: model)
            publish(note)
            for child in children { child.deliver(note, as: .storeDidSave) }
        }
        sweep()
    }

    /// Saves a main context into its parent without blocking the main actor while the parent
    /// applies the changes: the change set is made here, applied on the parent's queue, and
    /// the objects settled back here. Edits made while the parent worked stay unsaved.
    ///
    /// - Precondition: a main context (a child of another context).
    /// - Throws: as `save()`; nothing changes here when the parent refuses the save.
    @MainActor
    public func save() async throws {
        guard case .context(let parent) = parent, concurrencyType == .main else {
            return try save(storeMetadata: [:])
        }
        preconditionOnQueue()
        processPendingChanges()
        guard !changes.isEmpty || !stagedBatches.isEmpty else { return }
        let discards = stagedBatches.discards
        let (changes, objects, flight) = makeChangeSet()
        let outcome: PushOutcome
        do {
            try validateDeletes(objects.deleted)
            saveState.setApplyingAsynchronously(true)
            defer { saveState.setApplyingAsynchronously(false) }
            outcome = try await parent.perform { try $0.acceptPush(changes) }
        } catch {
            abandon(flight, batches: changes.batches, takenAfter: discards)
            throw error
        }
        finishSave(objects, flight, outcome)
        finishBatches(changes, outcome)
        processPendingChanges()
        if hasSaveObservers {
            publish(SaveNotification(changes: changes, outcome: outcome, contextName: name, wroteToStore: false, model: model))
        }
        releaseInBackground(consume changes)
        sweep()
    }

    /// The saved objects that stay in place during the save, in the change set's order, with
    /// their edit counts at the time. Updated objects moved into the save's ``PushFlight``
    /// are not listed.
    struct SavedObjects {
        var inserted: [(object: ManagedObject, edits: UInt64)] = []
        /// With each object's place in the change set's updated objects.
        var updated: [(object: ManagedObject, edits: UInt64, index: Int)] = []
        var deleted: [(object: ManagedObject, edits: UInt64)] = []
        /// Tracked objects the change set does not carry (clean again).
        var untouched: [ManagedObject] = []
    }

    /// The context's changes, ready to cross to the parent's queue, and the flight that
    /// holds the updated objects' state until the save finishes.
    ///
    /// Updated objects move their state into the change set (see ``PushFlight``), unless
    /// another save of this context still runs (a synchronous save during an asynchronous
    /// one): then every object is copied, as inserted and deleted objects always are.
    func makeChangeSet() -> (ChangeSet, SavedObjects, PushFlight) {
        let (flight, moving) = saveState.beginChangeSet()
        var changes = ChangeSet(
            policy: _mergePolicy, source: name, sourceID: ObjectIdentifier(self), pushNumber: flight.number,
            batches: stagedBatches.takeAll())
        var objects = SavedObjects()
        changes.updated.reserveCapacity(self.changes.count)
        for object in self.changes.all {
            if object.flight != nil { object.land() }
            object.pushNumber = flight.number
            if moving, object.moveUnsavedState(into: flight, append: { changes.appendUpdated($0, origin: object.origin) }) {
                continue
            }
            let pushed = PushedObject(
                id: object.objectID, row: object.current ?? object.row, changedFields: object.changedFields,
                snapshot: object.snapshot, snapshotVersion: object.snapshotVersion)
            switch object.state {
            case .inserted:
                changes.inserted.append(pushed)
                objects.inserted.append((object, object.edits))
            case .updated:
                objects.updated.append((object, object.edits, changes.appendUpdated(pushed, origin: object.origin)))
            case .deleted:
                changes.deleted.append(pushed)
                objects.deleted.append((object, object.edits))
            case .clean:
                objects.untouched.append(object)
            }
        }
        if moving {
            flight.carry(changes.updated)
            saveState.startMoving(flight)
        }
        return (changes, objects, flight)
    }

    /// Gives back the moved state of a save that failed: the objects stay changed, as they
    /// were before it.
    private func abandon(_ flight: PushFlight, batches: [StagedBatch], takenAfter discards: Int) {
        stagedBatches.giveBack(batches, takenAfter: discards)
        guard saveState.stopMoving(flight) else { return }
        for index in flight.updated.indices { landMoved(index, of: flight) }
    }

    /// Brings a moved object's state back from its flight now, if it is still there.
    private func landMoved(_ index: Int, of flight: PushFlight) {
        let id = flight.updated[index].id
        if let object = changes[id] ?? registered(id), object.flight === flight { object.land() }
    }

    /// Brings the saved objects up to date with what the parent (or store) made of them. An
    /// object edited again while the parent worked (an asynchronous save) takes the saved row
    /// as its snapshot and keeps its newer edits unsaved.
    ///
    /// Moved objects that the parent took as pushed are not visited: they leave the tracked
    /// changes all together, and each settles when next used (``ManagedObject/land()``).
    private func finishSave(_ objects: SavedObjects, _ flight: PushFlight, _ outcome: PushOutcome) {
        var updated = objects.updated
        if saveState.stopMoving(flight) {
            for index in outcome.updatesNotAsPushed { landMoved(index, of: flight) }
            let moved = !flight.isEmpty
            flight.finish(with: outcome)
            retrackAfterFlight(flight, objects)
            updated += flight.takeObjectsTouchedMeanwhile()
            if moved { saveState.remember(flight) }
        }
        for ((object, edits), row) in zip(objects.inserted, outcome.inserted) {
            if object.edits != edits {
                rebase(object, on: row)
                continue
            }
            untrackChange(object)
            settle(object, row)
            if row.id != object.objectID { rename(object, to: row.id) }
        }
        for (object, edits, index) in updated {
            guard let row = outcome.updated[index] else {
                // Deleted elsewhere, and the merge policy let that win.
                untrackChange(object)
                registry.remove(object.objectID)
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
                registry.remove(object.objectID)
            }
        }
    }

    /// Lets go of the objects whose rows the store deleted because an object of this save
    /// took their unique values (see ``MergePolicy``).
    private func forgetDisplaced(_ ids: [ObjectID]) {
        for id in ids {
            pending.deleted(id)
            guard let object = registry[id] else { continue }
            untrackChange(object)
            registry.remove(id)
            object.state = .deleted
        }
    }

    /// Rebuilds the tracked changes after a save that moved objects: what stays tracked is
    /// what the save left in place, what began to be tracked meanwhile and the objects that
    /// took their state back early; the moved objects still in the flight leave all at once.
    private func retrackAfterFlight(_ flight: PushFlight, _ objects: SavedObjects) {
        changes.retainOnly { keep in
            for (object, _) in objects.inserted { keep(object) }
            for (object, _, _) in objects.updated { keep(object) }
            for (object, _) in objects.deleted { keep(object) }
            for object in objects.untouched { keep(object) }
            for object in flight.trackedMeanwhile { keep(object) }
            for (object, _, _) in flight.landedEarly { keep(object) }
        }
    }

    /// Whether the parent is applying a save of this object (an asynchronous save of a main
    /// context). Meanwhile the parent's view of it may already be the saved one, so every
    /// later change of it stays tracked, even one that undoes the saved change: an insert
    /// deleted, or a delete undone.
    func isBeingPushed(_ object: ManagedObject) -> Bool {
        saveState.isApplying(changeSet: object.pushNumber)
    }

    /// Makes `object` an insert of its current values (its parent no longer has it).
    func reinsert(_ object: ManagedObject) {
        untrackChange(object)
        object.current = object.row
        object.snapshot = nil
        object.snapshotVersion = 0
        object.changedFields = FieldSet(0..<object.layout.fieldCount)
        object.state = .inserted
        registry.register(object, as: object.objectID)
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
            registry.register(object, as: object.objectID)
            trackChange(object)
        case .deleted:
            registry.register(object, as: object.objectID)
            trackChange(object)
        case .updated, .clean:
            trackChange(object)
        }
    }

    /// Makes `object` clean with `row` as its snapshot.
    func settle(_ object: ManagedObject, _ row: VersionedRow) {
        if let old = object.snapshot { registry.retire(old) }
        object.snapshot = row.row
        object.snapshotVersion = row.version
        object.current = nil
        object.changedFields = FieldSet()
        object.state = .clean
    }

    /// Gives a registered object its permanent ID.
    func rename(_ object: ManagedObject, to id: ObjectID) {
        let old = object.objectID
        registry.remove(old)
        object.objectID = id
        registry.register(object, as: id)
        pending.renamed(old, to: id)
    }
}
