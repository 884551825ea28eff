internal import GRDB
internal import GRDBSQLite

// MARK: - Writing batch upserts (inside a root save's transaction)

/// Writes ``BatchUpsert`` rows: a new key with one prepared insert, a stored key read (its
/// values before, for undo and the history) and updated where a value differs; a row that holds
/// the stored values already is not written.
/// New rows get ids from the entity's sequence, so ids are never reused; the full-text index
/// is kept in step in the same transaction: the new rows' text copied in one statement after
/// the batch (their ids are consecutive), an updated row's text replaced as it is written.
struct BatchWriter {
    let db: Database
    /// The copy this store is: new rows take ids from its range.
    let replica: Replica
    /// The permanent ID of an object inserted in the same save (or in an earlier one).
    let permanent: (ObjectID) -> ObjectID

    /// Writes a staged batch. The values each updated row held before in the batch's update
    /// columns come back in ``WrittenBatch/replaced`` (for undo and the history).
    func write(_ batch: BatchUpsert) throws -> WrittenBatch {
        guard let keyField = batch.keyField else { return try insert(batch) }
        let layout = batch.layout
        let width = layout.attributes.count
        let count = batch.count
        let baseline = try RowIDSequence.last(db, layout, replica: replica)
        var last = baseline
        var rowIDs: [Int64] = []
        var versions: [Int64] = []
        rowIDs.reserveCapacity(count)
        versions.reserveCapacity(count)
        var result = BatchUpsertResult()
        var reportedUpdates = Set<Int64>()
        var unchangedRows = Set<Int>()
        var unchangedIDs = Set<Int64>()
        var unchangedOrder: [Int64] = []
        var replaced: [Int64: [StoreValue]] = [:]

        let statements = try Statements(db, batch, keyField: keyField)
        let reindexes = layout.fullTextFields.contains(where: batch.columns.contains)
        let copyText: RawStatement? = try layout.fullTextFields.isEmpty ? nil : RawStatement(db, layout.fullTextCopySQL)
        let unindexText: RawStatement? = try reindexes ? RawStatement(db, "DELETE FROM \(layout.fullTextTable) WHERE \"rowid\" = ?") : nil
        let updateColumns = batch.updateColumns

        for index in 0..<count {
            let base = index * width
            // A new key inserts (one statement, the common case of an import) ...
            let candidate = last + 1
            statements.insert.bind(.integer(candidate), at: 1)
            for field in 0..<width { statements.insert.bind(batch.values[base + field], at: Int32(2 + field)) }
            try statements.insert.execute()
            if statements.insert.changes > 0 {
                last = candidate
                rowIDs.append(candidate)
                versions.append(1)
                result.created.append(ObjectID(entityName: layout.name, key: candidate))
                continue
            }
            // ... a stored key is read (its values before), then updated where they differ.
            statements.read.bind(batch.values[base + keyField], at: 1)
            guard try statements.read.step() else {
                statements.read.reset()
                throw StoreError(.sqlite, "SQLite found no row for a key whose insert it has just refused.")
            }
            let id = statements.read.int64(0)
            let version = statements.read.int64(1)
            let before = updateColumns.indices.map { statements.read.value(Int32($0 + 2)) }
            statements.read.reset()
            statements.update.bind(.integer(id), at: 1)
            for (offset, field) in updateColumns.enumerated() { statements.update.bind(batch.values[base + field], at: Int32(2 + offset)) }
            try statements.update.execute()
            rowIDs.append(id)
            guard statements.update.changes > 0 else {
                // The row is stored with these very values: left alone.
                versions.append(version)
                unchangedRows.insert(index)
                if unchangedIDs.insert(id).inserted { unchangedOrder.append(id) }
                continue
            }
            versions.append(version + 1)
            guard !(id > baseline && id <= last) else { continue }  // a row of this batch, updated again
            if reportedUpdates.insert(id).inserted {
                result.updated.append(ObjectID(entityName: layout.name, key: id))
                replaced[id] = before
            }
            // A row stored before whose text changed: its text is replaced now. (Rows new in
            // this batch, updated again by a later row or not, are copied after the loop.)
            if let copyText, let unindexText {
                unindexText.bind(.integer(id), at: 1)
                try unindexText.execute()
                copyText.bind(.integer(id - 1), at: 1)
                copyText.bind(.integer(id), at: 2)
                try copyText.execute()
            }
        }
        if last != baseline {
            try RowIDSequence.record(db, layout, last: last, replica: replica)
            if let copyText {
                copyText.bind(.integer(baseline), at: 1)
                copyText.bind(.integer(last), at: 2)
                try copyText.execute()
            }
        }
        // Stored before and left alone by every row of the batch (not created or updated by one).
        result.unchanged = unchangedOrder.filter { !($0 > baseline && $0 <= last) && !reportedUpdates.contains($0) }.map {
            ObjectID(entityName: layout.name, key: $0)
        }
        var written = WrittenBatch(batch: batch, rowIDs: rowIDs, versions: versions, unchangedRows: unchangedRows, result: result)
        for (id, values) in replaced { written.replaced[ObjectID(entityName: layout.name, key: id)] = values }
        return written
    }

