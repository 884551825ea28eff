// MARK: - Merging saves made elsewhere

extension ObjectContext {
    /// Brings this context up to date with a save made by another context of the same store:
    /// temporary IDs become permanent, changed objects take the saved values (keeping this
    /// context's own unsaved changes on top), deleted objects without unsaved changes leave
    /// the context. Observers (results controllers) are told.
    public func mergeChanges(from note: SaveNotification) {
        preconditionOnQueue()
        adoptPermanentIDs()
        for id in note.deletedIDs {
            let id = resolve(id)
            pending.deleted(id)
            guard let object = registry[id], !object.hasChanges else { continue }
            registry.remove(id)
            object.state = .deleted
        }
        for i in othersUpdatedRows(note) {
            let row = note.updatedRows[i]
            let id = resolve(row.id)
            mergeSavedRow(VersionedRow(id: id, row: row.row, version: row.version), into: registry[id])
        }
        for row in note.insertedRows {
            let id = resolve(row.id)
            if let object = registry[id], adoptVersionIfCurrent(object, row) { continue }
            pending.inserted(id)
        }
        mergeWrittenBatches(note.batches)
        if performDepth == 0 { processPendingChanges() }
    }

    /// Brings a registered object (if any) up to date with a row saved elsewhere, keeping its
    /// unsaved changes on top; observers hear of the update.
    func mergeSavedRow(_ row: VersionedRow, into object: ManagedObject?) {
        if let object, adoptVersionIfCurrent(object, row) { return }
        pending.updated(row.id)
        guard let object, !object.isFault else { return }
        switch object.state {
        case .clean:
            settle(object, row)
        case .updated:
            untrackChange(object)
            var current = row.row
            if let mine = object.current { current.copyFields(object.changedFields, from: mine) }
            object.snapshot = row.row
            object.snapshotVersion = row.version
            object.current = current
            trackChange(object)
        case .deleted:
            // Still to be deleted, but from the values seen now.
            object.snapshot = row.row
            object.snapshotVersion = row.version
            object.current = row.row
        case .inserted:
            return
        }
    }

    /// The indexes of a root save's updated rows that this context did not push itself.
    ///
    /// A row the root wrote exactly as this context pushed it needs no merge: this context's
    /// object already has those values (as its snapshot, or under newer edits), and observers
    /// heard of them when they were made. Such rows are not read here; the pushes' flights
    /// take their store versions, prepared by the root, for the objects that have not settled
    /// yet. (An object that settled already keeps the older version: the store then checks
    /// its next save by value, which costs that save a read.)
    private func othersUpdatedRows(_ note: SaveNotification) -> LazyFilterSequence<Range<Int>> {
        let me = ObjectIdentifier(self)
        for (key, versions) in note.pushedVersions where key.source == me {
            saveState.recentFlight(number: key.push)?.recordSavedVersions(versions)
        }
        return note.updatedOrigins.indices.lazy.filter { note.updatedOrigins[$0] != me }
    }

    /// For a clean object that already has the saved values (this context pushed them), just
    /// records the new row version; nothing changed that observers should hear about.
    private func adoptVersionIfCurrent(_ object: ManagedObject, _ row: VersionedRow) -> Bool {
        guard object.state == .clean, var snapshot = object.snapshot else { return false }
        if snapshot.refs.contains(where: { $0?.isTemporary ?? false }) { snapshot.resolveRefs(resolve) }
        guard snapshot == row.row else { return false }
        object.snapshot = snapshot
        object.snapshotVersion = row.version
        return true
    }

    /// A root save reaches every context of the stack: permanent IDs and new row versions
    /// always, the values too when ``automaticallyMergesChangesFromParent`` is on.
    func storeDidSave(_ note: SaveNotification) {
        if _automaticallyMerges {
            mergeChanges(from: note)
        } else {
            applyPermanentIDs(note)
            if performDepth == 0 { processPendingChanges() }
        }
        for child in liveChildren() { child.deliver(note, as: .storeDidSave) }
    }

