internal import GRDB

// MARK: - Writing a root context's changes (on the root context's queue)

extension PersistentStore {
    /// Writes a root context's changes in one transaction: permanent IDs for inserts, then
    /// deletes, updates and inserts, each update and delete checked against the row version
    /// it was read at (optimistic locking). Conflicts are resolved by the change set's merge
    /// policy, or, under `.error`, reported all together with nothing written.
    ///
    /// - Throws: ``StoreError`` (`.mergeConflict`, `.uniqueConstraint`, `.validation`,
    ///   `.readOnly`, `.sqlite`); the store is then unchanged.
    func write(_ changes: ChangeSet) throws -> PushOutcome {
        guard !options.readOnly else {
            throw StoreError(
                .readOnly, "\(url?.path ?? "The store") was opened read-only; its changes cannot be saved. Save a copy elsewhere instead.")
        }
        var outcome = PushOutcome()
        do {
            try database.writeWithoutTransaction { db in
                // Rewriting or deleting a row with a long value reads all its pages, and the
                // history's copy of the value writes as many: a cache the size of a big
                // save's would hold them all (64 MiB), beside the value itself. A small one
                // spills the written pages to the WAL as it goes.
                let restore = changes.touchesLongValue ? try Self.shrinkPageCache(db, toKiB: Self.longValueCacheKiB) : nil
                defer { restore?() }
                try db.inTransaction(.immediate) {
                    let replica = try Replica.current(db, place: placeForWrites, ledger: options.replicaLedger)
                    var writer = StoreWriter(store: self, db: db, changes: changes, replica: replica)
                    outcome = try writer.run()
                    // Batch upserts after the objects, in the same transaction.
                    // Rows may point at objects of this save, and at rows of earlier batches.
                    var assigned = outcome.permanentIDs
                    for staged in changes.batches {
                        let known = assigned
                        let written = try BatchWriter(db: db, replica: replica) { id in id.isTemporary ? known[id] ?? id.resolved : id }
                            .write(staged.batch)
                        for (row, temporary) in staged.batch.temporaryIDs { assigned[temporary] = written.id(ofRow: row) }
                        outcome.batches.append(written)
                    }
                    outcome.permanentIDs = assigned
                    try recordHistory(of: changes, outcome, in: db, replica: replica)
                    return .commit
                }
            }
        } catch let error as StoreError {
            throw error
        } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT {
            throw StoreError(
                .validation,
                "Could not save: \(error.message ?? "a constraint failed"). A relationship probably points at an object deleted elsewhere; refresh and try again.",
                cause: error)
        } catch {
            throw StoreError.sqlite(error, while: "saving")
        }
        if !outcome.permanentIDs.isEmpty {
            aliasGeneration.add(1, ordering: .releasing)
            for (temporary, permanent) in outcome.permanentIDs {
                temporary.permanentKey?.value.store(permanent.key, ordering: .releasing)
            }
            aliasGeneration.add(1, ordering: .releasing)
        }
        return outcome
    }
}

extension PersistentStore {
    /// The page cache of a save that rewrites, deletes or inserts a long value (see
    /// ``longValueBytes``), in KiB.
    static let longValueCacheKiB = 2048

