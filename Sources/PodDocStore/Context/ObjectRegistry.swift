// MARK: - ObjectRegistry

/// The objects a context holds, by ID, and the old rows waiting to be freed.
///
/// A context hands out one instance per object ID. Clean objects that nobody outside the
/// registry holds are dropped by ``sweep(force:)``, so a context that reads a million objects
/// in turn does not keep them; their snapshots, and rows a save or a merge replaced
/// (``retire(_:)``), are freed together at the end of the sweep, off the context's queue when
/// there are many. Confined to its context's queue.
struct ObjectRegistry {
    /// Below this many objects a sweep does nothing: walking a small registry costs more than
    /// the memory it would free.
    static let smallestSwept = 1024

    private var objects: [ObjectID: ManagedObject] = [:]
    /// Rows replaced by a save or a merge, or dropped by a sweep, freed at its end.
    private var retiredRows: [RowData] = []
    /// The size after the last sweep: the next one waits until the registry has doubled, so
    /// sweeping costs a constant time per object registered.
    private var countAtLastSweep = 0

    /// How many objects are held.
    var count: Int { objects.count }
    /// Whether no object is held.
    var isEmpty: Bool { objects.isEmpty }
    /// The IDs held, in no order.
    var ids: Dictionary<ObjectID, ManagedObject>.Keys { objects.keys }
    /// The objects held, in no order.
    var all: Dictionary<ObjectID, ManagedObject>.Values { objects.values }

    /// The object registered under `id`.
    subscript(id: ObjectID) -> ManagedObject? { objects[id] }

    /// Registers `object` under `id` (its ID, or the permanent ID it is taking).
    mutating func register(_ object: ManagedObject, as id: ObjectID) {
        objects[id] = object
    }

    /// Forgets the object registered under `id`.
    mutating func remove(_ id: ObjectID) {
        objects.removeValue(forKey: id)
    }

    /// Forgets every object (after a reset); the next sweep starts counting afresh.
    mutating func removeAll() {
        objects.removeAll()
        countAtLastSweep = 0
    }

    /// Makes room for `more` objects.
    mutating func reserveCapacity(adding more: Int) {
        objects.reserveCapacity(objects.count + more)
    }

    /// Keeps `row` (an object's old snapshot) until the end of the next sweep.
    mutating func retire(_ row: RowData) {
        retiredRows.append(row)
    }

    /// Drops clean objects that nobody outside the registry holds, when the registry has
    /// doubled since the last sweep (or always, when `force`); then frees the rows retired
    /// since the last time.
    mutating func sweep(force: Bool = false) {
        defer { releaseRetiredRows() }
        guard force || objects.count > max(Self.smallestSwept, countAtLastSweep * 2) else { return }
        var index = objects.values.startIndex
        var unused: [ObjectID] = []
        var kept: [(ObjectID, ManagedObject)] = []
        while index != objects.values.endIndex {
            if objects.values[index].state == .clean, isKnownUniquelyReferenced(&objects.values[index]) {
                unused.append(objects.keys[index])
                if let row = objects.values[index].snapshot { retiredRows.append(row) }
                objects.values[index].snapshot = nil
            } else {
                kept.append((objects.keys[index], objects.values[index]))
            }
            objects.values.formIndex(after: &index)
        }
        if unused.count > kept.count {
            // Most go: a new table of those that stay is cheaper than removing each.
            objects = Dictionary(uniqueKeysWithValues: kept)
        } else {
            for id in unused { objects.removeValue(forKey: id) }
        }
        countAtLastSweep = objects.count
    }

    /// Frees the rows retired since the last time: on a background queue when there are many
    /// (the context's queue, often the main actor, is not kept busy freeing memory).
    private mutating func releaseRetiredRows() {
        guard retiredRows.count >= BackgroundRelease.worthwhileCount else {
            retiredRows.removeAll(keepingCapacity: true)
            return
        }
        releaseInBackground(taking: &retiredRows, leaving: [])
    }
}
