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
        // The model the store was written with, by its hash (and its record, compared on a
        // writable open): one read. Stores made before poddoc recorded models have none.
        let recorded: [String: String] =
            hasTables
            ? try database.read { db in
                let rows = try? Row.fetchAll(
                    db, sql: "SELECT key, value FROM _poddoc_store WHERE key IN (?, ?)", arguments: [Self.modelHashKey, Self.modelKey])
                return Dictionary(
                    (rows ?? []).map { ($0["key"] as String, $0["value"] as String) }, uniquingKeysWith: { first, _ in first })
            } : [:]
        let recordedHash = recorded[Self.modelHashKey]
        if version > model.version {
            // Read wherever the tables hold what this model reads (the check below).
            guard readOnly else {
                throw StoreError(
                    .newerSchema,
                    "\(path) \(StoreError.newerModelDescription(found: version, known: model.version))"
                )
            }
        } else if version == model.version {
            if let recordedHash, recordedHash != model.versionHash, !readOnly {
                throw StoreError(
                    .schemaMismatch,
                    "\(path) was written with another model of the same version \(version); nothing changed. A model that changes needs a higher version."
                )
            }
        } else {
            guard !readOnly else {
                throw StoreError(
                    .readOnly,
                    "\(path) has model version \(version) and needs migrating to \(model.version), which a read-only open cannot do. Open it for writing once."
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
            if version == model.version, recordedHash == nil || recorded[Self.modelKey] != model.recordJSON {
                // A store made before models were recorded: its first writing open records
                // it. A model whose indexes or defaults changed within a version: its record.
                try database.write { db in try Self.recordModel(model, db) }
            }
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
            try Self.recordModel(model, db)
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
        // A foreign key that leads a compound index is found through it (SQLite uses an
        // index's leading columns alone): a second index on it alone would only cost every
        // insert, move and delete its upkeep.
        let leading = Set(layout.description.indexes.compactMap(\.first))
        for fk in layout.foreignKeys where !leading.contains(fk.name) {
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

    /// The `_poddoc_store` key of the model the store was written with (``ModelRecord``'s JSON).
    static let modelKey = "model"
    /// The `_poddoc_store` key of that model's ``ObjectModel/versionHash``.
    static let modelHashKey = "model.hash"

    /// Records `model` as the store's, with its version in `user_version`.
    static func recordModel(_ model: ObjectModel, _ db: Database) throws {
        for (key, value) in [(modelKey, model.recordJSON), (modelHashKey, model.versionHash)] {
            try db.execute(
                sql: "INSERT INTO _poddoc_store (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                arguments: [key, value])
        }
        try db.execute(sql: "PRAGMA user_version = \(model.version)")
    }

    /// The model a store records, or nil when it records none.
    ///
    /// - Throws: ``StoreError`` (`.corrupt`) when the record is damaged.
    static func recordedModel(_ db: Database) throws -> ObjectModel? {
        guard let json = try String.fetchOne(db, sql: "SELECT value FROM _poddoc_store WHERE key = ?", arguments: [modelKey]) else {
            return nil
        }
        guard let record = ModelRecord.decode(json) else {
            throw StoreError(.corrupt, "The model the store records is damaged: it is not the JSON of a model.")
        }
        return try record.model()
    }

    /// The model a store at model `version` was written with, read by `model`: the one the
    /// store records, else the one of that version among `model`'s earlier versions; nil when
    /// neither is known.
    ///
    /// - Throws: ``StoreError`` (`.corrupt`) when the record is damaged.
    static func sourceModel(_ db: Database, version: Int, readBy model: ObjectModel) throws -> ObjectModel? {
        try recordedModel(db) ?? model.earlierVersions.first { $0.version == version }
    }

    /// Brings a store at model `version` to ``model`` in one transaction: each custom stage's
    /// work before, the inferred steps, each stage's work after; or, for a store whose old
    /// model is unknown, the stages alone. A failure leaves the store as it was.
    private func migrate(_ database: DatabaseQueue, from version: Int, path: String) throws {
        let stages = model.migrations.filter { $0.version > version && $0.version <= model.version }
        let source = try database.read { db in try Self.sourceModel(db, version: version, readBy: model) }
        if source == nil, stages.last?.version != model.version {
            throw StoreError(
                .migrationFailed,
                "\(path) is at model \(version), records no model to infer the steps from, and no custom stage leads from there to \(model.version); nothing changed."
            )
        }
        let inferred = try source.map { try InferredMigration(from: $0, to: model, path: path) }
        do {
            try database.writeWithoutTransaction { db in
                // Tables are rebuilt with foreign keys unenforced, as SQLite documents; they
                // are checked before the transaction commits.
                try db.execute(sql: "PRAGMA foreign_keys = OFF")
                defer { try? db.execute(sql: "PRAGMA foreign_keys = ON") }
                try db.inTransaction {
                    for stage in stages { try stage.before?(SchemaMigration.Transaction(db)) }
                    try inferred?.run(db, path: path)
                    for stage in stages { try stage.after?(SchemaMigration.Transaction(db)) }
                    // The tables the steps may have broken; every table after a custom stage.
                    let checked = stages.isEmpty ? (inferred?.tablesToCheck ?? []).map { Optional($0) } : [nil]
                    for table in checked {
                        let broken = try Row.fetchOne(
                            db, sql: "SELECT \"table\", parent FROM pragma_foreign_key_check\(table == nil ? "" : "(?)")",
                            arguments: StatementArguments(table.map { [$0] } ?? []))
                        guard let broken else { continue }
                        throw StoreError(
                            .migrationFailed,
                            "\(path): after migrating, objects of '\(broken["table"] as String)' point at '\(broken["parent"] as String)' objects that do not exist; nothing changed."
                        )
                    }
                    try Self.recordModel(model, db)
                    return .commit
                }
            }
        } catch let error as StoreError where error.code == .migrationFailed {
            throw error
        } catch {
            throw StoreError(
                .migrationFailed,
                "Migrating \(path) from model \(version) to \(model.version) failed: \(error). The store is unchanged at model \(version).",
                cause: error)
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
