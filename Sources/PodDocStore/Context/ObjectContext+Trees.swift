// MARK: - Walking trees

extension ObjectContext {
    /// Every object below `roots` in a tree kept by a self-referential to-one relationship
    /// (an item's `parent`), as this context sees it (unsaved changes included), each with
    /// the object it points at, once. Each link comes after the link of its destination
    /// (unless that destination is one of `roots`).
    ///
    /// The store answers with one recursive query, so a chain 100,000 levels deep costs one
    /// query, not one per level; each context level then overlays its own changes in memory.
    ///
    /// ```swift
    /// let below = try context.descendantLinks(of: [folder.objectID], following: Item.parent)
    /// print("\(below.count) items in the folder")
    /// ```
    ///
    /// - Precondition: `relationship` leads from its destination entity to itself.
    /// - Throws: ``StoreError`` when the store cannot be read.
    public func descendantLinks(of roots: [ObjectID], following relationship: ToOne) throws -> [ObjectLink] {
        preconditionOnQueue()
        let (layout, fk) = selfReference(relationship)
        return try viewDescendantLinks(of: roots.map(resolve), layout: layout, foreignKey: fk)
    }

    /// The objects above `id` in a tree kept by a self-referential to-one relationship, as
    /// this context sees it: its destination, that object's destination, and so on up to the
    /// top, nearest first. Empty for a top object or one that does not exist. Stops before
    /// repeating an object, should the graph hold a cycle.
    ///
    /// ```swift
    /// let path = try context.ancestorIDs(of: leaf.objectID, following: Item.parent)
    /// let isInside = path.contains(folder.objectID)
    /// ```
    ///
    /// - Precondition: `relationship` leads from its destination entity to itself.
    /// - Throws: ``StoreError`` when the store cannot be read.
    public func ancestorIDs(of id: ObjectID, following relationship: ToOne) throws -> [ObjectID] {
        preconditionOnQueue()
        let (layout, fk) = selfReference(relationship)
        return try viewAncestorLinks(of: resolve(id), layout: layout, foreignKey: fk).dropFirst().map(\.object)
    }

    private func selfReference(_ key: ToOne) -> (EntityLayout, Int) {
        let layout = model.layout(key.relationship.destination)
        guard case .foreignKey(let fk) = layout.relationship(named: key.name).storage,
              layout.relationship(named: key.name).destination == layout.name else {
            preconditionFailure("'\(key.name)' is not a to-one relationship of '\(layout.name)' to itself")
        }
        return (layout, fk)
    }

    // MARK: - Descendants, level by level of the context stack

    /// The descendants as this context sees them: the parent's answer, with the links this
    /// context owns (see `ownsLink`) taken from its own rows. An object moved here from
    /// outside the parent's answer has its parent-side descendants fetched in a further round
    /// (one query per level of such moves nested in each other, rarely more than one).
    func viewDescendantLinks(of roots: [ObjectID], layout: EntityLayout, foreignKey fk: Int) throws -> [ObjectLink] {
        guard hasChanges(in: layout) else { return try sourceDescendantLinks(of: roots, layout: layout, foreignKey: fk) }
        var owned = Set<ObjectID>()
        var localChildren: [ObjectID: [ObjectID]] = [:]
        // Objects whose descendants on the parent side are all in `sourceChildren`; the
        // parent knows nothing below an object inserted here.
        var covered = Set<ObjectID>()
        for object in changedObjects(in: layout) where ownsLink(object, fk) {
            owned.insert(object.objectID)
            if object.state == .inserted { covered.insert(object.objectID) }
            guard object.state != .deleted, let row = object.current, let parent = row.refs[fk] else { continue }
            localChildren[resolve(parent), default: []].append(object.objectID)
        }
        var links: [ObjectLink] = []
        var seen = Set<ObjectID>()
        var sourceChildren: [ObjectID: [ObjectID]] = [:]
        var waiting = roots
        while !waiting.isEmpty {
            let unknown = waiting.filter { !covered.contains($0) }
            if !unknown.isEmpty {
                for link in try sourceDescendantLinks(of: unknown, layout: layout, foreignKey: fk) {
                    let object = resolve(link.object)
                    covered.insert(object)
                    guard !owned.contains(object), let parent = link.destination else { continue }
                    sourceChildren[resolve(parent), default: []].append(object)
                }
                covered.formUnion(unknown)
            }
            var queue = waiting
            waiting = []
            var next = 0
            while next < queue.count {
                let node = queue[next]
                next += 1
                for child in (sourceChildren[node] ?? []) + (localChildren[node] ?? []) where seen.insert(child).inserted {
                    links.append(ObjectLink(object: child, destination: node))
                    if covered.contains(child) { queue.append(child) } else { waiting.append(child) }
                }
            }
        }
        return links
    }

    /// Whether this context's own row decides where `object` sits in the tree: it was
    /// inserted or deleted here, or its link changed here. (An object changed here in other
    /// fields only sits where the parent says.)
    private func ownsLink(_ object: ManagedObject, _ fk: Int) -> Bool {
        object.state != .updated || object.changedFields.contains(object.layout.attributes.count + fk)
    }

    func sourceDescendantLinks(of roots: [ObjectID], layout: EntityLayout, foreignKey fk: Int) throws -> [ObjectLink] {
        switch parent {
        case .store(let store):
            return try store.descendantLinks(of: roots, layout: layout, foreignKey: fk)
        case .context(let parent):
            return try parent.performAndWait { try $0.viewDescendantLinks(of: roots, layout: layout, foreignKey: fk) }
        }
    }

    // MARK: - Ancestors, level by level of the context stack

    /// The links from `id` upward as this context sees them: the parent's chain, switching to
    /// this context's own row wherever it changed an object on the way.
    func viewAncestorLinks(of id: ObjectID, layout: EntityLayout, foreignKey fk: Int) throws -> [ObjectLink] {
        guard hasChanges(in: layout) else { return try sourceAncestorLinks(of: id, layout: layout, foreignKey: fk) }
        var links: [ObjectLink] = []
        var seen = Set<ObjectID>()
        var next: ObjectID? = id
        walk: while let node = next, !seen.contains(node) {
            next = nil
            if let object = changed[node], object.layout === layout, ownsLink(object, fk) {
                guard object.state != .deleted, let row = object.current else { break }
                seen.insert(node)
                let parent = row.refs[fk].map(resolve)
                links.append(ObjectLink(object: node, destination: parent))
                next = parent
                continue
            }
            for link in try sourceAncestorLinks(of: node, layout: layout, foreignKey: fk) {
                let object = resolve(link.object)
                if object != node, let changedObject = changed[object], changedObject.layout === layout,
                   ownsLink(changedObject, fk) {
                    next = object
                    continue walk
                }
                guard seen.insert(object).inserted else { break walk }
                links.append(ObjectLink(object: object, destination: link.destination.map(resolve)))
            }
        }
        return links
    }

    func sourceAncestorLinks(of id: ObjectID, layout: EntityLayout, foreignKey fk: Int) throws -> [ObjectLink] {
        switch parent {
        case .store(let store):
            return try store.ancestorLinks(of: id, layout: layout, foreignKey: fk)
        case .context(let parent):
            return try parent.performAndWait { try $0.viewAncestorLinks(of: id, layout: layout, foreignKey: fk) }
        }
    }
}
