/// One object's unsaved state, as a save hands it to the parent (or the store).
struct PushedObject: Sendable {
    let id: ObjectID
    /// The row with this context's changes (for a delete: the last row seen).
    let row: RowData
    /// The fields this context changed.
    let changedFields: FieldSet
    /// The row as this context read it from the parent (nil for an insert).
    let snapshot: RowData?
    /// The store version of `snapshot` (0: never saved).
    let snapshotVersion: Int64
}

/// Everything a save hands up, in a form that can cross queues.
struct ChangeSet: Sendable {
    var inserted: [PushedObject] = []
    var updated: [PushedObject] = []
    /// For the updated objects that have one, by index in ``updated`` (ascending): the child
    /// push that set the row, if nothing changed it since (see ``ManagedObject/origin``).
    /// Only a context with children has any; kept apart so that ``PushedObject`` stays small.
    var updatedOrigins: [(index: Int, origin: PushOrigin)] = []
    var deleted: [PushedObject] = []
    var policy: MergePolicy
    /// The saving context's name, for notifications and conflict messages.
    var source: String
    var sourceID: ObjectIdentifier
    /// The saving context's change-set number (see ``PushOrigin``).
    var pushNumber: UInt64
    /// Adds an updated object, with the push that set its row if it has one.
    ///
    /// - Returns: its index in ``updated``.
    mutating func appendUpdated(_ pushed: PushedObject, origin: PushOrigin?) -> Int {
        if let origin { updatedOrigins.append((updated.count, origin)) }
        updated.append(pushed)
        return updated.count - 1
    }

    /// Key/value pairs a root save writes into the store's metadata, in the same transaction.
    var storeMetadata: [String: String] = [:]
    /// What a root save records about itself in the store's history.
    var note: SaveNote?
    /// Batch upserts staged in the saving context, in the order they were made.
    var batches: [StagedBatch] = []
}

/// What the receiving side made of a change set, in the change set's order.
struct PushOutcome: Sendable {
    /// For each inserted object: its row, under its final ID, with its store version.
    var inserted: [VersionedRow] = []
    /// For each updated object: its row after conflict resolution, or nil when the merge
    /// policy let a delete made elsewhere win.
    var updated: [VersionedRow?] = []
    /// For each deleted object: nil when deleted, or the row it keeps when the merge policy
    /// cancelled the delete.
    var deleted: [VersionedRow?] = []
    /// Rows the store deleted because an object of the save took their unique values (root
    /// saves only; see ``MergePolicy``): every context lets them go.
    var displaced: [ObjectID] = []
    /// Temporary IDs that became permanent (root saves only).
    var permanentIDs: [ObjectID: ObjectID] = [:]
    /// The change set's batch upserts as the store wrote them (root saves only).
    var batches: [WrittenBatch] = []
    /// The indexes of the updated objects whose outcome is not the row they pushed (nil, or
    /// other values): the saving context settles those one by one, and every other one by
    /// itself later (see ``PushFlight``). Found on the receiving side, off the saving
    /// context's queue.
    var updatesNotAsPushed: [Int] = []

    /// Finds ``updatesNotAsPushed``. A row taken as pushed shares the pushed row's storage,
    /// so each comparison is immediate.
    mutating func findUpdatesNotAsPushed(_ changes: ChangeSet) {
        updatesNotAsPushed = changes.updated.indices.filter { i in
            guard let row = updated[i] else { return true }
            return row.row != changes.updated[i].row
        }
    }
}

// MARK: - Validation

extension ChangeSet {
    /// Checks that every inserted and updated row has its required attributes. The receiving
    /// side runs it (the parent on its queue, or the root before writing), so a main context's
    /// save spends no main-actor time on it, and nothing is applied when it fails.
    ///
    /// - Throws: ``StoreError`` `.validation` naming the first object and attribute.
    func validateRequiredAttributes(_ model: ObjectModel) throws {
        for pushed in inserted { try Self.validate(pushed, model) }
        for pushed in updated { try Self.validate(pushed, model) }
    }

    private static func validate(_ pushed: PushedObject, _ model: ObjectModel) throws {
        let layout = model.layout(pushed.id.entityName)
        for (i, attribute) in layout.attributes.enumerated() where !attribute.isOptional && pushed.row.values[i].isNull {
            throw StoreError(
                .validation, "Could not save \(pushed.id): required attribute '\(attribute.name)' is nil. Set it, or declare it optional.")
        }
    }
}

extension ChangeSet {
    /// Whether an inserted, updated or deleted object holds a long text or blob (see
    /// ``PersistentStore/longValueBytes``): SQLite reads all of it to rewrite or delete its
    /// row, and writes all of it for an insert or into the history.
    var touchesLongValue: Bool {
        let isLong = { (object: PushedObject) in object.row.values.contains(where: \.isLong) }
        return updated.contains(where: isLong) || deleted.contains(where: isLong) || inserted.contains(where: isLong)
    }
}
