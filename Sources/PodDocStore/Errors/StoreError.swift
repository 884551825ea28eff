import Foundation

/// An error from the object store: opening, migrating, validating, saving or fetching.
///
/// Match on ``code``; show ``message`` to users: it says what went wrong and what to do.
/// A save that fails because of conflicts carries each one in ``conflicts``.
///
/// ```swift
/// do { try context.save() }
/// catch let error as StoreError where error.code == .mergeConflict {
///     for conflict in error.conflicts { print(conflict) }
/// }
/// ```
public struct StoreError: Error, Sendable {
    /// The kind of failure.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Kind: String {
            case invalidModel, notAStore, newerSchema, migrationFailed, schemaMismatch
            case corrupt, sqlite, mergeConflict, validation, uniqueConstraint, readOnly, notInHistory
        }
        private let kind: Kind
        private init(_ kind: Kind) { self.kind = kind }

        /// The model declares something impossible (a missing inverse, a duplicate name…).
        public static let invalidModel = Code(.invalidModel)
        /// The file is not a poddoc store (wrong `application_id`, or not SQLite).
        public static let notAStore = Code(.notAStore)
        /// The store was written by a newer schema than this program knows.
        public static let newerSchema = Code(.newerSchema)
        /// A schema migration failed; the store was left at its previous version.
        public static let migrationFailed = Code(.migrationFailed)
        /// The tables do not match the model (a missing table or column).
        public static let schemaMismatch = Code(.schemaMismatch)
        /// The database file failed its integrity check.
        public static let corrupt = Code(.corrupt)
        /// SQLite reported an error.
        public static let sqlite = Code(.sqlite)
        /// Saving met changes made elsewhere and the merge policy is `.error`.
        public static let mergeConflict = Code(.mergeConflict)
        /// An object is not valid for saving (a required attribute is nil, a deny rule…).
        public static let validation = Code(.validation)
        /// Two objects share a value of a unique key.
        public static let uniqueConstraint = Code(.uniqueConstraint)
        /// The store was opened read-only.
        public static let readOnly = Code(.readOnly)
        /// The history does not reach back to the save asked for (let go by the retention, or
        /// a save that recorded no values before).
        public static let notInHistory = Code(.notInHistory)

        public var description: String { kind.rawValue }
    }

    /// The kind of failure.
    public let code: Code
    /// What happened and what to do about it.
    public let message: String
    /// The conflicts, for ``Code/mergeConflict``.
    public let conflicts: [MergeConflict]
    /// The underlying error, if any (a GRDB `DatabaseError`, for instance).
    public let cause: (any Error)?

    init(_ code: Code, _ message: String, conflicts: [MergeConflict] = [], cause: (any Error)? = nil) {
        self.code = code
        self.message = message
        self.conflicts = conflicts
        self.cause = cause
    }
}

// MARK: - Factories

extension StoreError {
    static func invalidModel(_ message: String) -> StoreError {
        StoreError(.invalidModel, "Invalid object model: \(message)")
    }

    /// What follows the name of a store (or document) a newer poddoc wrote: "was made by a
    /// newer poddoc: model 3, this poddoc knows up to 2; nothing changed. …".
    public static func newerModelDescription(found: Int, known: Int) -> String {
        "was made by a newer poddoc: model \(found), this poddoc knows up to \(known); nothing changed. Open it with a newer poddoc."
    }

    static func sqlite(_ error: any Error, while action: String) -> StoreError {
        if let error = error as? StoreError { return error }
        return StoreError(.sqlite, "SQLite failed while \(action): \(error)", cause: error)
    }

    static func mergeConflict(_ conflicts: [MergeConflict]) -> StoreError {
        let list = conflicts.prefix(10).map { "  - \($0)" }.joined(separator: "\n")
        let more = conflicts.count > 10 ? "\n  … and \(conflicts.count - 10) more" : ""
        return StoreError(
            .mergeConflict,
            "Could not save: \(conflicts.count) object(s) were changed elsewhere since they were read:\n\(list)\(more)\n"
                + "Refresh the objects, or choose a merge policy (storeWins, inMemoryWins, overwrite, rollback).",
            conflicts: conflicts)
    }
}

// MARK: - CustomStringConvertible

extension StoreError: CustomStringConvertible {
    public var description: String { message }
}

// MARK: - LocalizedError

extension StoreError: LocalizedError {
    public var errorDescription: String? { message }
}
