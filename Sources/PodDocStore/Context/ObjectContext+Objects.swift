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
        registry[object.objectID] = object
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
        let id = resolve(id)
        let object = ManagedObject(id: id, layout: model.layout(id.entityName), context: self)
        registry[id] = object
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
        let id = object.objectID
        if changed.updateValue(object, forKey: id) == nil {
            flightInProgress?.trackedMeanwhile.append(object)
            changedCounts[object.layout.ordinal] += 1
            if object.state != .deleted, let current = object.current {
                indexRefs(of: id, layout: object.layout, row: current, adding: true)
            }
        }
    }

    /// Forgets that `object` has unsaved changes.
    func untrackChange(_ object: ManagedObject) {
        let id = object.objectID
        guard changed.removeValue(forKey: id) != nil else { return }
        changedCounts[object.layout.ordinal] -= 1
        if object.state != .deleted, let current = object.current {
            indexRefs(of: id, layout: object.layout, row: current, adding: false)
        }
    }

    func indexRefs(of id: ObjectID, layout: EntityLayout, row: RowData, adding: Bool) {
        for (fk, ref) in row.refs.enumerated() {
            guard let ref else { continue }
            let key = RefKey(entity: layout.name, foreignKey: fk)
            if adding {
                refIndex[key, default: [:]][ref, default: []].insert(id)
            } else {
                refIndex[key]?[ref]?.remove(id)
            }
        }
    }

    /// Drops every change-tracking structure (after a save, rollback or reset).
    func clearChangeTracking() {
        changed.removeAll(keepingCapacity: true)
        for i in changedCounts.indices { changedCounts[i] = 0 }
        refIndex.removeAll(keepingCapacity: true)
    }

    /// Drops clean objects that nobody outside the context holds, when the registry has
    /// doubled since the last sweep (or always, when `force`); then frees the rows retired
    /// since the last time.
    func sweep(force: Bool = false) {
        defer { releaseRetiredRows() }
        guard force || registry.count > max(1024, registryCountAtLastSweep * 2) else { return }
        var index = registry.values.startIndex
        var unused: [ObjectID] = []
        var kept: [(ObjectID, ManagedObject)] = []
        while index != registry.values.endIndex {
            if registry.values[index].state == .clean, isKnownUniquelyReferenced(&registry.values[index]) {
                unused.append(registry.keys[index])
                if let row = registry.values[index].snapshot { retiredRows.append(row) }
                registry.values[index].snapshot = nil
            } else {
                kept.append((registry.keys[index], registry.values[index]))
            }
            registry.values.formIndex(after: &index)
        }
        if unused.count > kept.count {
            // Most go: a new table of those that stay is cheaper than removing each.
            registry = Dictionary(uniqueKeysWithValues: kept)
        } else {
            for id in unused { registry.removeValue(forKey: id) }
        }
        registryCountAtLastSweep = registry.count
    }

    /// Frees the rows retired since the last time: on a background queue when there are many
    /// (the context's queue, often the main actor, is not kept busy freeing memory).
    func releaseRetiredRows() {
        guard retiredRows.count >= 256 else {
            retiredRows.removeAll(keepingCapacity: true)
            return
        }
        releaseInBackground(taking: &retiredRows, leaving: [])
    }
}