    /// Writes an insert batch: one prepared insert, every row a new object with the next id
    /// of the entity's sequence; references to earlier rows take those rows' ids.
    private func insert(_ batch: BatchUpsert) throws -> WrittenBatch {
        let layout = batch.layout
        let width = layout.attributes.count
        let fkCount = layout.foreignKeys.count
        let count = batch.count
        let baseline = try RowIDSequence.last(db, layout, replica: replica)
        let names = (layout.attributes.map(\.name) + layout.foreignKeys.map(\.name)).map(SQL.quote)
        let insert = try RawStatement(
            db,
            """
            INSERT INTO \(layout.table) ("id", "_version", \(names.joined(separator: ", "))) \
            VALUES (?, 1\(String(repeating: ", ?", count: names.count)))
            """)
        var resolved: [ObjectID: Int64] = [:]
        for index in 0..<count {
            let id = baseline + Int64(index) + 1
            insert.bind(.integer(id), at: 1)
            let base = index * width
            for field in 0..<width { insert.bind(batch.values[base + field], at: Int32(2 + field)) }
            for fk in 0..<fkCount {
                let value: StoreValue
                switch batch.reference(row: index, foreignKey: fk) {
                case .none: value = .null
                case .row(let target): value = .integer(baseline + Int64(target) + 1)
                case .object(let object):
                    if let key = resolved[object] {
                        value = .integer(key)
                    } else {
                        guard let key = permanent(object).rowID else {
                            throw StoreError(
                                .validation,
                                "Could not insert row \(index) of '\(layout.name)': it points at \(object), an object that was never saved (inserted in another context?). Save that context first."
                            )
                        }
                        resolved[object] = key
                        value = .integer(key)
                    }
                }
                insert.bind(value, at: Int32(2 + width + fk))
            }
            try insert.execute()
        }
        if count > 0 {
            try RowIDSequence.record(db, layout, last: baseline + Int64(count), replica: replica)
            if !layout.fullTextFields.isEmpty {
                let copyText = try RawStatement(db, layout.fullTextCopySQL)
                copyText.bind(.integer(baseline), at: 1)
                copyText.bind(.integer(baseline + Int64(count)), at: 2)
                try copyText.execute()
            }
        }
        let rowIDs = (0..<count).map { baseline + Int64($0) + 1 }
        var result = BatchUpsertResult()
        result.created = rowIDs.map { ObjectID(entityName: layout.name, key: $0) }
        return WrittenBatch(batch: batch, rowIDs: rowIDs, versions: Array(repeating: 1, count: count), unchangedRows: [], result: result)
    }

    /// The three statements of a keyed batch's shape, cached by the connection across saves:
    /// `INSERT … ON CONFLICT(key) DO NOTHING` (every attribute), the stored row's id, version
    /// and update columns by key, and `UPDATE … WHERE id = ? AND <a column differs>` (the
    /// version bumped). No `RETURNING`: SQLite buffers a `RETURNING` statement's output in a
    /// table of its own, as long again as the statement; `changes()` tells what happened.
    private struct Statements {
        let insert: RawStatement
        let read: RawStatement
        let update: RawStatement