    /// Records what a save wrote in the store's history (see ``history(limit:)``), in its
    /// transaction.
    private func recordHistory(of changes: ChangeSet, _ outcome: PushOutcome, in db: Database, replica: Replica) throws {
        guard let retention = historyRetention else { return }
        var recorder = HistoryRecorder()
        for row in outcome.inserted { recorder.inserted(row.id) }
        // Values before the save: the rows the objects were read at, which the version
        // check of each update and delete proved current; the batches read theirs.
        // A field set and set back before the save is no change: a merge counts every change
        // recorded as one the other copy has not seen.
        for (pushed, written) in zip(changes.updated, outcome.updated) {
            guard let written else { continue }
            var fields = pushed.changedFields
            if var before = pushed.snapshot {
                var after = written.row
                before.resolveRefs(resolve)
                after.resolveRefs(resolve)
                let differing = before.differingFields(from: after)
                var changed = FieldSet()
                for field in fields where differing.contains(field) { changed.insert(field) }
                guard !changed.isEmpty else { continue }
                fields = changed
            }
            recorder.updated(written.id, fields: fields, readAt: pushed.snapshot, resolve: resolve)
        }
        for (pushed, kept) in zip(changes.deleted, outcome.deleted) where kept == nil {
            recorder.deleted(
                resolve(pushed.id), readAt: pushed.snapshot ?? pushed.row, fieldCount: model.layout(pushed.id.entityName).fieldCount,
                resolve: resolve)
        }
        for id in outcome.displaced { recorder.deleted(id, readAt: nil, fieldCount: 0, resolve: resolve) }
        for written in outcome.batches {
            recorder.inserted(written.result.created.lazy.compactMap(\.rowID), of: written.batch.layout.name)
            guard !written.result.updated.isEmpty else { continue }
            // An updated object's changed properties: the batch's columns whose values, as its
            // last row for the object left them, differ from the values before.
            let batch = written.batch
            let columns = batch.updateColumns
            let width = batch.layout.attributes.count
            var lastRow: [Int64: Int] = [:]
            for (row, id) in written.rowIDs.enumerated() { lastRow[id] = row }
            var changedValues: [StoreValue] = []
            for id in written.result.updated {
                guard let before = written.replaced[id], let row = id.rowID.flatMap({ lastRow[$0] }) else {
                    recorder.updated(id, fields: FieldSet(columns), before: nil)
                    continue
                }
                var changed = FieldSet()
                changedValues.removeAll(keepingCapacity: true)
                for (offset, field) in columns.enumerated() where before[offset] != batch.values[row * width + field] {
                    changed.insert(field)
                    changedValues.append(before[offset])
                }
                recorder.updated(id, fields: changed, before: changedValues)
            }
        }
        try recorder.record(in: db, model: model, note: changes.note ?? SaveNote(), retention: retention, replica: replica)
    }
}

/// One save's worth of SQL, inside the transaction.
private struct StoreWriter {
    let store: PersistentStore
    let db: Database
    let changes: ChangeSet
    /// The copy this store is: new objects take ids from its range.
    let replica: Replica
    var assigned: [ObjectID: ObjectID] = [:]
    var outcome = PushOutcome()
    var conflicts: [MergeConflict] = []
    /// Prepared statements of this save, by shape (kind, entity, fields).
    var statements: [StatementKey: RawStatement] = [:]
    var lastStatement: (key: StatementKey, statement: RawStatement)?
    var lastLayout: EntityLayout?

    struct StatementKey: Hashable {
        enum Kind { case insert, update, delete, indexText, unindexText }
        let kind: Kind
        let entity: String
        let fields: FieldSet
    }

    init(store: PersistentStore, db: Database, changes: ChangeSet, replica: Replica) {
        self.store = store
        self.db = db
        self.changes = changes
        self.replica = replica
    }

    mutating func run() throws -> PushOutcome {
        try assignPermanentIDs()
        outcome.deleted.reserveCapacity(changes.deleted.count)
        outcome.updated.reserveCapacity(changes.updated.count)
        outcome.inserted.reserveCapacity(changes.inserted.count)
        for object in changes.deleted { try delete(object) }
        for object in changes.updated { try update(object) }
        for object in changes.inserted { try insert(object) }
        if !conflicts.isEmpty { throw StoreError.mergeConflict(conflicts) }
        for (key, value) in changes.storeMetadata.sorted(by: { $0.key < $1.key }) {
            let statement = try RawStatement(
                db, "INSERT INTO _poddoc_store (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value")
            statement.bind(.text(key), at: 1)
            statement.bind(.text(value), at: 2)
            try statement.execute()
        }
        outcome.permanentIDs = assigned
        outcome.findUpdatesNotAsPushed(changes)
        return outcome
    }

    // MARK: - IDs

    private mutating func assignPermanentIDs() throws {
        let byEntity = Dictionary(grouping: changes.inserted, by: \.id.entityName)
        for (entity, objects) in byEntity {
            let layout = store.model.layout(entity)
            var last = try RowIDSequence.last(db, layout, replica: replica)
            for object in objects.sorted(by: { $0.id < $1.id }) {
                if object.id.isTemporary {
                    last += 1
                    assigned[object.id] = ObjectID(entityName: entity, key: last)
                } else if replica.owns(object.id.key) {
                    // An object put back under its own id (a revert, an undo of a delete).
                    last = max(last, object.id.key)
                }
            }
            try RowIDSequence.record(db, layout, last: last, replica: replica)
        }
    }

    private func permanent(_ id: ObjectID) -> ObjectID {
        guard id.isTemporary else { return id }
        return assigned[id] ?? id.resolved
    }

