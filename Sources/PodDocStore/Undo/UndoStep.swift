/// What to do to revert one recorded change.
enum UndoStep {
    /// Remove an object that was inserted (or restored).
    case remove(ObjectID)
    /// Bring back a deleted object, as it was.
    case restore(DeletedObject)
    /// Put a field back to `value`.
    case setField(ObjectID, field: Int, value: FieldValue)
    /// Delete an object that came in some other way than an insert in this context (a batch
    /// insert), with its delete rules; the delete records how to bring it back. An object of
    /// an insert batch still staged in this context takes its whole batch out instead.
    case delete(ObjectID)
    /// Stage a batch again (undoing it deletes the objects named by the IDs it handed out, or
    /// reverts a keyed batch).
    case restage(StagedBatch)
    /// Revert a keyed batch: take it out of the context while it is staged; once written,
    /// delete the objects it created and put back the values it replaced.
    case revertBatch(StagedBatch)
    /// Make objects what they say, as changes of the context (``ObjectContext/revert(to:)``
    /// does the same): a merge written straight to the store, taken back. `state` names the
    /// state they describe, for the error when one cannot be put back.
    case applyTargets([String: [Int64: PastState.Object]], describing: String)
}

/// A deleted object's state, kept so the delete can be undone with the same instance.
struct DeletedObject {
    let object: ManagedObject
    /// Its values when deleted.
    let row: RowData
    /// The fields it had changed since its snapshot.
    let changedFields: FieldSet
}

/// A named group of steps: one user action.
struct UndoGroup {
    var name: String
    var steps: [UndoStep] = []
    var isImplicit: Bool
}
