import Foundation
internal import GRDB
import PodDocJSON

// MARK: - Recording a save

/// What one root save changed, gathered as the store writes it and recorded in the same
/// transaction: object IDs by entity, updates grouped by the properties they changed, with the
/// values before. Values are kept flat (a group's rows one after another) and written as JSON
/// bytes: an autosave of 10,000 objects records them in a few milliseconds.
struct HistoryRecorder {
    /// Rows of one kind: their ids, and `width` values before for each while all are known.
    private struct Rows {
        var ids: [Int64] = []
        var values: [StoreValue] = []
        var complete = true

        mutating func append(_ id: Int64, _ before: [StoreValue]?) {
            ids.append(id)
            if let before, complete { values.append(contentsOf: before) } else { complete = false }
        }

        /// Appends a row with the values `fields` of `before` held (references by row id).
        mutating func append(_ id: Int64, _ before: RowData?, _ fields: some Sequence<Int>, _ resolve: (ObjectID) -> ObjectID) {
            ids.append(id)
            guard let before, complete else {
                complete = false
                return
            }
            for field in fields {
                switch before[field: field] {
                case .value(let value): values.append(value)
                case .ref(let target): values.append(target.flatMap { resolve($0).rowID }.map(StoreValue.integer) ?? .null)
                }
            }
        }

        /// The indexes of the rows in id order, each id once (its first row).
        var order: [Int] {
            if zip(ids, ids.dropFirst()).allSatisfy({ $0 < $1 }) { return Array(ids.indices) }
            var pairs = ids.indices.map { (ids[$0], $0) }
            pairs.sort { $0 < $1 }
            var order: [Int] = []
            order.reserveCapacity(pairs.count)
            for (offset, pair) in pairs.enumerated() where offset == 0 || pairs[offset - 1].0 != pair.0 { order.append(pair.1) }
            return order
        }
    }
    private struct Changes {
        var inserted: [Int64] = []
        var updated: [FieldSet: Rows] = [:]
        var deleted = Rows()
    }
    private var byEntity: [String: Changes] = [:]
    /// The group updates are going to: consecutive objects of a save mostly share their entity
    /// and changed properties, so they skip the two dictionary lookups.
    private var open: (entity: String, fields: FieldSet, rows: Rows)?

    var isEmpty: Bool { byEntity.isEmpty && open == nil }

    private mutating func openGroup(_ entity: String, _ fields: FieldSet) {
        if let current = open {
            if current.entity == entity && current.fields == fields { return }
            closeGroup()
        }
        open = (entity, fields, byEntity[entity]?.updated.removeValue(forKey: fields) ?? Rows())
    }

    private mutating func closeGroup() {
        guard let current = open else { return }
        open = nil
        byEntity[current.entity, default: Changes()].updated[current.fields] = current.rows
    }

    mutating func inserted(_ id: ObjectID) {
        guard let row = id.rowID else { return }
        byEntity[id.entityName, default: Changes()].inserted.append(row)
    }

    /// Objects of one entity inserted with the given row ids (a batch's new rows).
    mutating func inserted(_ rows: some Collection<Int64>, of entity: String) {
        guard !rows.isEmpty else { return }
        byEntity[entity, default: Changes()].inserted.append(contentsOf: rows)
    }

    /// An updated object, with the values `fields` held before the save (in their order).
    mutating func updated(_ id: ObjectID, fields: FieldSet, before: [StoreValue]?) {
        guard let row = id.rowID, !fields.isEmpty else { return }
        openGroup(id.entityName, fields)
        open!.rows.append(row, before)
    }

    /// An updated object, with the row it was read at (`resolve` names references by their
    /// permanent IDs).
    mutating func updated(_ id: ObjectID, fields: FieldSet, readAt before: RowData?, resolve: (ObjectID) -> ObjectID) {
        guard let row = id.rowID, !fields.isEmpty else { return }
        openGroup(id.entityName, fields)
        open!.rows.append(row, before, fields, resolve)
    }

    /// A deleted object, with the row it was read at (all of its fields are recorded).
    mutating func deleted(_ id: ObjectID, readAt before: RowData?, fieldCount: Int, resolve: (ObjectID) -> ObjectID) {
        guard let row = id.rowID else { return }
        byEntity[id.entityName, default: Changes()].deleted.append(row, before, 0..<fieldCount, resolve)
    }

