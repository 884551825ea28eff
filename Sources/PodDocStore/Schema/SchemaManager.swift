import Foundation
internal import GRDB

/// Creates, migrates and checks the tables of a store.
///
/// A poddoc store carries its schema version in `user_version` and the poddoc signature in
/// `application_id`. Besides one table per entity it has `_poddoc_store` (key/value, including
/// the store identifier) and `_poddoc_sequence` (the highest row id ever given per entity, so
/// ids are never reused: undoing a saved delete can put an object back under its old id).
struct SchemaManager {
    let model: ObjectModel
    let readOnly: Bool

    /// Brings the database to the model's schema and returns the store identifier.
    func prepare(_ database: DatabaseQueue, url: URL?, finalLocation: URL? = nil) throws -> String {
        let path = url?.path ?? "the in-memory store"
        let (applicationID, version, hasTables) = try database.read { db in
            (
                try Int32.fetchOne(db, sql: "PRAGMA application_id") ?? 0,
                try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0,
                try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM sqlite_master WHERE type = 'table')") ?? false
            )
        }
        if applicationID != PersistentStore.applicationID && (applicationID != 0 || hasTables) {
            throw StoreError(
                .notAStore,
                "\(path) is an SQLite database of another application (application_id \(applicationID)); it is not a poddoc store.")
        }
        if version > model.version {
            throw StoreError(
                .newerSchema,
                "\(path) has schema version \(version), but this version of poddoc reads up to \(model.version). Open it with a newer poddoc."
            )
        }
        if version < model.version {
            guard !readOnly else {
                throw StoreError(
                    .readOnly,
                    "\(path) has schema version \(version) and needs migrating to \(model.version), which a read-only open cannot do. Open it for writing once."
                )
            }
            if version == 0 && !hasTables {
                try create(database, place: PersistentStore.place(of: finalLocation ?? url))
            } else {
                try migrate(database, from: version, path: path)
            }
        }
        try check(database, path: path)
        if !readOnly {
            try addMissingDerivedIndexes(database)
            try database.write { db in try db.execute(sql: HistoryTable.createSQL) }
            try reindexFullTextInOlderForm(database)
        }
        return try database.read { db in
            try String.fetchOne(db, sql: "SELECT value FROM _poddoc_store WHERE key = 'identifier'")
        } ?? { throw StoreError(.schemaMismatch, "\(path) has no store identifier; it was not made by poddoc.") }()
    }

    // MARK: - Creating

    private func create(_ database: DatabaseQueue, place: String) throws {
        try database.write { db in
            try db.execute(sql: "CREATE TABLE _poddoc_store (key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL)")
            try db.execute(sql: "CREATE TABLE _poddoc_sequence (entity TEXT PRIMARY KEY NOT NULL, last INTEGER NOT NULL)")
            try db.execute(
                sql: "INSERT INTO _poddoc_store (key, value) VALUES ('identifier', ?)",
                arguments: [UUID().uuidString])
            try db.execute(
                sql: "INSERT INTO _poddoc_store (key, value) VALUES (?, ?)",
                arguments: [SearchText.formKey, SearchText.formVersion])
            for entity in model.entities {
                for statement in SchemaManager.createStatements(for: model.layout(entity.name)) {
                    try db.execute(sql: statement)
                }
            }
            // The store starts as the first copy of its document, its ids from 1.
            try Replica.recordNew(db, place: place)
            try db.execute(sql: "PRAGMA application_id = \(PersistentStore.applicationID)")
            try db.execute(sql: "PRAGMA user_version = \(model.version)")
        }
    }

    /// The statements that create an entity's table and indexes.
    static func createStatements(for layout: EntityLayout) -> [String] {
        var columns = [#""id" INTEGER PRIMARY KEY NOT NULL"#, #""_version" INTEGER NOT NULL DEFAULT 1"#]
        for attribute in layout.attributes {
            columns.append("\(SQL.quote(attribute.name)) \(attribute.type.sqlType)")
        }
        for fk in layout.foreignKeys {
            columns.append("\(SQL.quote(fk.name)) INTEGER REFERENCES \(SQL.quote(fk.destination))(\"id\") DEFERRABLE INITIALLY DEFERRED")
        }
        var statements = ["CREATE TABLE \(layout.table) (\(columns.joined(separator: ", ")))"]
        for attribute in layout.attributes where attribute.isIndexed {
            let unique = attribute.isUnique ? "UNIQUE " : ""
            statements.append(
                "CREATE \(unique)INDEX \(SQL.quote("\(layout.name)_\(attribute.name)")) ON \(layout.table)(\(SQL.quote(attribute.name)))")
        }
        statements += derivedIndexStatements(for: layout)
        for fk in layout.foreignKeys {
            statements.append("CREATE INDEX \(SQL.quote("\(layout.name)_\(fk.name)")) ON \(layout.table)(\(SQL.quote(fk.name)))")
        }
        for key in layout.description.uniqueKeys {
            let name = SQL.quote("\(layout.name)_unique_\(key.joined(separator: "_"))")
            statements.append("CREATE UNIQUE INDEX \(name) ON \(layout.table)(\(key.map(SQL.quote).joined(separator: ", ")))")
        }
        if !layout.fullTextFields.isEmpty {
            // The index keeps its own copy of the text: an external-content table would need
            // triggers, which `trusted_schema=OFF` forbids on virtual tables, and its deletes
            // need the old text exactly.
            statements.append(fullTextTableStatement(for: layout))
        }
        return statements
    }

    /// The full-text index of an entity with ``EntityDescription/fullTextAttributes``.
    static func fullTextTableStatement(for layout: EntityLayout) -> String {
        let columns = layout.fullTextFields.map { SQL.quote(layout.attributes[$0].name) }.joined(separator: ", ")
        return "CREATE VIRTUAL TABLE \(layout.fullTextTable) USING fts5(\(columns), tokenize = 'unicode61 remove_diacritics 2')"
    }

    /// The indexes on case-folded text (``AttributeDescription/hasCaseInsensitiveIndex``) and
    /// the compound ones (``EntityDescription/indexes``). Derived from the rows alone, they
    /// are made on any writable open that finds them missing (a store made before they were
    /// declared), with no schema version of their own.
    static func derivedIndexStatements(for layout: EntityLayout) -> [String] {
        let folded = layout.attributes.filter(\.hasCaseInsensitiveIndex).map { attribute in
            "CREATE INDEX IF NOT EXISTS \(SQL.quote("\(layout.name)_\(attribute.name)_folded")) ON \(layout.table)(\(TextFolding.sqlFunction)(\(SQL.quote(attribute.name))))"
        }
        let compound = layout.description.indexes.map { names in
            "CREATE INDEX IF NOT EXISTS \(SQL.quote("\(layout.name)_by_\(names.joined(separator: "_"))")) ON \(layout.table)(\(names.map(SQL.quote).joined(separator: ", ")))"
        }
        return folded + compound
    }

    private func addMissingDerivedIndexes(_ database: DatabaseQueue) throws {
        let statements = model.entities.flatMap { SchemaManager.derivedIndexStatements(for: model.layout($0.name)) }
        guard !statements.isEmpty else { return }
        let names = statements.compactMap { $0.split(separator: "\"").dropFirst().first.map(String.init) }
        let existing = try database.read { db in
            try Set(String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'index'"))
        }
        guard !names.allSatisfy(existing.contains) else { return }
        try database.write { db in
            for statement in statements { try db.execute(sql: statement) }
        }
    }

    /// Rebuilds the full-text indexes of a store that records another form of indexed text
    /// than ``SearchText/formVersion`` (or none: a store made before the form was recorded),
    /// or whose index holds other attributes than the model names (an index made before an
    /// attribute joined it), from the rows, and records the current form, in one transaction.
    private func reindexFullTextInOlderForm(_ database: DatabaseQueue) throws {
        let layouts = model.entities.map { model.layout($0.name) }.filter { !$0.fullTextFields.isEmpty }
        guard !layouts.isEmpty else { return }
        func names(_ layout: EntityLayout) -> [String] { layout.fullTextFields.map { layout.attributes[$0].name } }
        let (form, stale) = try database.read { db in
            let form = try String.fetchOne(db, sql: "SELECT value FROM _poddoc_store WHERE key = ?", arguments: [SearchText.formKey])
            let stale = try layouts.filter { layout in
                try String.fetchAll(db, sql: "SELECT name FROM pragma_table_info(?)", arguments: [layout.description.fullTextTable])
                    != names(layout)
            }
            return (form, stale)
        }
        guard form != SearchText.formVersion || !stale.isEmpty else { return }
        try database.write { db in
            for layout in layouts {
                let names = names(layout).map(SQL.quote)
                if stale.contains(where: { $0.name == layout.name }) {
                    // The index is derived from the rows: made again with the model's columns.
                    try db.execute(sql: "DROP TABLE IF EXISTS \(layout.fullTextTable)")
                    try db.execute(sql: Self.fullTextTableStatement(for: layout))
                }
                try db.execute(sql: "DELETE FROM \(layout.fullTextTable)")
                try db.execute(
                    sql: """
                        INSERT INTO \(layout.fullTextTable) ("rowid", \(names.joined(separator: ", "))) \
                        SELECT "id", \(names.map { "\(SearchText.sqlFunction)(\($0))" }.joined(separator: ", ")) FROM \(layout.table)
                        """)
            }
            try db.execute(
                sql: "INSERT INTO _poddoc_store (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                arguments: [SearchText.formKey, SearchText.formVersion])
        }
    }

    // MARK: - Migrating

    private func migrate(_ database: DatabaseQueue, from version: Int, path: String) throws {
        var current = version
        for migration in model.migrations where migration.version > current {
            guard migration.version <= model.version else { break }
            do {
                try database.write { db in
                    try migration.migrate(SchemaMigration.Transaction(db))
                    try db.execute(sql: "PRAGMA user_version = \(migration.version)")
                }
            } catch {
                throw StoreError(
                    .migrationFailed,
                    "Migrating \(path) from schema \(current) to \(migration.version) failed: \(error). The store is unchanged at schema \(current).",
                    cause: error)
            }
            current = migration.version
        }
        guard current == model.version else {
            throw StoreError(.migrationFailed, "\(path) is at schema \(current) and no migration leads from there to \(model.version).")
        }
    }

    // MARK: - Checking

    private func check(_ database: DatabaseQueue, path: String) throws {
        try database.read { db in
            for entity in model.entities {
                let layout = model.layout(entity.name)
                let columns = Set(try Row.fetchAll(db, sql: "PRAGMA table_info(\(layout.table))").map { $0["name"] as String })
                guard !columns.isEmpty else {
                    throw StoreError(.schemaMismatch, "\(path) has no table for entity '\(entity.name)'; it does not match this model.")
                }
                let needed = ["id", "_version"] + layout.attributes.map(\.name) + layout.foreignKeys.map(\.name)
                if let missing = needed.first(where: { !columns.contains($0) }) {
                    throw StoreError(
                        .schemaMismatch,
                        "\(path): table '\(entity.name)' has no column '\(missing)'; it does not match this model (a migration is missing)."
                    )
                }
                if !entity.fullTextAttributes.isEmpty,
                    try !Bool.fetchOne(
                        db, sql: "SELECT EXISTS (SELECT 1 FROM sqlite_master WHERE name = ?)", arguments: [entity.fullTextTable])!
                {
                    throw StoreError(
                        .schemaMismatch,
                        "\(path) has no full-text table '\(entity.fullTextTable)' for entity '\(entity.name)'; it does not match this model (a migration is missing)."
                    )
                }
            }
            // Saves could not record their history: refused for writing only, so that the
            // content can still be read and exported.
            if !readOnly, try HistoryTable.exists(db) {
                do {
                    try HistoryTable.checkColumns(db)
                } catch let error as StoreError {
                    throw StoreError(
                        .corrupt,
                        "\(path): \(error.message) Saves could not record what they change, so it opens read-only only: export its content into a new document."
                    )
                }
            }
        }
    }
}
