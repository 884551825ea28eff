import GRDB
import GRDBSQLite

// MARK: - Writing batch upserts (inside a root save's transaction)

/// Writes ``BatchUpsert`` rows with one prepared upsert per batch shape (`INSERT … ON
/// CONFLICT(key) DO UPDATE … RETURNING`), the statement cached by the connection across saves.
/// New rows get ids from the entity's sequence, so ids are never reused; the full-text index
/// is kept in step in the same transaction.
struct BatchWriter {
    let db: Database

    func write(_ batch: BatchUpsert) throws -> WrittenBatch {
        let layout = batch.layout
        let width = layout.attributes.count
        let count = batch.count
        let baseline = try RowIDSequence.last(db, layout)
        var last = baseline
        var rowIDs: [Int64] = [], versions: [Int64] = []
        rowIDs.reserveCapacity(count)
        versions.reserveCapacity(count)
        var result = BatchUpsertResult()
        var reportedUpdates = Set<Int64>()

        let upsert = try RawStatement(db, upsertSQL(batch))
        let reindexes = layout.fullTextFields.contains(where: batch.columns.contains)
        let indexText: RawStatement? = try layout.fullTextFields.isEmpty ? nil : RawStatement(db, """
            INSERT INTO \(layout.fullTextTable) ("rowid"\(layout.fullTextFields.map { ", " + SQL.quote(layout.attributes[$0].name) }.joined())) \
            VALUES (?\(String(repeating: ", ?", count: layout.fullTextFields.count)))
            """)
        let unindexText: RawStatement? = try reindexes ? RawStatement(db, "DELETE FROM \(layout.fullTextTable) WHERE \"rowid\" = ?") : nil

        for index in 0..<count {
            let candidate = last + 1
            upsert.bind(.integer(candidate), at: 1)
            let base = index * width
            for field in 0..<width { upsert.bind(batch.values[base + field], at: Int32(2 + field)) }
            guard try upsert.step() else { throw StoreError(.sqlite, "SQLite returned no row for an upsert into \(layout.name).") }
            let id = upsert.int64(0), version = upsert.int64(1)
            rowIDs.append(id)
            versions.append(version)
            let created = id == candidate
            if created {
                last = candidate
                result.created.append(ObjectID(entityName: layout.name, key: id))
            } else if id <= baseline, reportedUpdates.insert(id).inserted {
                result.updated.append(ObjectID(entityName: layout.name, key: id))
            }
            // The text index takes the values the row has now (RETURNING), before the reset.
            if let indexText, created || reindexes {
                indexText.bind(.integer(id), at: 1)
                for offset in layout.fullTextFields.indices {
                    indexText.bind(columnOf: upsert, Int32(2 + offset), at: Int32(2 + offset))
                }
            }
            upsert.reset()
            guard let indexText, created || reindexes else { continue }
            if !created, let unindexText {
                unindexText.bind(.integer(id), at: 1)
                try unindexText.execute()
            }
            try indexText.execute()
        }
        if last != baseline { try RowIDSequence.record(db, layout, last: last) }
        return WrittenBatch(batch: batch, rowIDs: rowIDs, versions: versions, result: result)
    }

    /// The upsert for a batch: every attribute on insert, the batch's columns on update, the
    /// row version bumped; returns the id, the version, and the text-indexed values.
    private func upsertSQL(_ batch: BatchUpsert) -> String {
        let layout = batch.layout
        let names = layout.attributes.map { SQL.quote($0.name) }
        let assignments = batch.columns.filter { $0 != batch.keyField }.map { "\(names[$0]) = excluded.\(names[$0])" }
            + ["\"_version\" = \"_version\" + 1"]
        let returning = ["\"id\"", "\"_version\""] + layout.fullTextFields.map { names[$0] }
        return """
            INSERT INTO \(layout.table) ("id", "_version", \(names.joined(separator: ", "))) \
            VALUES (?, 1\(String(repeating: ", ?", count: names.count))) \
            ON CONFLICT(\(names[batch.keyField])) DO UPDATE SET \(assignments.joined(separator: ", ")) \
            RETURNING \(returning.joined(separator: ", "))
            """
    }
}

/// The highest row id ever given per entity (`_poddoc_sequence`), so ids are never reused.
enum RowIDSequence {
    /// The highest id given in `layout`'s table: the recorded one or a larger id in the table.
    static func last(_ db: Database, _ layout: EntityLayout) throws -> Int64 {
        let sequence = try RawStatement(db, "SELECT last FROM _poddoc_sequence WHERE entity = ?")
        sequence.bind(.text(layout.name), at: 1)
        var last = try sequence.step() ? sequence.int64(0) : 0
        sequence.reset()
        let maximum = try RawStatement(db, "SELECT max(\"id\") FROM \(layout.table)")
        if try maximum.step() { last = max(last, maximum.int64(0)) }
        maximum.reset()
        return last
    }

    /// Records `last` as the highest id given in `layout`'s table.
    static func record(_ db: Database, _ layout: EntityLayout, last: Int64) throws {
        let update = try RawStatement(db, "INSERT INTO _poddoc_sequence (entity, last) VALUES (?, ?) ON CONFLICT(entity) DO UPDATE SET last = excluded.last")
        update.bind(.text(layout.name), at: 1)
        update.bind(.integer(last), at: 2)
        try update.execute()
    }
}