    /// Writes the save's entry (or adds it to the newest entry, of the same run), then lets
    /// go of entries beyond `retention`.
    func record(
        in db: Database, model: ObjectModel, note: SaveNote, retention: HistoryRetention, replica: Replica, now: Date = Date()
    ) throws {
        // A merge that changed nothing still records that this copy has the other's saves.
        guard !isEmpty || note.merge != nil else { return }
        // The graph of a history recorded before it existed, before this save's row joins it.
        try SaveGraph.prepare(db)
        var recorder = self
        recorder.closeGroup()
        var byEntity = recorder.byEntity
        // A merge can record where values came from for objects it did not change (a value
        // both copies hold, made by a save of the other's): the entity then has origins alone.
        for (entity, origins) in note.merge?.origins ?? [:] where !origins.isEmpty && byEntity[entity] == nil {
            byEntity[entity] = Changes()
        }
        for (entity, kept) in note.merge?.kept ?? [:] where !kept.isEmpty && byEntity[entity] == nil { byEntity[entity] = Changes() }
        var counts = EntityCounts()
        var out: [UInt8] = []
        out.append(UInt8(ascii: "{"))
        for (offset, entity) in byEntity.keys.sorted(by: { Collation.compareUTF8($0, $1) < 0 }).enumerated() {
            let changes = byEntity[entity]!
            let layout = model.layout(entity)
            if offset > 0 { out.append(UInt8(ascii: ",")) }
            JSONEscaping.appendQuoted(entity, to: &out)
            out.append(contentsOf: ":{".utf8)
            var separator = ""
            var count = EntityCounts.Count()
            if !changes.inserted.isEmpty {
                // A batch's rows come in ascending order already: no set to build, no sort.
                let inOrder = zip(changes.inserted, changes.inserted.dropFirst()).allSatisfy { $0 < $1 }
                let ids = inOrder ? changes.inserted : Set(changes.inserted).sorted()
                out.append(contentsOf: "\"inserted\":\"".utf8)
                Self.appendRanges(ids, to: &out)
                out.append(UInt8(ascii: "\""))
                count.inserted = ids.count
                separator = ","
            }
            if !changes.updated.isEmpty {
                out.append(contentsOf: (separator + "\"updated\":[").utf8)
                var all = FieldSet()
                var ids = Set<Int64>()
                for (index, (fields, rows)) in changes.updated.sorted(by: { $0.key.lexicographicallyPrecedes($1.key) }).enumerated() {
                    let order = rows.order
                    out.append(contentsOf: (index > 0 ? ",{\"properties\":" : "{\"properties\":").utf8)
                    Self.appendNames(fields.map(layout.fieldName), to: &out)
                    out.append(contentsOf: ",\"ids\":\"".utf8)
                    Self.appendRanges(order.map { rows.ids[$0] }, to: &out)
                    out.append(UInt8(ascii: "\""))
                    Self.appendValues(rows, order, width: Array(fields).count, key: "before", to: &out)
                    out.append(UInt8(ascii: "}"))
                    all.formUnion(fields)
                    ids.formUnion(rows.ids)
                }
                out.append(UInt8(ascii: "]"))
                count.updated = ids.count
                count.properties = all.map(layout.fieldName)
                separator = ","
            }
            if !changes.deleted.ids.isEmpty {
                let rows = changes.deleted
                let order = rows.order
                out.append(contentsOf: (separator + "\"deleted\":\"").utf8)
                Self.appendRanges(order.map { rows.ids[$0] }, to: &out)
                out.append(UInt8(ascii: "\""))
                if rows.complete {
                    out.append(contentsOf: ",\"deletedRows\":{\"properties\":".utf8)
                    Self.appendNames((0..<layout.fieldCount).map(layout.fieldName), to: &out)
                    Self.appendValues(rows, order, width: layout.fieldCount, key: "values", to: &out)
                    out.append(UInt8(ascii: "}"))
                }
                count.deleted = order.count
            }
            if !changes.deleted.ids.isEmpty { separator = "," }
            if let origins = note.merge?.origins[entity], !origins.isEmpty {
                Self.appendOrigins(origins, separator: separator, to: &out)
                separator = ","
            }
            if let kept = note.merge?.kept[entity], !kept.isEmpty {
                out.append(contentsOf: (separator + "\"kept\":\"").utf8)
                Self.appendRanges(Set(kept).sorted(), to: &out)
                out.append(UInt8(ascii: "\""))
            }
            out.append(UInt8(ascii: "}"))
            counts.entities[entity] = count
        }
        out.append(UInt8(ascii: "}"))

        let last = try Int64.fetchOne(db, sql: "SELECT value FROM _poddoc_store WHERE key = ?", arguments: [HistoryTable.lastSaveKey]) ?? 0
        let save = max(last, try Int64.fetchOne(db, sql: "SELECT max(save) FROM _poddoc_history") ?? 0) + 1
        try db.execute(
            sql: "INSERT INTO _poddoc_store (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
            arguments: [HistoryTable.lastSaveKey, String(save)])

        // A save of the newest entry's run joins it, unless either holds a long value (see
        // below): joining copies both.
        let long = out.count >= PersistentStore.longValueBytes
        if !long, let run = note.run,
            let newest = try Row.fetchOne(
                db,
                sql: """
                    SELECT save, entities, changes FROM _poddoc_history \
                    WHERE run = ? AND typeof(changes) = 'text' AND save = (SELECT max(save) FROM _poddoc_history)
                    """,
                arguments: [run]),
            let entities = String.fromDatabaseValue(newest["entities"]), let previous = EntityCounts(json: entities),
            let changes = String.fromDatabaseValue(newest["changes"])
        {
            var merged = previous
            merged.add(counts)
            if let old = newest["save"] as Int64? { try SaveGraph.renumberSave(db, from: old, to: save) }
            try db.execute(
                sql: """
                    UPDATE _poddoc_history SET save = ?, time = ?, inserted = ?, updated = ?, deleted = ?, entities = ?, \
                    summary = ?, changes = ? WHERE save = ?
                    """,
                arguments: [
                    save, now.timeIntervalSince1970, merged.total(\.inserted), merged.total(\.updated), merged.total(\.deleted),
                    merged.json, merged.summary, changes + "\n" + String(decoding: out, as: UTF8.self), newest["save"] as Int64?,
                ])
        } else {
            let insert = try RawStatement(
                db,
                """
                INSERT INTO _poddoc_history (save, first_save, time, host, writer, description, run, inserted, updated, \
                deleted, entities, summary, changes) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """)
            insert.bind(
                [
                    .integer(save), .integer(save), .real(now.timeIntervalSince1970), .text(note.host), .text(note.writer),
                    .text(note.description), note.run.map(StoreValue.text) ?? .null, .integer(Int64(counts.total(\.inserted))),
                    .integer(Int64(counts.total(\.updated))), .integer(Int64(counts.total(\.deleted))), .text(counts.json),
                    .text(counts.summary),
                ], startingAt: 1)
            if long {
                // A long entry (a long note deleted or rewritten) goes in as the bytes of its
                // JSON, written into a zeroed blob where it lies: as text SQLite would first
                // build the whole row beside `out` and the objects' own copy of the value.
                try insert.execute(bindingZeroBlob: out.count, at: 13)
                try out.withUnsafeBufferPointer { json in
                    try RawStatement.writeBlob(json, db, table: "_poddoc_history", column: "changes", row: save)
                }
            } else {
                // The changes go from `out` as they are: a deleted long note is not copied again.
                try out.withUnsafeBufferPointer { json in try insert.execute(bindingText: json, at: 13) }
            }
            try SaveGraph.recordSave(db, save: save, replica: replica, merge: note.merge, takesBack: note.takesBack)
        }
        try db.execute(
            sql: "DELETE FROM _poddoc_history WHERE save <= (SELECT save FROM _poddoc_history ORDER BY save DESC LIMIT 1 OFFSET ?)",
            arguments: [retention.maximumSaves])
        if let age = retention.maximumAge {
            let oldest = now.timeIntervalSince1970 - Double(age.components.seconds)
            try db.execute(sql: "DELETE FROM _poddoc_history WHERE time < ? AND save < ?", arguments: [oldest, save])
        }
        // The states of saves let go.
        try db.execute(
            sql:
                "DELETE FROM _poddoc_store WHERE key GLOB 'history.state.*' AND CAST(substr(key, 15) AS INTEGER) < (SELECT min(first_save) FROM _poddoc_history)"
        )
    }

