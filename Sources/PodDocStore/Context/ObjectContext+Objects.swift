import Dispatch

// MARK: - Inserting and finding objects

extension ObjectContext {
    /// Inserts a new object of the named entity, with the entity's default values and a
    /// temporary ID.
    ///
    /// - Precondition: the model has the entity.
    @discardableResult
    public func insert(_ entityName: String) -> ManagedObject {
        preconditionOnQueue()
        let layout = model.layout(entityName)
        let object = ManagedObject(id: .makeTemporary(entity: entityName), layout: layout, context: self)
        object.current = layout.defaultRow
        object.state = .inserted
        registry.register(object, as: object.objectID)
        trackChange(object)
        announceInsert(object)
        _undoManager?.register(.remove(object.objectID))
        scheduleProcessing()
        return object
    }

    /// The object with this ID in this context: the registered instance, or a new fault.
    ///
    /// The object's values are read when first used; use ``existingObject(with:)`` to check
    /// that the object exists.
    public func object(with id: ObjectID) -> ManagedObject {
        preconditionOnQueue()
        if let object = registered(id) { return object }
        return registeredOrNewFault(resolve(id))
    }

    /// The object registered under `id` (a resolved ID), or a new fault registered under it.
    func registeredOrNewFault(_ id: ObjectID) -> ManagedObject {
        if let object = registry[id] { return object }
        let object = ManagedObject(id: id, layout: model.layout(id.entityName), context: self)
        registry.register(object, as: id)
        return object
    }

    /// The object with this ID, with its values loaded, or nil when no such object exists
    /// (never saved, or deleted).
    ///
    /// - Throws: ``StoreError`` when the store cannot be read.
    public func existingObject(with id: ObjectID) throws -> ManagedObject? {
        preconditionOnQueue()
        if let object = registered(id), !object.isFault { return object.state == .deleted ? nil : object }
        let id = resolve(id)
        guard let row = try sourceRows(for: [id], entity: id.entityName).first else { return nil }
        let object = self.object(with: id)
        object.snapshot = row.row
        object.snapshotVersion = row.version
        return object
    }

    /// The registered object with this ID, under whichever of its two IDs the context holds
    /// it. A root save running on another queue can make an ID permanent at any moment, and
    /// the context renames its objects at its next use (``adoptPermanentIDs()``), so an ID
    /// read a moment ago can still be the temporary one of an object the context now holds
    /// under its permanent ID.
    func registered(_ id: ObjectID) -> ManagedObject? {
        registry[id] ?? (id.isTemporary ? registry[resolve(id)] : nil)
    }

    /// The permanent ID for `id` if it has become permanent, else `id`.
    public func resolve(_ id: ObjectID) -> ObjectID {
        store.resolve(id)
    }

    /// Loads the values of faults in as few queries as possible (one per 500 objects).
    ///
    /// - Throws: ``StoreError`` when the store cannot be read.
    public func prefetch(_ objects: [ManagedObject]) throws {
        preconditionOnQueue()
        let faults = objects.filter(\.isFault)
        guard !faults.isEmpty else { return }
        for (entity, group) in Dictionary(grouping: faults, by: \.entityName) {
            let rows = try sourceRows(for: group.map(\.objectID), entity: entity)
            for row in rows {
                if let object = registry[row.id], object.isFault {
                    object.snapshot = row.row
                    object.snapshotVersion = row.version
                }
            }
        }
    }

    // MARK: - Faults

    /// Reads a fault's values from the parent. An object that no longer exists reads as
    /// its entity's defaults.
    func fulfillFault(_ object: ManagedObject) -> RowData {
        let rows: [VersionedRow]
        do {
            rows = try sourceRows(for: [object.objectID], entity: object.entityName)
        } catch {
            preconditionFailure("\(object.objectID): could not read its values: \(error)")
        }
        let row = rows.first?.row ?? object.layout.defaultRow
        object.snapshot = row
        object.snapshotVersion = rows.first?.version ?? 0
        return row
    }

    // MARK: - Change tracking

    /// Records that `object` has unsaved changes.
    func trackChange(_ object: ManagedObject) {
        if changes.track(object) { saveState.moving?.noteTrackedMeanwhile(object) }
    }

    /// Forgets that `object` has unsaved changes.
    func untrackChange(_ object: ManagedObject) {
        changes.untrack(object)
    }

    /// Drops clean objects nobody else holds, when the registry has grown enough (see
    /// ``ObjectRegistry/sweep(force:)``), and frees the rows retired since the last sweep.
    func sweep(force: Bool = false) {
        registry.sweep(force: force)
    }
}
