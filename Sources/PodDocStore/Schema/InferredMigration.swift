import Foundation
internal import GRDB

/// The steps that bring a store written with one model to another, inferred from the two
/// models alone (Core Data's lightweight migration), and their run inside one transaction.
///
/// What it infers, entity by entity (an entity or attribute is the same one when it has the
/// same name or names the old one in its `renamedFrom`):
/// - entities added (a new table), removed (its table dropped) and renamed (`RENAME TO`);
/// - attributes added (`ADD COLUMN`, with the default for the existing rows), removed
///   (`DROP COLUMN`) and renamed (`RENAME COLUMN`);
/// - optional to required with a default (the rows without a value get it), required to
///   optional;
/// - indexes and uniqueness added or removed (a uniqueness the rows break is refused with
///   the values named);
/// - relationships added or removed, to-one to to-many (the links are carried to the table
///   that holds them now).
///
/// SQLite's own `ALTER TABLE` does the work where it can; a table loses a foreign key column
/// by the rebuild SQLite documents (a new table, `INSERT … SELECT`, drop, rename). What it
/// cannot infer (a changed type, a to-many made to-one, a required attribute with no value
/// for the rows that exist) is refused before anything changes, every difference named.
struct InferredMigration {
    private let source: ObjectModel
    private let destination: ObjectModel

    /// The old entity each new one comes from (nil: new).
    private let origins: [String: EntityLayout]

    /// Infers the steps from `source` to `destination`.
    ///
    /// - Throws: ``StoreError`` (`.migrationFailed`) naming every difference inference cannot
    ///   bridge.
    init(from source: ObjectModel, to destination: ObjectModel, path: String) throws {
        self.source = source
        self.destination = destination
        var origins: [String: EntityLayout] = [:]
        for entity in destination.entities {
            let names = [entity.name] + entity.renamedFrom.reversed()
            guard let old = names.lazy.compactMap({ source.entity(named: $0) }).first else { continue }
            origins[entity.name] = source.layout(old.name)
        }
        self.origins = origins
        let problems = origins.sorted { $0.key < $1.key }.flatMap { name, old in
            Self.problems(from: old, to: destination.layout(name), origins: origins)
        }
        if !problems.isEmpty {
            throw StoreError(
                .migrationFailed,
                "\(path) cannot be brought from model \(source.version) to \(destination.version) by inference: \(problems.joined(separator: "; ")). Nothing changed; a custom stage (SchemaMigration) must do it."
            )
        }
    }

    /// The attribute of `old` a new attribute comes from.
    private static func origin(of attribute: AttributeDescription, in old: EntityLayout) -> AttributeDescription? {
        ([attribute.name] + attribute.renamedFrom.reversed()).lazy.compactMap { name in
            old.attributeIndex[name].map { old.attributes[$0] }
        }.first
    }

    private static func problems(from old: EntityLayout, to new: EntityLayout, origins: [String: EntityLayout]) -> [String] {
        var problems: [String] = []
        for attribute in new.attributes {
            guard let before = origin(of: attribute, in: old) else { continue }
            if before.type != attribute.type {
                problems.append("'\(new.name).\(attribute.name)' changed type from \(before.type.rawValue) to \(attribute.type.rawValue)")
            }
        }
        for relationship in new.description.relationships {
            guard let before = old.description.relationships.first(where: { $0.name == relationship.name }) else { continue }
            // The destination, by its old name when it was renamed.
            if origins[relationship.destination]?.name != before.destination {
                problems.append("'\(new.name).\(relationship.name)' leads to '\(relationship.destination)', not '\(before.destination)'")
            } else if before.isToMany && !relationship.isToMany {
                problems.append("'\(new.name).\(relationship.name)' changed from to-many to to-one")
            }
        }
        return problems
    }

    /// The tables whose foreign keys the steps may break (keys added, removed or moved, or the
    /// table or a destination renamed): the ones to check before the commit. The others' keys
    /// are as they were.
    var tablesToCheck: [String] {
        destination.entities.compactMap { entity -> String? in
            let layout = destination.layout(entity.name)
            guard !layout.foreignKeys.isEmpty, let old = origins[entity.name] else { return nil }
            let before = old.foreignKeys.map { "\($0.name)>\($0.destination)" }
            let now = layout.foreignKeys.map { "\($0.name)>\(origins[$0.destination]?.name ?? "")" }
            return old.name != layout.name || before != now ? entity.name : nil
        }
    }

