internal import GRDB

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
    let migrate: @Sendable (Transaction) throws -> Void

    /// Declares the step that brings a store to `version`.
    public init(to version: Int, _ migrate: @escaping @Sendable (Transaction) throws -> Void) {
        self.version = version
        self.migrate = migrate
    }

    /// The store's connection while a migration step runs, inside the step's transaction:
    /// everything executed through it commits with the new schema version, or not at all.
    public struct Transaction {
        private let db: Database

        init(_ db: Database) {
            self.db = db
        }

        /// Executes one or more SQL statements (`ALTER TABLE`, `UPDATE`, `CREATE INDEX`…).
        ///
        /// - Throws: SQLite's error; the step fails and the store keeps its old schema.
        public func execute(sql: String) throws {
            try db.execute(sql: sql)
        }
    }
}
