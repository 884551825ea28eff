/// What a save did, published by the context that saved.
///
/// A child context's save lists what it pushed into its parent; a root context's save lists
/// what it wrote to the store, with ``permanentIDs`` for the objects it inserted. Another
/// context brings itself up to date with ``ObjectContext/mergeChanges(from:)``.
///
/// The sets are computed when asked for, so a notification nobody reads costs little.
public struct SaveNotification: Sendable {
    /// The name of the context that saved.
    public let contextName: String
    /// Whether this save wrote to the store (a root context's save).
    public let wroteToStore: Bool
    /// Temporary IDs that became permanent, for a root save.
    public let permanentIDs: [ObjectID: ObjectID]
    /// The saved rows of inserted objects.
    let insertedRows: [VersionedRow]
    /// The saved rows of updated objects, with the fields each save changed.
    let updatedRows: [VersionedRow]
    let updatedFields: [FieldSet]
    /// For each updated row of a root save, the child that pushed it as written, if any (see
    /// ``ManagedObject/origin``): that child already holds the row and need not merge it.
    let updatedOrigins: [ObjectIdentifier?]
    /// For a root save, by child push: the store version written for each of the push's
    /// updated objects whose row went to the store as pushed (0 for the others). Made on the
    /// root's queue, so a child takes them as they are (``PushFlight/savedVersions``).
    let pushedVersions: [PushKey: [Int64]]
    let deletedIDs: [ObjectID]
    /// Batch upserts the save wrote (root saves only).
    let batches: [WrittenBatch]
    let model: ObjectModel
    /// Identifies the context that saved.
    let source: ObjectIdentifier

    /// Objects inserted by the save (permanent IDs for a root save), batch upserts included.
    public var inserted: Set<ObjectID> { Set(insertedRows.map(\.id)).union(batches.lazy.flatMap(\.result.created)) }
    /// Objects updated by the save, batch upserts included.
    public var updated: Set<ObjectID> { Set(updatedRows.map(\.id)).union(batches.lazy.flatMap(\.result.updated)) }
    /// Objects deleted by the save.
    public var deleted: Set<ObjectID> { Set(deletedIDs) }

    /// For each updated object, the names of the attributes and relationships that changed.
    public var changedKeys: [ObjectID: Set<String>] {
        var keys: [ObjectID: Set<String>] = [:]
        for (row, fields) in zip(updatedRows, updatedFields) {
            let layout = model.layout(row.id.entityName)
            keys[row.id] = Set(fields.map(layout.fieldName))
        }
        for written in batches {
            let names = Set(written.batch.columns.map(written.batch.layout.fieldName))
            for id in written.result.updated { keys[id, default: []].formUnion(names) }
        }
        return keys
    }

    /// Whether nothing changed.
    public var isEmpty: Bool { insertedRows.isEmpty && updatedRows.isEmpty && deletedIDs.isEmpty && batches.isEmpty }

    /// The notification for a change set as the receiving side resolved it.
    init(changes: ChangeSet, outcome: PushOutcome, contextName: String, wroteToStore: Bool, model: ObjectModel) {
        var updatedRows: [VersionedRow] = []
        var updatedFields: [FieldSet] = []
        var deleted: [ObjectID] = []
        var origins: [ObjectIdentifier?] = []
        var pushedVersions: [PushKey: [Int64]] = [:]
        updatedRows.reserveCapacity(changes.updated.count)
        updatedFields.reserveCapacity(changes.updated.count)
        origins.reserveCapacity(changes.updated.count)
        var nextOrigin = changes.updatedOrigins.startIndex
        for (index, (pushed, row)) in zip(changes.updated, outcome.updated).enumerated() {
            var origin: PushOrigin?
            if nextOrigin < changes.updatedOrigins.endIndex, changes.updatedOrigins[nextOrigin].index == index {
                origin = changes.updatedOrigins[nextOrigin].origin
                nextOrigin += 1
            }
            if let row {
                updatedRows.append(row)
                updatedFields.append(pushed.changedFields)
                // Written as the child pushed it (the store resolved no reference in it).
                if wroteToStore, let origin, row.row == pushed.row {
                    origins.append(origin.source)
                    let key = PushKey(source: origin.source, push: origin.push)
                    pushedVersions[key, default: []].setValue(row.version, at: origin.index)
                } else {
                    origins.append(nil)
                }
            } else {
                deleted.append(pushed.id)
            }
        }
        for (pushed, kept) in zip(changes.deleted, outcome.deleted) {
            if let kept {
                updatedRows.append(kept)
                updatedFields.append(FieldSet())
                origins.append(nil)
            } else {
                deleted.append(pushed.id)
            }
        }
        deleted += outcome.displaced
        self.contextName = contextName
        self.wroteToStore = wroteToStore
        self.permanentIDs = outcome.permanentIDs
        self.insertedRows = outcome.inserted
        self.updatedRows = updatedRows
        self.updatedFields = updatedFields
        self.updatedOrigins = origins
        self.pushedVersions = pushedVersions
        self.deletedIDs = deleted
        self.batches = outcome.batches
        self.model = model
        self.source = changes.sourceID
    }
}

