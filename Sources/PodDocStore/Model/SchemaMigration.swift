internal import GRDB
internal import GRDBSQLite

/// A custom stage of a migration: work that inference cannot do (split a field, compute a
/// value), run when a store written with an older model version is opened (Core Data's
/// `NSCustomMigrationStage`).
///
/// A store that records its model (every store poddoc writes) is migrated in one transaction:
/// the `before` work of each stage up to the new version, against the old tables; the steps
/// inferred from the two models (``ObjectModel``); then each stage's `after` work, against
/// the new tables. A store that records no model and whose old model is not among
/// ``ObjectModel/earlierVersions`` is migrated by the stages alone, as hand-written SQL.
///
/// ```swift
/// // Version 2 adds `initials`, computed from `name`.
/// let initials = SchemaMigration(to: 2) { db in
///     try db.execute(sql: #"UPDATE "Person" SET "initials" = substr("name", 1, 1)"#)
/// }
/// ```
public struct SchemaMigration: Sendable {
    /// The model version the store has after this stage.
    public let version: Int
    /// The work before the inferred steps, against the old tables.
    let before: (@Sendable (Transaction) throws -> Void)?
    /// The work after the inferred steps, against the new tables.
    let after: (@Sendable (Transaction) throws -> Void)?

    /// Declares a stage whose work runs after the inferred steps, on the new tables.
    public init(to version: Int, _ after: @escaping @Sendable (Transaction) throws -> Void) {
        self.init(to: version, before: nil, after: after)
    }

    /// Declares a stage with work before the inferred steps (on the old tables: save what a
    /// removed column holds) and after them (on the new tables: fill a new one).
    public init(
        to version: Int, before: (@Sendable (Transaction) throws -> Void)?, after: (@Sendable (Transaction) throws -> Void)?
    ) {
        self.version = version
        self.before = before
        self.after = after
    }

    /// The store's connection while a stage runs, inside the migration's transaction:
    /// everything executed through it commits with the new model, or not at all.
    public struct Transaction {
        private let db: Database

        init(_ db: Database) {
            self.db = db
        }

        /// Executes one or more SQL statements (`UPDATE`, `CREATE TABLE`, `INSERT … SELECT`…).
        ///
        /// - Throws: SQLite's error; the migration fails and the store keeps its old model.
        public func execute(sql: String) throws {
            try db.execute(sql: sql)
        }

        /// Executes one statement with `?` arguments.
        ///
        /// - Throws: SQLite's error; the migration fails and the store keeps its old model.
        public func execute(sql: String, arguments: [StoreValue]) throws {
            let statement = try RawStatement(db, sql)
            defer { statement.reset() }
            statement.bind(arguments, startingAt: 1)
            while try statement.step() {}
        }

        /// Runs a query and hands each row's values to `body`, in the query's order (for work
        /// SQL cannot do alone: read, compute in Swift, then ``execute(sql:arguments:)``).
        ///
        /// - Throws: SQLite's error, or `body`'s; the migration fails and the store keeps its
        ///   old model.
        public func forEachRow(sql: String, arguments: [StoreValue] = [], _ body: ([StoreValue]) throws -> Void) throws {
            let statement = try RawStatement(db, sql)
            defer { statement.reset() }
            statement.bind(arguments, startingAt: 1)
            let columns = sqlite3_column_count(statement.handle)
            while try statement.step() {
                try body((0..<columns).map { statement.value($0) })
            }
        }
    }
}