    /// What a notification handed to a context's queue is (see ``deliver(_:as:)``).
    enum Delivery: Sendable {
        /// A root save: permanent IDs and versions always, values when merging automatically.
        case storeDidSave
        /// A sibling's save into the parent: merged when merging automatically.
        case siblingSave
    }

    /// Hands a save notification to this context's queue in such a way that this queue never
    /// frees it: a notification can hold thousands of rows, and the last reference to a value
    /// captured by a closure goes with whichever thread drops the closure last, often the
    /// receiving one. The closure captures only an unmanaged reference; the context takes it
    /// back, and lets go of it off its queue.
    func deliver(_ note: SaveNotification, as kind: Delivery) {
        let reference = Unmanaged.passRetained(NoteDelivery(note: note))
        queue.async {
            let delivery = reference.takeRetainedValue()
            switch kind {
            case .storeDidSave: self.storeDidSave(delivery.note)
            case .siblingSave: if self._automaticallyMerges { self.mergeChanges(from: delivery.note) }
            }
            releaseInBackground(consume delivery)
        }
    }

    /// Records the new row versions of objects whose values are the saved ones.
    private func applyPermanentIDs(_ note: SaveNotification) {
        adoptPermanentIDs()
        for row in note.insertedRows { if let object = registry[row.id] { _ = adoptVersionIfCurrent(object, row) } }
        for i in othersUpdatedRows(note) {
            let row = note.updatedRows[i]
            if let object = registry[row.id] { _ = adoptVersionIfCurrent(object, row) }
        }
    }

    // MARK: - Discarding changes

    /// Discards every unsaved change: inserted objects leave, changed and deleted objects
    /// return to their saved values. Clears the undo stack.
    public func rollback() {
        preconditionOnQueue()
        stagedBatches.discardAll()
        for object in Array(changes.all) {
            switch object.state {
            case .inserted:
                registry.remove(object.objectID)
                object.state = .deleted
                pending.deleted(object.objectID)
            case .updated, .deleted:
                object.current = nil
                object.changedFields = FieldSet()
                object.state = .clean
                pending.updated(object.objectID)
            case .clean:
                continue
            }
        }
        changes.removeAll()
        _undoManager?.removeAllActions()
        if performDepth == 0 { processPendingChanges() }
    }

    /// Forgets every object and change: objects held elsewhere no longer belong to the context.
    /// Results controllers refetch. Clears the undo stack.
    public func reset() {
        preconditionOnQueue()
        stagedBatches.discardAll()
        for object in registry.all { object.context = nil }
        registry.removeAll()
        changes.removeAll()
        _undoManager?.removeAllActions()
        pending.invalidateAll()
        if performDepth == 0 { processPendingChanges() }
    }

    /// Re-reads an object's values from the parent.
    ///
    /// - Parameters:
    ///   - object: The object to refresh.
    ///   - mergeChanges: Keep the object's unsaved changes on top of the fresh values (true),
    ///     or discard them (false).
    /// - Throws: ``StoreError`` when the parent cannot be read.
    public func refresh(_ object: ManagedObject, mergeChanges: Bool) throws {
        preconditionOnQueue(for: object)
        guard object.state != .inserted else { return }
        let fresh = try sourceRows(for: [object.objectID], entity: object.entityName).first
        let mine = object.current
        untrackChange(object)
        if let fresh {
            object.snapshot = fresh.row
            object.snapshotVersion = fresh.version
        } else {
            object.snapshot = nil
        }
        if mergeChanges, object.state == .updated, let mine, let fresh {
            var current = fresh.row
            current.copyFields(object.changedFields, from: mine)
            object.current = current
            trackChange(object)
        } else {
            object.current = nil
            object.changedFields = FieldSet()
            object.state = .clean
        }
        pending.updated(object.objectID)
        scheduleProcessing()
    }
}

/// A save notification on its way to a context's queue (see ``ObjectContext/deliver(_:as:)``).
private final class NoteDelivery: Sendable {
    let note: SaveNotification
    init(note: SaveNotification) { self.note = note }
}