    /// The row with every reference permanent.
    private func resolved(_ row: RowData, of id: ObjectID) throws -> RowData {
        guard row.refs.contains(where: { $0?.isTemporary ?? false }) else { return row }
        var row = row
        row.resolveRefs(permanent)
        if let dangling = row.refs.first(where: { $0?.isTemporary ?? false }) {
            throw StoreError(
                .validation,
                "Could not save \(permanent(id)): it points at \(dangling!), an object that was never saved (inserted in another context?). Save that context first."
            )
        }
        return row
    }

    // MARK: - Statements

    private mutating func delete(_ object: PushedObject) throws {
        let layout = layout(of: object.id)
        let id = permanent(object.id)
        if try deleteRow(layout, id, version: object.snapshotVersion) {
            outcome.deleted.append(nil)
            return
        }
        guard let disk = try diskRow(layout, id) else {  // deleted elsewhere too
            outcome.deleted.append(nil)
            return
        }
        let snapshot = try resolved(object.snapshot ?? object.row, of: object.id)
        let conflicting = disk.row.differingFields(from: snapshot)
        if conflicting.isEmpty || changes.policy.oursSurvives {
            _ = try deleteRow(layout, id, version: disk.version)
            outcome.deleted.append(nil)
        } else if changes.policy == .error {
            conflicts.append(
                MergeConflict(
                    objectID: id, kind: .changedElsewhereWhileDeleted,
                    properties: conflicting.map(layout.fieldName), foundIn: "store"))
        } else {
            outcome.deleted.append(disk)
        }
    }

    private mutating func update(_ object: PushedObject) throws {
        let layout = layout(of: object.id)
        let id = permanent(object.id)
        let row = try resolved(object.row, of: object.id)
        if try updateRow(layout, id, row, fields: object.changedFields, version: object.snapshotVersion) {
            outcome.updated.append(VersionedRow(id: id, row: row, version: object.snapshotVersion + 1))
            return
        }
        guard let disk = try diskRow(layout, id) else {
            if changes.policy == .error {
                conflicts.append(MergeConflict(objectID: id, kind: .deletedElsewhere, properties: [], foundIn: "store"))
            } else if changes.policy.oursSurvives {
                try insertTakingUniqueValues(layout, id, row, version: object.snapshotVersion + 1)
                outcome.updated.append(VersionedRow(id: id, row: row, version: object.snapshotVersion + 1))
            } else {
                outcome.updated.append(nil)
            }
            return
        }
        let snapshot = try resolved(object.snapshot ?? object.row, of: object.id)
        let conflicting = disk.row.differingFields(from: snapshot)
        var result = disk.row
        if conflicting.isEmpty {
            result.copyFields(object.changedFields, from: row)
        } else if changes.policy == .error {
            conflicts.append(
                MergeConflict(
                    objectID: id, kind: .changedElsewhere,
                    properties: conflicting.map(layout.fieldName), foundIn: "store"))
            return
        } else {
            result = changes.policy.resolve(ours: row, changed: object.changedFields, theirs: disk.row, conflicting: conflicting)
        }
        let all = FieldSet(0..<layout.fieldCount)
        guard try updateRow(layout, id, result, fields: all, version: disk.version) else {
            throw StoreError(.sqlite, "\(id) changed again while its conflict was being resolved; save again.")
        }
        outcome.updated.append(VersionedRow(id: id, row: result, version: disk.version + 1))
    }

    private mutating func insert(_ object: PushedObject) throws {
        let layout = layout(of: object.id)
        let id = permanent(object.id)
        let row = try resolved(object.row, of: object.id)
        try insertTakingUniqueValues(layout, id, row, version: 1)
        outcome.inserted.append(VersionedRow(id: id, row: row, version: 1))
    }

    /// Inserts a row; when another row holds one of its unique values (a batch import wrote
    /// the same key meanwhile), that row goes first under every policy but `.error`, which
    /// refuses the save (`.uniqueConstraint`, naming the key; see ``MergePolicy``).
    private mutating func insertTakingUniqueValues(_ layout: EntityLayout, _ id: ObjectID, _ row: RowData, version: Int64) throws {
        do {
            try insertRow(layout, id, row, version: version)
        } catch let error as StoreError where error.code == .uniqueConstraint && changes.policy != .error {
            let holders = try rowsHoldingUniqueValues(layout, of: row, besides: id)
            guard !holders.isEmpty else { throw error }  // not a unique attribute (the ID itself)
            for holder in holders {
                try deleteRow(layout, holder)
                outcome.displaced.append(holder)
            }
            try insertRow(layout, id, row, version: version)
        }
    }

