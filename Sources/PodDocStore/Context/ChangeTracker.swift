// MARK: - ChangeTracker

/// The objects of a context that have unsaved changes (inserted, updated or deleted), how
/// many each entity has, and, for those not deleted, which of them point at a given
/// destination through each foreign key.
///
/// The three always describe the same objects: an object enters and leaves all of them at
/// once (``track(_:)``, ``untrack(_:)``), and a change of a tracked object's foreign keys
/// goes through ``reindex(_:row:adding:)``. Confined to its context's queue.
struct ChangeTracker {
    private var objects: [ObjectID: ManagedObject] = [:]
    /// By entity ordinal.
    private var counts: [Int]
    private var referrers: [RefKey: [ObjectID: Set<ObjectID>]] = [:]

    init(entityCount: Int) {
        counts = Array(repeating: 0, count: entityCount)
    }

    /// Whether no object has unsaved changes.
    var isEmpty: Bool { objects.isEmpty }
    /// How many objects have unsaved changes.
    var count: Int { objects.count }
    /// The changed objects, in no order.
    var all: Dictionary<ObjectID, ManagedObject>.Values { objects.values }

    /// The changed object with this ID, if it is one.
    subscript(id: ObjectID) -> ManagedObject? { objects[id] }

    /// How many objects of an entity have unsaved changes.
    func count(in layout: EntityLayout) -> Int { counts[layout.ordinal] }

    /// The changed objects of an entity.
    func objects(in layout: EntityLayout) -> [ManagedObject] {
        guard counts[layout.ordinal] > 0 else { return [] }
        return objects.values.filter { $0.layout === layout }
    }

    /// For changed, not deleted objects of `entity`: the IDs of those whose foreign key
    /// `foreignKey` points at each destination.
    func referrers(entity: String, foreignKey: Int) -> [ObjectID: Set<ObjectID>] {
        referrers[RefKey(entity: entity, foreignKey: foreignKey)] ?? [:]
    }

    /// Makes room for `more` objects.
    mutating func reserveCapacity(adding more: Int) {
        objects.reserveCapacity(objects.count + more)
    }

    /// Records that `object` has unsaved changes; false when it was tracked already.
    @discardableResult
    mutating func track(_ object: ManagedObject) -> Bool {
        guard objects.updateValue(object, forKey: object.objectID) == nil else { return false }
        counts[object.layout.ordinal] += 1
        if object.state != .deleted, let current = object.current { reindex(object, row: current, adding: true) }
        return true
    }

    /// Forgets that `object` has unsaved changes.
    mutating func untrack(_ object: ManagedObject) {
        guard objects.removeValue(forKey: object.objectID) != nil else { return }
        counts[object.layout.ordinal] -= 1
        if object.state != .deleted, let current = object.current { reindex(object, row: current, adding: false) }
    }

    /// Adds (or removes) the references `row` makes for `object` to the foreign-key index.
    mutating func reindex(_ object: ManagedObject, row: RowData, adding: Bool) {
        for (foreignKey, destination) in row.refs.enumerated() {
            guard let destination else { continue }
            let key = RefKey(entity: object.layout.name, foreignKey: foreignKey)
            if adding {
                referrers[key, default: [:]][destination, default: []].insert(object.objectID)
            } else {
                referrers[key]?[destination]?.remove(object.objectID)
            }
        }
    }

    /// Forgets every change (after a rollback or reset).
    mutating func removeAll() {
        objects.removeAll(keepingCapacity: true)
        for index in counts.indices { counts[index] = 0 }
        referrers.removeAll(keepingCapacity: true)
    }

    /// Keeps only the candidates `visit` names that are tracked, rebuilding the counts and the
    /// index; the others leave all at once, without being visited, and the old tables (a
    /// reference to every object a save moved, a set per destination) are let go of off the
    /// context's queue.
    mutating func retainOnly(_ visit: ((ManagedObject) -> Void) -> Void) {
        var kept: [ObjectID: ManagedObject] = [:]
        visit { object in
            if objects[object.objectID] === object { kept[object.objectID] = object }
        }
        releaseInBackground(taking: &objects, leaving: kept)
        if !referrers.isEmpty { releaseInBackground(taking: &referrers, leaving: [:]) }
        for index in counts.indices { counts[index] = 0 }
        for object in objects.values {
            counts[object.layout.ordinal] += 1
            if object.state != .deleted, let current = object.current { reindex(object, row: current, adding: true) }
        }
    }
}

/// A foreign key of an entity: a key of ``ChangeTracker``'s index.
struct RefKey: Hashable {
    let entity: String
    let foreignKey: Int
}
