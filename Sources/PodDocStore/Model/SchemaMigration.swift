public import GRDB

/// One step of schema evolution, run in its own transaction when a store of an older
/// schema version is opened.
///
/// ```swift
/// let addNote = SchemaMigration(to: 2) { db in
///     try db.execute(sql: #"ALTER TABLE "Item" ADD COLUMN "note" TEXT"#)
/// }
/// ```
public struct SchemaMigration: Sendable {
    /// The schema version the store has after this step.
    public let version: Int
    /// The work; it runs inside the transaction that also sets `user_version`.
    public let migrate: @Sendable (Database) throws -> Void

    /// Declares the step that brings a store to `version`.
    public init(to version: Int, _ migrate: @escaping @Sendable (Database) throws -> Void) {
        self.version = version
        self.migrate = migrate
    }
}
