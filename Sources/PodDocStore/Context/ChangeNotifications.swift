/// What a save did, published by the context that saved.
///
/// A child context's save lists what it pushed into its parent; a root context's save lists
/// what it wrote to the store, with ``permanentIDs`` for the objects it inserted. Another
/// context brings itself up to date with ``ObjectContext/mergeChanges(from:)``.
public struct SaveNotification: Sendable {
    /// The name of the context that saved.
    public let contextName: String
    /// Whether this save wrote to the store (a root context's save).
    public let wroteToStore: Bool
    /// Objects inserted by the save (permanent IDs for a root save).
    public let inserted: Set<ObjectID>
    /// Objects updated by the save.
    public let updated: Set<ObjectID>
    /// Objects deleted by the save.
    public let deleted: Set<ObjectID>
    /// For each updated object, the names of the attributes and relationships that changed.
    public let changedKeys: [ObjectID: Set<String>]
    /// Temporary IDs that became permanent, for a root save.
    public let permanentIDs: [ObjectID: ObjectID]
    /// The saved rows of inserted and updated objects, for merging without a fetch.
    let rows: [ObjectID: VersionedRow]
    /// Identifies the context that saved.
    let source: ObjectIdentifier

    /// Whether nothing changed.
    public var isEmpty: Bool { inserted.isEmpty && updated.isEmpty && deleted.isEmpty }
}

/// Changes a context announces to its observers (results controllers) when it processes
/// pending changes: its own edits and what it merged.
struct ObjectsDidChange {
    var inserted: Set<ObjectID> = []
    var updated: Set<ObjectID> = []
    var deleted: Set<ObjectID> = []
    /// Everything was invalidated (reset): observers refetch.
    var invalidatedAll = false
    /// IDs that were renamed (temporary to permanent).
    var renamed: [ObjectID: ObjectID] = [:]

    var isEmpty: Bool {
        inserted.isEmpty && updated.isEmpty && deleted.isEmpty && !invalidatedAll && renamed.isEmpty
    }
}

/// The changes accumulated since the last `processPendingChanges()`.
struct PendingChanges {
    var change = ObjectsDidChange()

    mutating func inserted(_ id: ObjectID) {
        change.inserted.insert(id)
    }

    mutating func updated(_ id: ObjectID) {
        if !change.inserted.contains(id) { change.updated.insert(id) }
    }

    mutating func deleted(_ id: ObjectID) {
        if change.inserted.remove(id) == nil {
            change.updated.remove(id)
            change.deleted.insert(id)
        }
    }

    mutating func take() -> ObjectsDidChange {
        defer { change = ObjectsDidChange() }
        return change
    }
}

/// Something that watches a context's changes on the context's queue (results controllers).
protocol ContextChangeObserver: AnyObject {
    func contextDidChange(_ change: ObjectsDidChange)
}

struct WeakObserver {
    weak var observer: (any ContextChangeObserver)?
}