    // MARK: - Running

    /// Runs the steps on `db`, inside the caller's transaction, with foreign keys not
    /// enforced (the caller checks them before it commits).
    ///
    /// - Throws: ``StoreError`` (`.migrationFailed`) when the rows refuse a step (a new
    ///   uniqueness they break, a required attribute some lack); SQLite's errors otherwise.
    func run(_ db: Database, path: String) throws {
        var problems: [String] = []
        // 1. Tables and columns take their new names; new tables appear.
        for entity in destination.entities {
            let layout = destination.layout(entity.name)
            guard let old = origins[entity.name] else {
                for statement in SchemaManager.createStatements(for: layout) { try db.execute(sql: statement) }
                continue
            }
            if old.name != layout.name {
                try db.execute(sql: "ALTER TABLE \(old.table) RENAME TO \(layout.table)")
                try db.execute(sql: "UPDATE _poddoc_sequence SET entity = ? WHERE entity = ?", arguments: [layout.name, old.name])
                if !old.fullTextFields.isEmpty { try db.execute(sql: "DROP TABLE IF EXISTS \(old.fullTextTable)") }
            }
            for attribute in layout.attributes {
                if let before = Self.origin(of: attribute, in: old), before.name != attribute.name {
                    try db.execute(
                        sql: "ALTER TABLE \(layout.table) RENAME COLUMN \(SQL.quote(before.name)) TO \(SQL.quote(attribute.name))")
                }
            }
        }
        // 2. New columns, with the default for the rows that exist.
        for entity in destination.entities {
            let layout = destination.layout(entity.name)
            guard let old = origins[entity.name] else { continue }
            for attribute in layout.attributes where Self.origin(of: attribute, in: old) == nil {
                if !attribute.isOptional && attribute.defaultValue == .null,
                    let rows = try Int.fetchOne(db, sql: "SELECT count(*) FROM \(layout.table)"), rows > 0
                {
                    problems.append(
                        "'\(entity.name).\(attribute.name)' is new and required, with no default for the \(rows) objects that exist")
                }
                try addColumn(attribute, to: layout, db)
            }
            for key in layout.foreignKeys where !old.foreignKeys.contains(where: { $0.name == key.name }) {
                try db.execute(
                    sql:
                        "ALTER TABLE \(layout.table) ADD COLUMN \(SQL.quote(key.name)) INTEGER REFERENCES \(SQL.quote(key.destination))(\"id\") DEFERRABLE INITIALLY DEFERRED"
                )
            }
        }
        // 3. Links whose foreign key moved to the other table (a to-one made to-many).
        for entity in destination.entities {
            let layout = destination.layout(entity.name)
            guard origins[entity.name] != nil else { continue }
            for key in layout.foreignKeys {
                guard let holder = destination.entities.first(where: { $0.name == key.destination }),
                    let oldHolder = origins[holder.name],
                    oldHolder.foreignKeys.contains(where: { $0.name == key.inverse }),
                    origins[entity.name]?.foreignKeys.contains(where: { $0.name == key.name }) == false
                else { continue }
                // The destination held `inverse` pointing here; now this table holds `key`.
                let other = SQL.quote(holder.name)
                try db.execute(
                    sql: """
                        UPDATE \(layout.table) SET \(SQL.quote(key.name)) = \
                        (SELECT "id" FROM \(other) WHERE \(other).\(SQL.quote(key.inverse)) = \(layout.table)."id")
                        """)
            }
        }
        // 4. Old indexes go; columns and tables the model no longer has go.
        for entity in destination.entities {
            let layout = destination.layout(entity.name)
            guard let old = origins[entity.name] else { continue }
            let wanted = Self.indexStatements(for: layout)
            for (name, sql) in try Self.existingIndexes(of: layout.name, db) where wanted[name] != sql {
                try db.execute(sql: "DROP INDEX \(SQL.quote(name))")
            }
            let keptAttributes = Set(layout.attributes.compactMap { Self.origin(of: $0, in: old)?.name })
            let keys = Set(layout.foreignKeys.map(\.name))
            let goneKeys = old.foreignKeys.filter { !keys.contains($0.name) }
            if !goneKeys.isEmpty {
                try rebuild(layout, db)
            } else {
                for attribute in old.attributes where !keptAttributes.contains(attribute.name) {
                    try db.execute(sql: "ALTER TABLE \(layout.table) DROP COLUMN \(SQL.quote(attribute.name))")
                }
            }
            // 5. Required now: the rows without a value get the default.
            for attribute in layout.attributes where !attribute.isOptional {
                guard let before = Self.origin(of: attribute, in: old), before.isOptional else { continue }
                let column = SQL.quote(attribute.name)
                if attribute.defaultValue != .null {
                    try db.execute(
                        sql: "UPDATE \(layout.table) SET \(column) = ? WHERE \(column) IS NULL",
                        arguments: [Self.databaseValue(attribute.defaultValue)])
                } else if let missing = try Int.fetchOne(db, sql: "SELECT count(*) FROM \(layout.table) WHERE \(column) IS NULL"),
                    missing > 0
                {
                    problems.append(
                        "'\(entity.name).\(attribute.name)' is required now, with no default for the \(missing) objects without one")
                }
            }
            // 6. A new uniqueness the rows break is named, with its values (one the old model
            // had, the rows keep).
            let oldKeys = Set(
                Self.uniqueKeys(of: old).map { key in
                    key.map { name in layout.attributes.first { Self.origin(of: $0, in: old)?.name == name }?.name ?? "" }
                })
            for key in Self.uniqueKeys(of: layout) where !oldKeys.contains(key) {
                let columns = key.map(SQL.quote).joined(separator: ", ")
                let duplicates = try Row.fetchAll(
                    db,
                    sql: """
                        SELECT \(columns), count(*) AS n FROM \(layout.table) \
                        WHERE \(key.map { "\(SQL.quote($0)) IS NOT NULL" }.joined(separator: " AND ")) \
                        GROUP BY \(columns) HAVING count(*) > 1 LIMIT 3
                        """)
                for row in duplicates {
                    let values = key.map { "\($0) \(Self.describe(row[$0] as DatabaseValue))" }.joined(separator: ", ")
                    problems.append(
                        "'\(entity.name)' must be unique by \(key.joined(separator: ", ")), but \(row["n"] as Int) objects have \(values)")
                }
            }
            guard problems.isEmpty else { continue }
            let existing = try Self.existingIndexes(of: layout.name, db)
            for (name, sql) in wanted.sorted(by: { $0.key < $1.key }) where existing[name] == nil {
                try db.execute(sql: sql)
            }
        }
        for entity in source.entities where !origins.values.contains(where: { $0.name == entity.name }) {
            let layout = source.layout(entity.name)
            try db.execute(sql: "DROP TABLE \(layout.table)")
            if !layout.fullTextFields.isEmpty { try db.execute(sql: "DROP TABLE IF EXISTS \(layout.fullTextTable)") }
            try db.execute(sql: "DELETE FROM _poddoc_sequence WHERE entity = ?", arguments: [entity.name])
        }
        if !problems.isEmpty {
            throw StoreError(
                .migrationFailed,
                "\(path) cannot be brought from model \(source.version) to \(destination.version): \(problems.joined(separator: "; ")). Nothing changed."
            )
        }
        try recordNames(db)
    }

