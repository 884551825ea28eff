import Foundation
internal import GRDB
import PodDocJSON

// MARK: - Reading the history

extension PersistentStore {
    /// The store's history, newest first: what each save (or run of saves) changed, when,
    /// where and by whom. A store made before history was recorded has none until it is
    /// saved by this version.
    ///
    /// - Parameter limit: The most entries returned (the newest ones); all by default.
    /// - Throws: ``StoreError`` when the store cannot be read, or (`.corrupt`) when an entry
    ///   holds values of the wrong type.
    public func history(limit: Int? = nil) throws -> [HistoryEntry] {
        try unsafeRead { db in
            guard try HistoryTable.exists(db) else { return [] }
            let statement = try RawStatement(
                db,
                """
                SELECT save, first_save, time, host, writer, description, inserted, updated, deleted, summary, changes \
                FROM _poddoc_history ORDER BY save DESC LIMIT ?
                """)
            statement.bind(.integer(Int64(limit ?? -1)), at: 1)
            defer { statement.reset() }
            var entries: [HistoryEntry] = []
            while try statement.step() {
                entries.append(try HistoryTable.entry(statement))
            }
            return entries
        }
    }
}

// MARK: - The table

/// `_poddoc_history`: one row per save, or per run of saves (see docs/FORMAT.md, "History").
enum HistoryTable {
    static let createSQL = """
        CREATE TABLE IF NOT EXISTS _poddoc_history (save INTEGER PRIMARY KEY NOT NULL, first_save INTEGER NOT NULL, \
        time REAL NOT NULL, host TEXT NOT NULL, writer TEXT NOT NULL, description TEXT NOT NULL, run TEXT, \
        inserted INTEGER NOT NULL, updated INTEGER NOT NULL, deleted INTEGER NOT NULL, entities TEXT NOT NULL, \
        summary TEXT NOT NULL, changes TEXT NOT NULL)
        """
    /// The `_poddoc_store` key of the last save number given (numbers are never reused).
    static let lastSaveKey = "history.lastSave"

    static func exists(_ db: Database) throws -> Bool {
        try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = '_poddoc_history')")
            ?? false
    }

    /// An entry from a row of `SELECT save, first_save, time, host, writer, description,
    /// inserted, updated, deleted, summary, changes`; the row came from a file that may have
    /// been made elsewhere, so every value's type is checked.
    static func entry(_ row: RawStatement) throws -> HistoryEntry {
        func integer(_ column: Int32) throws -> Int {
            guard case .integer(let value) = row.value(column) else { throw corrupt(column) }
            return Int(value)
        }
        func text(_ column: Int32) throws -> String {
            guard case .text(let value) = row.value(column) else { throw corrupt(column) }
            return value
        }
        let time: Double
        switch row.value(2) {
        case .real(let value): time = value
        case .integer(let value): time = Double(value)
        default: throw corrupt(2)
        }
        return HistoryEntry(
            save: try integer(0), firstSave: try integer(1), time: Date(timeIntervalSince1970: time), host: try text(3),
            writer: try text(4), description: try text(5), inserted: try integer(6), updated: try integer(7),
            deleted: try integer(8), summary: try text(9), changes: try text(10).split(separator: "\n").map(String.init))
    }

    private static func corrupt(_ column: Int32) -> StoreError {
        let names = ["save", "first_save", "time", "host", "writer", "description", "inserted", "updated", "deleted", "summary", "changes"]
        return StoreError(
            .corrupt,
            "The store's history holds a value of the wrong type in '\(names[Int(column)])'; the store was damaged or written by another program. Run `poddoc check`."
        )
    }
}

// MARK: - Recording a save

/// What one root save changed, gathered as the store writes it and recorded in the same
/// transaction: object IDs by entity, updates grouped by the properties they changed.
struct HistoryRecorder {
    private struct Changes {
        var inserted: [Int64] = []
        var updated: [FieldSet: [Int64]] = [:]
        var deleted: [Int64] = []
    }
    private var byEntity: [String: Changes] = [:]

    var isEmpty: Bool { byEntity.isEmpty }

