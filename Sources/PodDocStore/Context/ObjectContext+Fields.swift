/// A value of one field of a row: an attribute value or a foreign key.
enum FieldValue: Sendable, Hashable {
    case value(StoreValue)
    case ref(ObjectID?)
}

extension RowData {
    subscript(field field: Int) -> FieldValue {
        get { field < values.count ? .value(values[field]) : .ref(refs[field - values.count]) }
        set {
            switch newValue {
            case .value(let v): values[field] = v
            case .ref(let r): refs[field - values.count] = r
            }
        }
    }
}

// MARK: - Attributes

extension ObjectContext {
    func readAttribute(_ object: ManagedObject, _ index: Int) -> StoreValue {
        object.row.values[index]
    }

    /// Writes one field of an object, recording the change for saving, observers and undo.
    func writeField(_ object: ManagedObject, _ field: Int, _ value: FieldValue) {
        precondition(object.state != .deleted, "\(object.objectID) was deleted; it cannot be changed")
        var value = value
        if case .ref(let ref?) = value, ref.isTemporary { value = .ref(resolve(ref)) }
        // Move the row out of the object so that changing it does not copy its storage.
        var current: RowData
        if let existing = object.current {
            object.current = nil
            current = existing
        } else {
            current = object.row
            // Until a root save's notification arrives, a saved object's snapshot may still
            // name its references by the temporary IDs they were pushed under; its changes,
            // which fetches match by reference, name them by their permanent IDs.
            current.resolveRefs(resolve)
        }
        let old = current[field: field]
        guard old != value else {
            object.current = object.state == .clean ? nil : current
            return
        }
        let wasTracked = object.state != .clean
        let isRef = field >= object.layout.attributes.count
        if wasTracked && isRef { changes.reindex(object, row: current, adding: false) }
        current[field: field] = value
        object.current = current
        object.edits &+= 1
        object.changedFields.insert(field)
        if wasTracked {
            if isRef { changes.reindex(object, row: current, adding: true) }
        } else {
            object.state = .updated
            trackChange(object)
        }
        announceUpdate(object)
        _undoManager?.register(.setField(object.objectID, field: field, value: old))
        scheduleProcessing()
    }

    /// Adds an inserted object to the pending changes.
    func announceInsert(_ object: ManagedObject) {
        object.announced = pending.generation
        pending.inserted(object.objectID)
    }

    /// Adds the object to the pending changes once per generation.
    func announceUpdate(_ object: ManagedObject) {
        guard object.announced != pending.generation else { return }
        object.announced = pending.generation
        pending.updated(object.objectID)
    }
}

// MARK: - Relationships

extension ObjectContext {
    func destinationID(of object: ManagedObject, _ name: String) -> ObjectID? {
        let relationship = object.layout.relationship(named: name)
        precondition(!relationship.description.isToMany, "'\(name)' of \(object.entityName) is to-many")
        switch relationship.storage {
        case .foreignKey(let fk):
            return object.row.refs[fk].map(resolve)
        case .inverse(let destinationFK):
            return inverseHolders(of: object, destination: relationship.destination, foreignKey: destinationFK).first?.objectID
        }
    }

    func destination(of object: ManagedObject, _ name: String) -> ManagedObject? {
        destinationID(of: object, name).map { self.object(with: $0) }
    }

    func destinations(of object: ManagedObject, _ name: String) -> [ManagedObject] {
        let relationship = object.layout.relationship(named: name)
        guard case .inverse(let destinationFK) = relationship.storage, relationship.description.isToMany else {
            preconditionFailure("'\(name)' of \(object.entityName) is to-one")
        }
        return inverseHolders(of: object, destination: relationship.destination, foreignKey: destinationFK)
    }

    /// The objects of `destination` whose foreign key `foreignKey` points at `object`.
    func inverseHolders(of object: ManagedObject, destination: String, foreignKey: Int) -> [ManagedObject] {
        if object.state == .inserted {
            // Nobody outside this context knows an object inserted here: its holders are
            // among this context's changes.
            let ids = changes.referrers(entity: destination, foreignKey: foreignKey)[object.objectID] ?? []
            return ids.sorted().compactMap { registry[$0] }
        }
        let layout = model.layout(destination)
        let predicate = CompiledPredicate.refersToAny(foreignKey, [object.objectID])
        do {
            return try fetchObjects(Query(layout: layout, predicate: predicate, sorts: [], limit: nil, offset: 0))
        } catch {
            preconditionFailure("could not read '\(destination)' objects pointing at \(object.objectID): \(error)")
        }
    }

    func setDestination(of object: ManagedObject, _ name: String, to destination: ManagedObject?) {
        let relationship = object.layout.relationship(named: name)
        precondition(!relationship.description.isToMany, "'\(name)' of \(object.entityName) is to-many")
        if let destination {
            precondition(
                destination.context === self, "\(destination.objectID) belongs to another context; look it up here with object(with:)")
            precondition(
                destination.entityName == relationship.destination,
                "'\(name)' leads to \(relationship.destination), not \(destination.entityName)")
        }
        let inverseIsToOne =
            !(model.layout(relationship.destination).relationship(named: relationship.description.inverse).description.isToMany)
        switch relationship.storage {
        case .foreignKey(let fk):
            if inverseIsToOne, let destination {
                // One-to-one: whoever pointed at the destination lets go.
                for holder in inverseHolders(of: destination, destination: object.entityName, foreignKey: fk) where holder !== object {
                    writeField(holder, holder.layout.attributes.count + fk, .ref(nil))
                }
            }
            writeField(object, object.layout.attributes.count + fk, .ref(destination?.objectID))
        case .inverse(let destinationFK):
            for holder in inverseHolders(of: object, destination: relationship.destination, foreignKey: destinationFK)
            where holder !== destination {
                writeField(holder, holder.layout.attributes.count + destinationFK, .ref(nil))
            }
            if let destination {
                writeField(destination, destination.layout.attributes.count + destinationFK, .ref(object.objectID))
            }
        }
    }

    func setDestinations(of object: ManagedObject, _ name: String, to destinations: [ManagedObject]) {
        let relationship = object.layout.relationship(named: name)
        guard case .inverse(let destinationFK) = relationship.storage, relationship.description.isToMany else {
            preconditionFailure("'\(name)' of \(object.entityName) is to-one")
        }
        let keep = Set(destinations.map { ObjectIdentifier($0) })
        for holder in inverseHolders(of: object, destination: relationship.destination, foreignKey: destinationFK)
        where !keep.contains(ObjectIdentifier(holder)) {
            writeField(holder, holder.layout.attributes.count + destinationFK, .ref(nil))
        }
        for destination in destinations {
            precondition(
                destination.context === self, "\(destination.objectID) belongs to another context; look it up here with object(with:)")
            writeField(destination, destination.layout.attributes.count + destinationFK, .ref(object.objectID))
        }
    }
}
