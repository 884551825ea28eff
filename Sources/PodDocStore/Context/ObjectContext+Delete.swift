// MARK: - Deleting

extension ObjectContext {
    /// Deletes an object, applying the delete rules of its relationships: destinations of
    /// cascade relationships are deleted too (level by level, with no recursion, so a chain
    /// of any depth is fine; a tree kept by a self-referential relationship in one recursive
    /// query), nullify relationships let go of it. Deny rules are checked when saving.
    ///
    /// - Returns: how many objects were deleted: the object and everything its cascade rules
    ///   deleted (0 when it was deleted already).
    /// - Precondition: the object belongs to this context.
    @discardableResult
    public func delete(_ object: ManagedObject) -> Int {
        preconditionOnQueue(for: object)
        precondition(object.context === self, "\(object.objectID) belongs to another context")
        guard object.state != .deleted else { return 0 }
        markDeleted(object)
        let cascaded = applyDeleteRules([object])
        scheduleProcessing()
        return 1 + cascaded
    }

    /// Marks one object deleted, without delete rules (undo and redo use this directly).
    func markDeleted(_ object: ManagedObject) {
        let row = object.row
        object.edits &+= 1
        _undoManager?.register(.restore(DeletedObject(object: object, row: row, changedFields: object.changedFields)))
        untrackChange(object)
        if object.state == .inserted && !isBeingPushed(object) {
            registry.remove(object.objectID)
            object.state = .deleted
        } else {
            object.current = row
            object.state = .deleted
            trackChange(object)
        }
        pending.deleted(object.objectID)
    }

    /// Follows the delete rules from `deleted`, one level of the object graph at a time, and
    /// returns how many objects its cascades deleted.
    ///
    /// A cascade through a self-referential relationship (an item's children) deletes the
    /// whole subtree at once, found with one recursive query; its objects are then only
    /// visited for their other relationships.
    @discardableResult
    func applyDeleteRules(_ deleted: [ManagedObject]) -> Int {
        // Objects deleted together, and the self-referential relationship whose cascade
        // already deleted everything below them, if they came from one.
        var frontier: [(objects: [ManagedObject], closedUnder: String?)] = [(deleted, nil)]
        var count = 0
        while !frontier.isEmpty {
            var next: [(objects: [ManagedObject], closedUnder: String?)] = []
            for batch in frontier {
                for objects in groupedByEntity(batch.objects) {
                    let layout = objects[0].layout
                    var cascaded: [ManagedObject] = []
                    for relationship in layout.orderedRelationships {
                        let rule = relationship.description.deleteRule
                        guard rule != .deny else { continue }
                        switch relationship.storage {
                        case .foreignKey(let fk):
                            guard rule == .cascade else { continue }
                            for object in objects {
                                guard let id = object.row.refs[fk] else { continue }
                                let destination = self.object(with: id)
                                if destination.state != .deleted {
                                    markDeleted(destination)
                                    cascaded.append(destination)
                                }
                            }
                        case .inverse(let destinationFK) where rule == .cascade && relationship.destination == layout.name:
                            let name = relationship.description.name
                            guard batch.closedUnder != name else { continue }
                            let below = subtree(below: objects, layout: layout, foreignKey: destinationFK).filter { $0.state != .deleted }
                            for object in below { markDeleted(object) }
                            if !below.isEmpty { next.append((below, name)) }
                        case .inverse(let destinationFK):
                            for holder in holders(of: objects, entity: relationship.destination, foreignKey: destinationFK)
                            where holder.state != .deleted {
                                if rule == .cascade {
                                    markDeleted(holder)
                                    cascaded.append(holder)
                                } else {
                                    writeField(holder, holder.layout.attributes.count + destinationFK, .ref(nil))
                                }
                            }
                        }
                    }
                    if !cascaded.isEmpty { next.append((cascaded, nil)) }
                }
            }
            count += next.reduce(0) { $0 + $1.objects.count }
            frontier = next
        }
        return count
    }

    /// The objects grouped by entity (one group, without hashing, in the usual case of one
    /// entity).
    private func groupedByEntity(_ objects: [ManagedObject]) -> [[ManagedObject]] {
        guard let layout = objects.first?.layout else { return [] }
        if objects.allSatisfy({ $0.layout === layout }) { return [objects] }
        return Array(Dictionary(grouping: objects, by: { ObjectIdentifier($0.layout) }).values)
    }

    /// Every object below `roots` through the self-referential foreign key `fk`, with its
    /// values loaded (one query per 500 objects).
    func subtree(below roots: [ManagedObject], layout: EntityLayout, foreignKey fk: Int) -> [ManagedObject] {
        guard !roots.isEmpty else { return [] }
        do {
            let links = try viewDescendantLinks(of: roots.map(\.objectID), layout: layout, foreignKey: fk)
            // Room for all of them at once, rather than doubling the tables as they come.
            registry.reserveCapacity(adding: links.count)
            changes.reserveCapacity(adding: links.count)
            let objects = links.map { object(with: $0.object) }
            try prefetch(objects)
            return objects
        } catch {
            preconditionFailure("could not read the '\(layout.name)' objects below a deleted one while applying delete rules: \(error)")
        }
    }

    /// The objects of `entity` whose foreign key points at any of `objects`,
    /// ``PersistentStore/idsPerQuery`` at a time.
    func holders(of objects: [ManagedObject], entity: String, foreignKey: Int) -> [ManagedObject] {
        let layout = model.layout(entity)
        var result: [ManagedObject] = []
        let ids = objects.map(\.objectID)
        for start in stride(from: 0, to: ids.count, by: PersistentStore.idsPerQuery) {
            let chunk = Array(ids[start..<min(start + PersistentStore.idsPerQuery, ids.count)])
            do {
                result += try fetchObjects(
                    Query(
                        layout: layout, predicate: .refersToAny(foreignKey, chunk),
                        sorts: [], limit: nil, offset: 0))
            } catch {
                preconditionFailure("could not read '\(entity)' objects while applying delete rules: \(error)")
            }
        }
        return result
    }

    // MARK: - Validation

    /// Checks the deletes a save would make against deny rules. (Required attributes are
    /// checked by the receiving side, ``ChangeSet/validateRequiredAttributes(_:)``; unique keys
    /// by the store's unique indexes when the root saves.)
    func validateDeletes(_ deleted: [(object: ManagedObject, edits: UInt64)]) throws {
        for (object, _) in deleted {
            for relationship in object.layout.orderedRelationships where relationship.description.deleteRule == .deny {
                let blocked: Bool
                switch relationship.storage {
                case .foreignKey(let fk):
                    blocked = object.row.refs[fk].map { self.object(with: $0).state != .deleted } ?? false
                case .inverse(let destinationFK):
                    blocked = !holders(of: [object], entity: relationship.destination, foreignKey: destinationFK).isEmpty
                }
                if blocked {
                    throw StoreError(
                        .validation,
                        "Could not save: \(object.objectID) is deleted but its '\(relationship.description.name)' relationship (delete rule: deny) still has destinations. Delete or move them first."
                    )
                }
            }
        }
    }
}