        init(_ db: Database, _ batch: BatchUpsert, keyField: Int) throws {
            let layout = batch.layout
            let names = layout.attributes.map { SQL.quote($0.name) }
            let updated = batch.updateColumns
            insert = try RawStatement(
                db,
                """
                INSERT INTO \(layout.table) ("id", "_version", \(names.joined(separator: ", "))) \
                VALUES (?, 1\(String(repeating: ", ?", count: names.count))) ON CONFLICT(\(names[keyField])) DO NOTHING
                """)
            read = try RawStatement(
                db,
                "SELECT \((["\"id\"", "\"_version\""] + updated.map { names[$0] }).joined(separator: ", ")) FROM \(layout.table) WHERE \(names[keyField]) = ?"
            )
            let assignments = updated.enumerated().map { "\(names[$1]) = ?\($0 + 2)" } + ["\"_version\" = \"_version\" + 1"]
            let differs = updated.isEmpty ? "0" : updated.enumerated().map { "\(names[$1]) IS NOT ?\($0 + 2)" }.joined(separator: " OR ")
            update = try RawStatement(
                db, "UPDATE \(layout.table) SET \(assignments.joined(separator: ", ")) WHERE \"id\" = ?1 AND (\(differs))")
        }
    }
}

// MARK: - Batches the store holds already

extension PersistentStore {
    /// Whether every row of `batch` is stored already with the values the batch sets, so that
    /// upserting it would change nothing. Stops at the first row that would change, so a batch
    /// of new rows costs one lookup.
    ///
    /// An importer can skip saving such a batch: re-importing what a document holds then
    /// leaves the document as it is. An insert batch always adds objects: false unless it is
    /// empty.
    ///
    /// - Throws: ``StoreError`` when the store cannot be read.
    public func holdsAllRows(of batch: BatchUpsert) throws -> Bool {
        guard let keyField = batch.keyField else { return batch.isEmpty }
        let layout = batch.layout
        let width = layout.attributes.count
        let compared = batch.updateColumns
        let conditions = ([keyField] + compared).enumerated().map { offset, field in
            "\(SQL.quote(layout.attributes[field].name)) \(offset == 0 ? "=" : "IS") ?\(offset + 1)"
        }
        let sql = "SELECT 1 FROM \(layout.table) WHERE \(conditions.joined(separator: " AND "))"
        return try unsafeRead { db in
            let lookup = try RawStatement(db, sql)
            defer { lookup.reset() }
            for index in 0..<batch.count {
                let base = index * width
                lookup.bind(batch.values[base + keyField], at: 1)
                for (offset, field) in compared.enumerated() { lookup.bind(batch.values[base + field], at: Int32(offset + 2)) }
                guard try lookup.step() else { return false }
                lookup.reset()
            }
            return true
        }
    }
}

/// The highest row id ever given per entity (`_poddoc_sequence`), so ids are never reused.
/// Each replica (``Replica``) gives ids from its own range, with a sequence of its own
/// (`<entity>@<base>`; the range starting at 1 keeps the entity's name).
enum RowIDSequence {
    /// The highest id `replica` gave in `layout`'s table: the recorded one or a larger id of
    /// its range in the table; the range's start when it gave none.
    static func last(_ db: Database, _ layout: EntityLayout, replica: Replica) throws -> Int64 {
        let sequence = try RawStatement(db, "SELECT last FROM _poddoc_sequence WHERE entity = ?")
        sequence.bind(.text(key(layout, replica)), at: 1)
        var last = try sequence.step() ? sequence.int64(0) : 0
        sequence.reset()
        let maximum = try RawStatement(db, "SELECT max(\"id\") FROM \(layout.table) WHERE \"id\" > ? AND \"id\" <= ?")
        maximum.bind(.integer(replica.base), at: 1)
        maximum.bind(.integer(replica.base + Replica.span), at: 2)
        if try maximum.step() { last = max(last, maximum.int64(0)) }
        maximum.reset()
        return max(last, replica.base)
    }

    /// Records `last` as the highest id `replica` gave in `layout`'s table.
    static func record(_ db: Database, _ layout: EntityLayout, last: Int64, replica: Replica) throws {
        guard replica.owns(last) else { return }
        let update = try RawStatement(
            db, "INSERT INTO _poddoc_sequence (entity, last) VALUES (?, ?) ON CONFLICT(entity) DO UPDATE SET last = excluded.last")
        update.bind(.text(key(layout, replica)), at: 1)
        update.bind(.integer(last), at: 2)
        try update.execute()
    }

    private static func key(_ layout: EntityLayout, _ replica: Replica) -> String {
        replica.base == 0 ? layout.name : "\(layout.name)@\(replica.base)"
    }
}