    // MARK: - SQL

    private func columnName(_ layout: EntityLayout, _ field: Int) -> String {
        SQL.quote(layout.fieldName(field))
    }

    private func bindField(_ statement: RawStatement, _ row: RowData, _ field: Int, at index: Int32) {
        if field < row.values.count {
            statement.bind(row.values[field], at: index)
        } else {
            statement.bind(row.refs[field - row.values.count].map { .integer($0.key) } ?? .null, at: index)
        }
    }

    /// Runs `statement` with `row`'s fields bound at their indexes: long texts and blobs
    /// (see ``PersistentStore/longValueBytes``) where they lie in the row, without the copy
    /// SQLite would otherwise make before building the record from them.
    private func execute(
        _ statement: RawStatement, binding bindings: some Sequence<(field: Int, index: Int32)>, of row: RowData
    ) throws {
        var long: [(value: StoreValue, index: Int32)] = []
        for (field, index) in bindings {
            if field < row.values.count, row.values[field].isLong {
                long.append((row.values[field], index))
            } else {
                bindField(statement, row, field, at: index)
            }
        }
        try Self.withBytes(of: long[...], []) { try statement.execute(binding: $0) }
    }

    /// Calls `body` with the bytes of each text (UTF-8) and blob in `values`, where they lie.
    private static func withBytes(
        of values: ArraySlice<(value: StoreValue, index: Int32)>,
        _ gathered: [(bytes: UnsafeBufferPointer<UInt8>, isText: Bool, index: Int32)],
        _ body: ([(bytes: UnsafeBufferPointer<UInt8>, isText: Bool, index: Int32)]) throws -> Void
    ) throws {
        guard let (value, index) = values.first else { return try body(gathered) }
        switch value {
        case .text(var text):
            try text.withUTF8 { try withBytes(of: values.dropFirst(), gathered + [($0, true, index)], body) }
        case .blob(let data):
            try data.withUnsafeBytes { raw in
                try withBytes(of: values.dropFirst(), gathered + [(raw.bindMemory(to: UInt8.self), false, index)], body)
            }
        default:
            preconditionFailure("only texts and blobs are long")
        }
    }

    /// The layout of an object's entity (consecutive objects mostly share one).
    private mutating func layout(of id: ObjectID) -> EntityLayout {
        if let last = lastLayout, last.name == id.entityName { return last }
        let layout = store.model.layout(id.entityName)
        lastLayout = layout
        return layout
    }

    /// The prepared statement for a shape, made once per save.
    private mutating func statement(_ key: StatementKey, _ layout: EntityLayout) throws -> RawStatement {
        if let last = lastStatement, last.key == key { return last.statement }
        if let statement = statements[key] {
            lastStatement = (key, statement)
            return statement
        }
        let sql: String
        switch key.kind {
        case .insert:
            let columns = (0..<layout.fieldCount).map { columnName(layout, $0) }
            sql =
                "INSERT INTO \(layout.table) (\"id\", \"_version\"\(columns.map { ", " + $0 }.joined())) VALUES (?, ?\(String(repeating: ", ?", count: columns.count)))"
        case .update:
            let assignments = key.fields.map { "\(columnName(layout, $0)) = ?" } + ["\"_version\" = ?"]
            sql = "UPDATE \(layout.table) SET \(assignments.joined(separator: ", ")) WHERE \"id\" = ? AND \"_version\" = ?"
        case .delete:
            sql = "DELETE FROM \(layout.table) WHERE \"id\" = ? AND \"_version\" = ?"
        case .indexText:
            sql = layout.fullTextInsertSQL
        case .unindexText:
            sql = "DELETE FROM \(layout.fullTextTable) WHERE \"rowid\" = ?"
        }
        let statement = try RawStatement(db, sql)
        statements[key] = statement
        lastStatement = (key, statement)
        return statement
    }

    private mutating func insertRow(_ layout: EntityLayout, _ id: ObjectID, _ row: RowData, version: Int64) throws {
        let statement = try statement(StatementKey(kind: .insert, entity: layout.name, fields: FieldSet()), layout)
        statement.bind(.integer(id.key), at: 1)
        statement.bind(.integer(version), at: 2)
        try execute(statement, binding: (0..<layout.fieldCount).lazy.map { ($0, Int32(3 + $0)) }, of: row)
        try indexText(layout, id, row)
    }