    /// Records what the history's names become (``HistoryNames``).
    private func recordNames(_ db: Database) throws {
        var names = try HistoryNames.read(db)
        for entity in source.entities where !origins.values.contains(where: { $0.name == entity.name }) {
            names.retire(entity: entity.name)
        }
        for entity in destination.entities {
            let layout = destination.layout(entity.name)
            guard let old = origins[entity.name] else { continue }
            if old.name != layout.name { names.renameEntity(old.name, to: layout.name) }
            var kept: Set<String> = []
            for attribute in layout.attributes {
                guard let before = Self.origin(of: attribute, in: old) else {
                    names.add(attribute.name, of: layout.name)
                    continue
                }
                kept.insert(before.name)
                if before.name != attribute.name { names.renameProperty(before.name, to: attribute.name, of: layout.name) }
            }
            for attribute in old.attributes where !kept.contains(attribute.name) { names.retire(attribute.name, of: layout.name) }
            let keys = Set(layout.foreignKeys.map(\.name))
            let oldKeys = Set(old.foreignKeys.map(\.name))
            for key in keys.subtracting(oldKeys) { names.add(key, of: layout.name) }
            for key in oldKeys.subtracting(keys) { names.retire(key, of: layout.name) }
        }
        try names.write(db)
    }

    /// Adds an attribute's column; the rows that exist get its default.
    private func addColumn(_ attribute: AttributeDescription, to layout: EntityLayout, _ db: Database) throws {
        let column = "\(SQL.quote(attribute.name)) \(attribute.type.sqlType)"
        if let literal = Self.literal(attribute.defaultValue) {
            // SQLite keeps a constant default in the schema: O(1), whatever the rows.
            try db.execute(sql: "ALTER TABLE \(layout.table) ADD COLUMN \(column) DEFAULT \(literal)")
        } else {
            try db.execute(sql: "ALTER TABLE \(layout.table) ADD COLUMN \(column)")
            if attribute.defaultValue != .null {
                try db.execute(
                    sql: "UPDATE \(layout.table) SET \(SQL.quote(attribute.name)) = ?",
                    arguments: [Self.databaseValue(attribute.defaultValue)])
            }
        }
    }

