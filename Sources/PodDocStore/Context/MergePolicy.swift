/// How a save resolves a conflict: an object it changed or deleted was changed or deleted
/// elsewhere (by another context, or another process) since this context read it, or an
/// object it saves has a unique value that another object took meanwhile.
///
/// The names follow Core Data's merge policies.
///
/// **Unique values.** An object that is inserted (a new one, or a deleted one brought back by
/// undo) or re-created (an update of an object deleted elsewhere, under a policy where ours
/// survives) may find its unique value held by another row: a batch import wrote the same key
/// meanwhile, or the code inserted a duplicate. Under ``error`` the save fails with
/// ``StoreError/Code/uniqueConstraint`` naming the key, with nothing written. Under every
/// other policy the
/// saving object keeps the value, and the other row is deleted in the same transaction (the
/// root's did-save lists it as deleted, so every context lets it go): the store never holds a
/// unique value twice, and the saving object keeps the ID its context and undo steps name.
public enum MergePolicy: Sendable, Hashable {
    /// Refuse to save and report every conflict (``StoreError/Code/mergeConflict``). The default.
    case error
    /// Property by property, what was saved elsewhere wins; this context's other changes are kept.
    case storeWins
    /// Property by property, this context's changes win; other properties take the saved values.
    case inMemoryWins
    /// This context's whole object replaces what was saved elsewhere.
    case overwrite
    /// This context's changes to conflicting objects are dropped; what was saved elsewhere stays.
    case rollback

    /// The row to save for an object changed both here (`ours`, with `changed` fields) and
    /// elsewhere (`theirs`), where `conflicting` are the fields `theirs` changed.
    func resolve(ours: RowData, changed: FieldSet, theirs: RowData, conflicting: FieldSet) -> RowData {
        var result = theirs
        switch self {
        case .error:
            preconditionFailure("conflicts under .error are reported, not resolved")
        case .storeWins:
            result.copyFields(changed.subtracting(conflicting), from: ours)
        case .inMemoryWins:
            result.copyFields(changed, from: ours)
        case .overwrite:
            result = ours
        case .rollback:
            break
        }
        return result
    }

    /// Whether this context's side survives when the other side deleted or kept the object:
    /// an update of an object deleted elsewhere re-creates it, and a delete of an object
    /// changed elsewhere goes ahead.
    var oursSurvives: Bool {
        switch self {
        case .inMemoryWins, .overwrite: return true
        case .error, .storeWins, .rollback: return false
        }
    }
}

/// One object a save found changed elsewhere.
public struct MergeConflict: Sendable, Hashable, CustomStringConvertible {
    /// What happened elsewhere.
    public enum Kind: Sendable, Hashable {
        /// The object was changed elsewhere, in ``MergeConflict/properties``.
        case changedElsewhere
        /// This context changed the object, but it was deleted elsewhere.
        case deletedElsewhere
        /// This context deleted the object, but it was changed elsewhere.
        case changedElsewhereWhileDeleted
    }

    /// The object.
    public let objectID: ObjectID
    /// What happened.
    public let kind: Kind
    /// The attributes and relationships changed elsewhere.
    public let properties: [String]
    /// Where the conflict was found: the parent context's name, or "store".
    public let foundIn: String

    public var description: String {
        switch kind {
        case .changedElsewhere:
            return "\(objectID): \(properties.joined(separator: ", ")) changed in \(foundIn)"
        case .deletedElsewhere:
            return "\(objectID): deleted in \(foundIn) while changed here"
        case .changedElsewhereWhileDeleted:
            return "\(objectID): \(properties.joined(separator: ", ")) changed in \(foundIn) while deleted here"
        }
    }
}