    /// Updates `fields` if the row is still at `version`; false when it is not.
    ///
    /// A long value the row keeps (see ``PersistentStore/longValueBytes``) is written back
    /// too, from the object's row where it lies: SQLite rewrites the whole row, and would
    /// otherwise first read the value from the old one. The version check proves both hold
    /// the same value.
    private mutating func updateRow(_ layout: EntityLayout, _ id: ObjectID, _ row: RowData, fields: FieldSet, version: Int64) throws -> Bool
    {
        var written = fields
        for (field, value) in row.values.enumerated() where value.isLong { written.insert(field) }
        let statement = try statement(StatementKey(kind: .update, entity: layout.name, fields: written), layout)
        var index: Int32 = 1
        for _ in written { index += 1 }
        statement.bind(.integer(version + 1), at: index)
        statement.bind(.integer(id.key), at: index + 1)
        statement.bind(.integer(version), at: index + 2)
        try execute(statement, binding: written.enumerated().lazy.map { ($0.element, Int32($0.offset + 1)) }, of: row)
        guard statement.changes == 1 else { return false }
        if layout.fullTextFields.contains(where: fields.contains) {
            try unindexText(layout, id)
            try indexText(layout, id, row)
        }
        return true
    }

    /// Deletes the row if it is still at `version`; false when it is not (or is gone).
    private mutating func deleteRow(_ layout: EntityLayout, _ id: ObjectID, version: Int64) throws -> Bool {
        let statement = try statement(StatementKey(kind: .delete, entity: layout.name, fields: FieldSet()), layout)
        statement.bind(.integer(id.key), at: 1)
        statement.bind(.integer(version), at: 2)
        try statement.execute()
        guard statement.changes == 1 else { return false }
        try unindexText(layout, id)
        return true
    }

    // MARK: - Full-text index

    /// Adds a row's text to its entity's full-text index, if it has one.
    private mutating func indexText(_ layout: EntityLayout, _ id: ObjectID, _ row: RowData) throws {
        guard !layout.fullTextFields.isEmpty else { return }
        let statement = try statement(StatementKey(kind: .indexText, entity: layout.name, fields: FieldSet()), layout)
        statement.bind(.integer(id.key), at: 1)
        for (offset, field) in layout.fullTextFields.enumerated() { bindField(statement, row, field, at: Int32(2 + offset)) }
        try statement.execute()
    }

    /// Removes a row from its entity's full-text index, if it has one.
    private mutating func unindexText(_ layout: EntityLayout, _ id: ObjectID) throws {
        guard !layout.fullTextFields.isEmpty else { return }
        let statement = try statement(StatementKey(kind: .unindexText, entity: layout.name, fields: FieldSet()), layout)
        statement.bind(.integer(id.key), at: 1)
        try statement.execute()
    }

    /// The rows other than `id` that hold one of `row`'s unique values (compared as the
    /// unique index compares: with the column's collation).
    private func rowsHoldingUniqueValues(_ layout: EntityLayout, of row: RowData, besides id: ObjectID) throws -> [ObjectID] {
        var holders: [ObjectID] = []
        for (field, attribute) in layout.attributes.enumerated() where attribute.isUnique && !row.values[field].isNull {
            let statement = try RawStatement(
                db, "SELECT \"id\" FROM \(layout.table) WHERE \(columnName(layout, field)) = ? AND \"id\" != ?")
            statement.bind(row.values[field], at: 1)
            statement.bind(.integer(id.key), at: 2)
            while try statement.step() {
                let holder = ObjectID(entityName: layout.name, key: statement.int64(0))
                if !holders.contains(holder) { holders.append(holder) }
            }
        }
        return holders
    }

    /// Deletes a row whatever its version, with its text.
    private mutating func deleteRow(_ layout: EntityLayout, _ id: ObjectID) throws {
        let statement = try RawStatement(db, "DELETE FROM \(layout.table) WHERE \"id\" = ?")
        statement.bind(.integer(id.key), at: 1)
        try statement.execute()
        try unindexText(layout, id)
    }

    private func diskRow(_ layout: EntityLayout, _ id: ObjectID) throws -> VersionedRow? {
        try PersistentStore.readRows(
            db, "SELECT \(store.selectList(layout)) FROM \(layout.table) WHERE \"id\" = ?",
            [.integer(id.key)], layout: layout
        ).first
    }
}
