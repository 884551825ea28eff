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
        return try viewDescendantLinks(of: roots, layout: layout, foreignKey: fk)
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
        return try viewAncestorLinks(of: id, layout: layout, foreignKey: fk).dropFirst().map(\.object)
    }

    private func selfReference(_ key: ToOne) -> (EntityLayout, Int) {
        let layout = model.layout(key.relationship.destination)
        guard case .foreignKey(let fk) = layout.relationship(named: key.name).storage,
            layout.relationship(named: key.name).destination == layout.name
        else {
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
        try readingConsistently { try overlaidDescendantLinks(of: roots.map(resolve), layout: layout, foreignKey: fk) }
    }

    private func overlaidDescendantLinks(of roots: [ObjectID], layout: EntityLayout, foreignKey fk: Int) throws -> [ObjectLink] {
        var overlay = DescendantOverlay(roots: roots)
        for object in changedObjects(in: layout) where ownsLink(object, fk) {
            let parent = object.state == .deleted ? nil : object.current?.refs[fk].map(resolve)
            overlay.own(object.objectID, parent: parent, knownHere: object.state == .inserted)
        }
        guard overlay.ownsAny else { return try sourceDescendantLinks(of: roots, layout: layout, foreignKey: fk) }
        var seeds = overlay.firstSeeds()
        repeat {
            if !seeds.isEmpty {
                let answer = try sourceDescendantLinks(of: seeds, layout: layout, foreignKey: fk)
                if let unchanged = overlay.unchanged(answer, resolve: resolve) { return unchanged }
                overlay.add(answer: answer, resolve: resolve)
            }
            seeds = overlay.nextSeeds()
        } while !seeds.isEmpty
        return overlay.links
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
        try readingConsistently { try overlaidAncestorLinks(of: resolve(id), layout: layout, foreignKey: fk) }
    }

    private func overlaidAncestorLinks(of id: ObjectID, layout: EntityLayout, foreignKey fk: Int) throws -> [ObjectLink] {
        guard hasChanges(in: layout) else { return try sourceAncestorLinks(of: id, layout: layout, foreignKey: fk) }
        var links: [ObjectLink] = []
        var seen = Set<ObjectID>()
        var next: ObjectID? = id
        walk: while let node = next, !seen.contains(node) {
            next = nil
            if let object = changes[node], object.layout === layout, ownsLink(object, fk) {
                guard object.state != .deleted, let row = object.current else { break }
                seen.insert(node)
                let parent = row.refs[fk].map(resolve)
                links.append(ObjectLink(object: node, destination: parent))
                next = parent
                continue
            }
            for link in try sourceAncestorLinks(of: node, layout: layout, foreignKey: fk) {
                let object = resolve(link.object)
                if object != node, let changedObject = changes[object], changedObject.layout === layout,
                    ownsLink(changedObject, fk)
                {
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

// MARK: - Overlaying a context's own links

/// Merges a parent's answers (links in breadth-first order) with the links a context owns,
/// in one pass over each answer: a link is taken when its destination is already in the
/// result, and held back under its destination otherwise, until that destination joins
/// (through one of the context's own links) or never does.
private struct DescendantOverlay {
    private let roots: [ObjectID]
    private let rootSet: Set<ObjectID>
    /// Objects whose link the context owns.
    private var owned = Set<ObjectID>()
    /// The context's own links, by destination.
    private var ownChildren: [ObjectID: [ObjectID]] = [:]
    /// Owned objects whose parent-side descendants are known: inserted in the context (none),
    /// or met in an answer (all of them are in that answer).
    private var covered = Set<ObjectID>()
    /// The roots and every object in the result.
    private var included: Set<ObjectID>
    /// Links from the answers whose destination is not in the result (yet), by destination.
    private var heldBack: [ObjectID: [ObjectID]] = [:]
    /// Owned objects in the result, in the order they joined, and how many were looked at.
    private var includedOwned: [ObjectID] = []
    private var examined = 0
    private var linkedRoots = Set<ObjectID>()
    private(set) var links: [ObjectLink] = []

    init(roots: [ObjectID]) {
        self.roots = roots
        self.rootSet = Set(roots)
        self.included = rootSet
    }

    var ownsAny: Bool { !owned.isEmpty }

    /// Records an object whose link the context owns (`parent` nil when it is deleted or at
    /// the top).
    mutating func own(_ object: ObjectID, parent: ObjectID?, knownHere: Bool) {
        owned.insert(object)
        if knownHere { covered.insert(object) }
        if let parent { ownChildren[parent, default: []].append(object) }
    }

    /// The roots the parent knows, after taking the context's own children of the roots.
    mutating func firstSeeds() -> [ObjectID] {
        for root in roots {
            for child in ownChildren[root] ?? [] { include(child, under: root) }
        }
        return roots.filter { !owned.contains($0) || !covered.contains($0) }
    }

    /// The first answer itself, when the context changes nothing in it: no link of the
    /// context's own leads into it and none of its objects is the context's (the usual case
    /// of deleting a subtree, where only its top is). Saves building the result link by link.
    func unchanged(_ answer: [ObjectLink], resolve: (ObjectID) -> ObjectID) -> [ObjectLink]? {
        guard links.isEmpty, ownChildren.isEmpty, !answer.contains(where: { owned.contains(resolve($0.object)) }) else { return nil }
        return answer.map { ObjectLink(object: resolve($0.object), destination: $0.destination.map(resolve)) }
    }

    /// Takes one answer of the parent.
    mutating func add(answer: [ObjectLink], resolve: (ObjectID) -> ObjectID) {
        included.reserveCapacity(included.count + answer.count)
        links.reserveCapacity(links.count + answer.count)
        for link in answer {
            let object = resolve(link.object)
            if owned.contains(object) {
                covered.insert(object)
                continue
            }
            guard let parent = link.destination.map(resolve) else { continue }
            if included.contains(parent) {
                include(object, under: parent)
            } else {
                heldBack[parent, default: []].append(object)
            }
        }
    }

    /// The owned objects that joined the result without their parent-side descendants.
    mutating func nextSeeds() -> [ObjectID] {
        let seeds = includedOwned[examined...].filter { !covered.contains($0) }
        examined = includedOwned.count
        covered.formUnion(seeds)
        return seeds
    }

    /// Adds `object` to the result, then everything waiting below it, without recursion.
    private mutating func include(_ object: ObjectID, under parent: ObjectID) {
        var pending = [(object, parent)]
        while let (node, parent) = pending.popLast() {
            guard included.insert(node).inserted else {
                // A root met below another root: its link counts, its children are in already.
                if rootSet.contains(node), linkedRoots.insert(node).inserted {
                    links.append(ObjectLink(object: node, destination: parent))
                }
                continue
            }
            links.append(ObjectLink(object: node, destination: parent))
            if owned.contains(node) { includedOwned.append(node) }
            for child in ownChildren[node] ?? [] { pending.append((child, node)) }
            for child in heldBack.removeValue(forKey: node) ?? [] { pending.append((child, node)) }
        }
    }
}