    /// `"origins":{"<save>":{"<property or *>":"<ranges>"}}`: where a merge's values came from.
    private static func appendOrigins(_ origins: [String: [String: [Int64]]], separator: String, to out: inout [UInt8]) {
        out.append(contentsOf: (separator + "\"origins\":{").utf8)
        for (offset, name) in origins.keys.sorted().enumerated() {
            if offset > 0 { out.append(UInt8(ascii: ",")) }
            JSONEscaping.appendQuoted(name, to: &out)
            out.append(contentsOf: ":{".utf8)
            for (index, property) in origins[name]!.keys.sorted().enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                JSONEscaping.appendQuoted(property, to: &out)
                out.append(contentsOf: ":\"".utf8)
                appendRanges(Set(origins[name]![property]!).sorted(), to: &out)
                out.append(UInt8(ascii: "\""))
            }
            out.append(UInt8(ascii: "}"))
        }
        out.append(UInt8(ascii: "}"))
    }

    /// `["a","b"]`.
    private static func appendNames(_ names: [String], to out: inout [UInt8]) {
        out.append(UInt8(ascii: "["))
        for (offset, name) in names.enumerated() {
            if offset > 0 { out.append(UInt8(ascii: ",")) }
            JSONEscaping.appendQuoted(name, to: &out)
        }
        out.append(UInt8(ascii: "]"))
    }

    /// `,"<key>":[[v,…],…]`, one array a row in `order`, when every row's values are known.
    private static func appendValues(_ rows: Rows, _ order: [Int], width: Int, key: String, to out: inout [UInt8]) {
        guard rows.complete else { return }
        out.append(contentsOf: ",\"\(key)\":[".utf8)
        for (offset, row) in order.enumerated() {
            out.append(contentsOf: (offset > 0 ? ",[" : "[").utf8)
            for index in 0..<width {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                appendJSON(rows.values[row * width + index], to: &out)
            }
            out.append(UInt8(ascii: "]"))
        }
        out.append(UInt8(ascii: "]"))
    }

    /// A store value as JSON: null, an integer, a real (always with a `.` or an exponent;
    /// `{"real":"inf"}` and the like when not finite), a string, or `{"blob":"<base64>"}`.
    static func appendJSON(_ value: StoreValue, to out: inout [UInt8]) {
        switch value {
        case .null: out.append(contentsOf: "null".utf8)
        case .integer(let v): out.append(contentsOf: String(v).utf8)
        case .real(let v): out.append(contentsOf: (v.isFinite ? "\(v)" : "{\"real\":\"\(v)\"}").utf8)
        case .text(let s):
            // A long text gets room for exactly itself (and what follows it in the entry):
            // growing by doubling would leave up to as much again unused.
            if s.utf8.count >= 1 << 20 { out.reserveCapacity(out.count + JSONEscaping.quotedLength(s) + (1 << 16)) }
            JSONEscaping.appendQuoted(s, to: &out)
        case .blob(let d): out.append(contentsOf: "{\"blob\":\"\(d.base64EncodedString())\"}".utf8)
        }
    }

    /// Sorted row ids as ranges: `1-500,502`.
    static func appendRanges(_ sorted: [Int64], to out: inout [UInt8]) {
        var index = 0
        while index < sorted.count {
            var end = index
            while end + 1 < sorted.count && sorted[end + 1] == sorted[end] + 1 { end += 1 }
            if index > 0 { out.append(UInt8(ascii: ",")) }
            out.append(contentsOf: String(sorted[index]).utf8)
            if end > index {
                out.append(UInt8(ascii: "-"))
                out.append(contentsOf: String(sorted[end]).utf8)
            }
            index = end + 1
        }
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

    /// `Pod: 500 inserted, 2 updated (name, summary), 1 deleted; Item: 3 inserted`; an entity
    /// whose objects the entry only names (a merge's origins, an object it kept) is left out.
    var summary: String {
        sortedEntities.compactMap { entity, count -> String? in
            var parts: [String] = []
            if count.inserted > 0 { parts.append("\(count.inserted) inserted") }
            if count.updated > 0 { parts.append("\(count.updated) updated (\(count.properties.joined(separator: ", ")))") }
            if count.deleted > 0 { parts.append("\(count.deleted) deleted") }
            return parts.isEmpty ? nil : "\(entity): " + parts.joined(separator: ", ")
        }.joined(separator: "; ")
    }
}