/// One push of one child context.
struct PushKey: Hashable, Sendable {
    let source: ObjectIdentifier
    let push: UInt64
}

extension [Int64] {
    /// Sets `value` at `index`, growing the array with zeros as needed.
    fileprivate mutating func setValue(_ value: Int64, at index: Int) {
        if index >= count { append(contentsOf: repeatElement(0, count: index - count + 1)) }
        self[index] = value
    }
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

/// The changes accumulated since the last `processPendingChanges()`, and who hears of them.
///
/// Changes are recorded only while someone observes the context (``isRecording``). Each
/// announcement (``takeForAnnouncing()``) starts a new ``generation``, which objects note
/// when they are first announced in it. Confined to its context's queue.
struct PendingChanges {
    private var change = ObjectsDidChange()
    /// Whether anyone observes the context, so that changes are worth recording.
    private(set) var isRecording = false
    /// Counts announcements; see `ManagedObject.announced`.
    private(set) var generation: UInt64 = 1
    /// Whether an announcement is scheduled on the context's queue (a main context edited
    /// outside any `perform` block).
    private(set) var isScheduled = false
    private var observers: [WeakObserver] = []

    /// Adds an observer; changes are recorded from now on.
    mutating func addObserver(_ observer: any ContextChangeObserver) {
        observers.append(WeakObserver(observer: observer))
        isRecording = true
    }

    /// Notes that an announcement is scheduled; false when one was already.
    mutating func schedule() -> Bool {
        guard !isScheduled else { return false }
        isScheduled = true
        return true
    }

    /// Notes that the scheduled announcement, if any, is being made now.
    mutating func unschedule() {
        isScheduled = false
    }

    /// Starts a new generation and takes the changes recorded in the last one, with the
    /// observers to tell (none when there is nothing to say). Observers that are gone are
    /// forgotten, and recording stops when none is left.
    mutating func takeForAnnouncing() -> (change: ObjectsDidChange, observers: [any ContextChangeObserver]) {
        generation &+= 1
        let taken = change
        change = ObjectsDidChange()
        guard !taken.isEmpty else { return (taken, []) }
        observers.removeAll { $0.observer == nil }
        isRecording = !observers.isEmpty
        return (taken, observers.compactMap(\.observer))
    }

    mutating func inserted(_ id: ObjectID) {
        guard isRecording else { return }
        change.inserted.insert(id)
    }

    mutating func updated(_ id: ObjectID) {
        guard isRecording else { return }
        if !change.inserted.contains(id) { change.updated.insert(id) }
    }

    mutating func deleted(_ id: ObjectID) {
        guard isRecording else { return }
        if change.inserted.remove(id) == nil {
            change.updated.remove(id)
            change.deleted.insert(id)
        }
    }

    mutating func renamed(_ old: ObjectID, to new: ObjectID) {
        guard isRecording else { return }
        change.renamed[old] = new
    }

    mutating func invalidateAll() {
        guard isRecording else { return }
        change.invalidatedAll = true
    }
}

/// Something that watches a context's changes on the context's queue (results controllers).
protocol ContextChangeObserver: AnyObject {
    func contextDidChange(_ change: ObjectsDidChange)
}

struct WeakObserver {
    weak var observer: (any ContextChangeObserver)?
}
