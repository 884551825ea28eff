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
    var deleted: [PushedObject] = []
    var policy: MergePolicy
    /// The saving context's name, for notifications and conflict messages.
    var source: String
    var sourceID: ObjectIdentifier
}

/// What the receiving side made of a change set.
struct PushOutcome: Sendable {
    /// The row each inserted or updated object ended with (after conflict resolution), with
    /// its store version, keyed by the ID the saving context used.
    var rows: [ObjectID: VersionedRow] = [:]
    /// Objects the save wanted to keep that are gone after resolution (deleted elsewhere).
    var removed: Set<ObjectID> = []
    /// Deletes cancelled by the merge policy: the object stays, with this row.
    var undeleted: [ObjectID: VersionedRow] = [:]
    /// Temporary IDs that became permanent (root saves only).
    var permanentIDs: [ObjectID: ObjectID] = [:]
}