    mutating func inserted(_ id: ObjectID) {
        guard let row = id.rowID else { return }
        byEntity[id.entityName, default: Changes()].inserted.append(row)
    }

    mutating func updated(_ id: ObjectID, fields: FieldSet) {
        guard let row = id.rowID, !fields.isEmpty else { return }
        byEntity[id.entityName, default: Changes()].updated[fields, default: []].append(row)
    }

    mutating func deleted(_ id: ObjectID) {
        guard let row = id.rowID else { return }
        byEntity[id.entityName, default: Changes()].deleted.append(row)
    }

    /// Writes the save's entry (or adds it to the newest entry, of the same run), then lets
    /// go of entries beyond `retention`.
    func record(in db: Database, model: ObjectModel, note: SaveNote, retention: HistoryRetention, now: Date = Date()) throws {
        guard !isEmpty else { return }
        var counts = EntityCounts()
        var json = "{"
        for (offset, entity) in byEntity.keys.sorted(by: { Collation.compareUTF8($0, $1) < 0 }).enumerated() {
            let changes = byEntity[entity]!
            let layout = model.layout(entity)
            if offset > 0 { json += "," }
            JSONEscaping.appendQuoted(entity, to: &json)
            json += ":{"
            var parts: [String] = []
            var count = EntityCounts.Count()
            if !changes.inserted.isEmpty {
                parts.append("\"inserted\":\"\(Self.ranges(changes.inserted))\"")
                count.inserted = Set(changes.inserted).count
            }
            if !changes.updated.isEmpty {
                var groups: [String] = []
                var all = FieldSet()
                var ids = Set<Int64>()
                for (fields, rows) in changes.updated.sorted(by: { $0.key.lexicographicallyPrecedes($1.key) }) {
                    var group = "{\"properties\":["
                    group += fields.map { field in
                        var name = ""
                        JSONEscaping.appendQuoted(layout.fieldName(field), to: &name)
                        return name
                    }.joined(separator: ",")
                    group += "],\"ids\":\"\(Self.ranges(rows))\"}"
                    groups.append(group)
                    all.formUnion(fields)
                    ids.formUnion(rows)
                }
                parts.append("\"updated\":[" + groups.joined(separator: ",") + "]")
                count.updated = ids.count
                count.properties = all.map(layout.fieldName)
            }
            if !changes.deleted.isEmpty {
                parts.append("\"deleted\":\"\(Self.ranges(changes.deleted))\"")
                count.deleted = Set(changes.deleted).count
            }
            json += parts.joined(separator: ",") + "}"
            counts.entities[entity] = count
        }
        json += "}"

        let last = try Int64.fetchOne(db, sql: "SELECT value FROM _poddoc_store WHERE key = ?", arguments: [HistoryTable.lastSaveKey]) ?? 0
        let save = max(last, try Int64.fetchOne(db, sql: "SELECT max(save) FROM _poddoc_history") ?? 0) + 1
        try db.execute(
            sql: "INSERT INTO _poddoc_store (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
            arguments: [HistoryTable.lastSaveKey, String(save)])

        // A save of the newest entry's run joins it.
        if let run = note.run,
            let newest = try Row.fetchOne(
                db,
                sql: "SELECT save, entities, changes FROM _poddoc_history WHERE run = ? AND save = (SELECT max(save) FROM _poddoc_history)",
                arguments: [run]),
            let entities = String.fromDatabaseValue(newest["entities"]), let previous = EntityCounts(json: entities),
            let changes = String.fromDatabaseValue(newest["changes"])
        {
            var merged = previous
            merged.add(counts)
            try db.execute(
                sql: """
                    UPDATE _poddoc_history SET save = ?, time = ?, inserted = ?, updated = ?, deleted = ?, entities = ?, \
                    summary = ?, changes = ? WHERE save = ?
                    """,
                arguments: [
                    save, now.timeIntervalSince1970, merged.total(\.inserted), merged.total(\.updated), merged.total(\.deleted),
                    merged.json, merged.summary, changes + "\n" + json, newest["save"] as Int64?,
                ])
        } else {
            try db.execute(
                sql: """
                    INSERT INTO _poddoc_history (save, first_save, time, host, writer, description, run, inserted, updated, \
                    deleted, entities, summary, changes) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    save, save, now.timeIntervalSince1970, note.host, note.writer, note.description, note.run,
                    counts.total(\.inserted), counts.total(\.updated), counts.total(\.deleted), counts.json, counts.summary, json,
                ])
        }
        try db.execute(
            sql: "DELETE FROM _poddoc_history WHERE save <= (SELECT save FROM _poddoc_history ORDER BY save DESC LIMIT 1 OFFSET ?)",
            arguments: [retention.maximumSaves])
        if let age = retention.maximumAge {
            let oldest = now.timeIntervalSince1970 - Double(age.components.seconds)
            try db.execute(sql: "DELETE FROM _poddoc_history WHERE time < ? AND save < ?", arguments: [oldest, save])
        }
    }

    /// Row ids as sorted ranges: `1-500,502`.
    static func ranges(_ ids: [Int64]) -> String {
        let sorted = Set(ids).sorted()
        var parts: [String] = []
        var index = 0
        while index < sorted.count {
            var end = index
            while end + 1 < sorted.count && sorted[end + 1] == sorted[end] + 1 { end += 1 }
            parts.append(end == index ? "\(sorted[index])" : "\(sorted[index])-\(sorted[end])")
            index = end + 1
        }
        return parts.joined(separator: ",")
    }
}

/// Per entity, how many objects an entry changed and which properties its updates touched.
struct EntityCounts {
    struct Count {
        var inserted = 0
        var updated = 0
        var deleted = 0
        var properties: [String] = []
    }
    var entities: [String: Count] = [:]

    init() {}

    /// Reads the `entities` column; nil when it is not what this version writes.
    init?(json: String) {
        guard let object = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any] else { return nil }
        for (entity, value) in object {
            guard let fields = value as? [String: Any] else { return nil }
            entities[entity] = Count(
                inserted: fields["inserted"] as? Int ?? 0, updated: fields["updated"] as? Int ?? 0, deleted: fields["deleted"] as? Int ?? 0,
                properties: fields["properties"] as? [String] ?? [])
        }
    }

    mutating func add(_ other: EntityCounts) {
        for (entity, count) in other.entities {
            var merged = entities[entity] ?? Count()
            merged.inserted += count.inserted
            merged.updated += count.updated
            merged.deleted += count.deleted
            merged.properties += count.properties.filter { !merged.properties.contains($0) }
            entities[entity] = merged
        }
    }

    func total(_ part: KeyPath<Count, Int>) -> Int {
        entities.values.reduce(0) { $0 + $1[keyPath: part] }
    }

    private var sortedEntities: [(String, Count)] {
        entities.sorted { Collation.compareUTF8($0.key, $1.key) < 0 }
    }

    var json: String {
        var json = "{"
        for (offset, (entity, count)) in sortedEntities.enumerated() {
            if offset > 0 { json += "," }
            JSONEscaping.appendQuoted(entity, to: &json)
            json += ":{\"inserted\":\(count.inserted),\"updated\":\(count.updated),\"deleted\":\(count.deleted),\"properties\":["
            json += count.properties.map { name in
                var quoted = ""
                JSONEscaping.appendQuoted(name, to: &quoted)
                return quoted
            }.joined(separator: ",")
            json += "]}"
        }
        return json + "}"
    }

    /// `Pod: 500 inserted, 2 updated (name, summary), 1 deleted; Item: 3 inserted`.
    var summary: String {
        sortedEntities.map { entity, count in
            var parts: [String] = []
            if count.inserted > 0 { parts.append("\(count.inserted) inserted") }
            if count.updated > 0 { parts.append("\(count.updated) updated (\(count.properties.joined(separator: ", ")))") }
            if count.deleted > 0 { parts.append("\(count.deleted) deleted") }
            return "\(entity): " + parts.joined(separator: ", ")
        }.joined(separator: "; ")
    }
}
