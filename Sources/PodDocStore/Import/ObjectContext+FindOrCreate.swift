/// What a batch find-or-create did.
public struct FindOrCreateResult: Sendable, Hashable {
    /// Objects inserted for keys not found, in the order of their first record.
    public var created: [ObjectID] = []
    /// Objects found and updated, in the order of their first record.
    public var updated: [ObjectID] = []
}

extension ObjectContext {
    /// Finds or creates one object per key, for importing a batch of records keyed by a unique
    /// attribute: one query per batch and a dictionary, never a query or a
    /// scan per record.
    ///
    /// Objects found (in this context's changes, its parents, or the store) are updated;
    /// missing ones are inserted with the key set. `update` runs once per record, in order;
    /// a key repeated within the batch updates the same object again.
    ///
    /// ```swift
    /// let result = try worker.findOrCreate("Pod", key: Pod.identifier, keys: specs.map(\.identifier)) { pod, i, isNew in
    ///     pod[Pod.summary] = specs[i].summary
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - entityName: The entity.
    ///   - key: The unique attribute the records are keyed by.
    ///   - keys: One key per record.
    ///   - update: Sets the record's values on its object; `isNew` tells whether it was created.
    /// - Returns: which objects were created and which updated.
    /// - Throws: ``StoreError`` when the store cannot be read, or what `update` throws.
    @discardableResult
    public func findOrCreate<Key: AttributeValue & Hashable>(
        _ entityName: String, key: Attribute<Key>, keys: [Key],
        update: (ManagedObject, _ index: Int, _ isNew: Bool) throws -> Void
    ) throws -> FindOrCreateResult {
        preconditionOnQueue()
        let layout = model.layout(entityName)
        let keyField = layout.attributeIndex(of: key.name)
        var found: [StoreValue: ManagedObject] = [:]
        found.reserveCapacity(keys.count)
        registry.reserveCapacity(adding: keys.count)
        changes.reserveCapacity(adding: keys.count)

        // This context's own unsaved objects: one pass per batch.
        for object in changedObjects(in: layout) where object.state != .deleted {
            if let row = object.current { found[row.values[keyField]] = object }
        }
        // Everything else: one query for the batch (the store splits very long key lists).
        let wanted = Array(Set(keys.map(\.storeValue)).filter { found[$0] == nil })
        if !wanted.isEmpty {
            let query = Query(layout: layout, predicate: .oneOf(keyField, wanted), sorts: [], limit: nil, offset: 0)
            for row in try viewRows(query) {
                let object = register(row)
                if object.state != .deleted { found[row.row.values[keyField]] = object }
            }
        }

        var result = FindOrCreateResult()
        var notYetReported = Set(found.values.map(ObjectIdentifier.init))
        for (index, value) in keys.enumerated() {
            let stored = value.storeValue
            if let object = found[stored] {
                if notYetReported.remove(ObjectIdentifier(object)) != nil { result.updated.append(object.objectID) }
                try update(object, index, false)
            } else {
                let object = insert(entityName)
                writeField(object, keyField, .value(stored))
                found[stored] = object
                result.created.append(object.objectID)
                try update(object, index, true)
            }
        }
        return result
    }
}