    /// Makes an entity's table again with the new layout's columns (SQLite's documented way to
    /// change what `ALTER TABLE` cannot): the rows keep their ids and versions.
    private func rebuild(_ layout: EntityLayout, _ db: Database) throws {
        let temporary = SQL.quote("_poddoc_rebuild_\(layout.name)")
        let create = SchemaManager.createStatements(for: layout)[0]
        try db.execute(sql: create.replacingOccurrences(of: "CREATE TABLE \(layout.table) (", with: "CREATE TABLE \(temporary) ("))
        let columns =
            (["\"id\"", "\"_version\""] + layout.attributes.map { SQL.quote($0.name) } + layout.foreignKeys.map { SQL.quote($0.name) })
            .joined(separator: ", ")
        try db.execute(sql: "INSERT INTO \(temporary) (\(columns)) SELECT \(columns) FROM \(layout.table)")
        try db.execute(sql: "DROP TABLE \(layout.table)")
        try db.execute(sql: "ALTER TABLE \(temporary) RENAME TO \(layout.table)")
    }

    // MARK: - Indexes

    /// The indexes a table of `layout` has when made new, by name, as SQLite records them.
    static func indexStatements(for layout: EntityLayout) -> [String: String] {
        var statements: [String: String] = [:]
        for statement in SchemaManager.createStatements(for: layout) where statement.contains(" INDEX ") {
            let sql = statement.replacingOccurrences(of: " IF NOT EXISTS", with: "")
            guard let name = sql.split(separator: "\"").dropFirst().first else { continue }
            statements[String(name)] = sql
        }
        return statements
    }

    /// The indexes a table has, by name (SQLite's own, for `UNIQUE` columns, left out).
    private static func existingIndexes(of table: String, _ db: Database) throws -> [String: String] {
        var indexes: [String: String] = [:]
        for row in try Row.fetchAll(
            db, sql: "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL", arguments: [table])
        {
            indexes[row["name"]] = row["sql"]
        }
        return indexes
    }

    /// Every set of columns whose values must be unique together.
    private static func uniqueKeys(of layout: EntityLayout) -> [[String]] {
        layout.attributes.filter(\.isUnique).map { [$0.name] } + layout.description.uniqueKeys
    }

    // MARK: - Values

    /// An SQL literal of a default value; nil for NULL and for numbers SQL cannot spell.
    private static func literal(_ value: StoreValue) -> String? {
        switch value {
        case .null: nil
        case .integer(let v): String(v)
        case .real(let v): v.isFinite ? "\(v)" : nil
        case .text(let v): "'" + v.replacingOccurrences(of: "'", with: "''") + "'"
        case .blob(let v): "X'" + v.map { String(format: "%02X", $0) }.joined() + "'"
        }
    }

    private static func databaseValue(_ value: StoreValue) -> DatabaseValue {
        switch value {
        case .null: .null
        case .integer(let v): v.databaseValue
        case .real(let v): v.databaseValue
        case .text(let v): v.databaseValue
        case .blob(let v): v.databaseValue
        }
    }

    private static func describe(_ value: DatabaseValue) -> String {
        switch value.storage {
        case .null: "nothing"
        case .int64(let v): String(v)
        case .double(let v): "\(v)"
        case .string(let v): "\"\(v.count > 60 ? String(v.prefix(60)) + "…" : v)\""
        case .blob(let v): "\(v.count) bytes"
        }
    }
}
