import GRDB

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
            throw StoreError(.readOnly, "\(url?.path ?? "The store") was opened read-only; its changes cannot be saved. Save a copy elsewhere instead.")
        }
        var outcome = PushOutcome()
        do {
            try database.writeWithoutTransaction { db in
                try db.inTransaction(.immediate) {
                    var writer = StoreWriter(store: self, db: db, changes: changes)
                    outcome = try writer.run()
                    return .commit
                }
            }
        } catch let error as StoreError {
            throw error
        } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT {
            throw StoreError(.validation, "Could not save: \(error.message ?? "a constraint failed"). A relationship probably points at an object deleted elsewhere; refresh and try again.", cause: error)
        } catch {
            throw StoreError.sqlite(error, while: "saving")
        }
        if !outcome.permanentIDs.isEmpty {
            aliases.withLock { aliases in
                for (temporary, permanent) in outcome.permanentIDs { aliases[temporary] = permanent }
            }
            aliasGeneration.add(1, ordering: .releasing)
        }
        return outcome
    }
}

/// One save's worth of SQL, inside the transaction.
private struct StoreWriter {
    let store: PersistentStore
    let db: Database
    let changes: ChangeSet
    var assigned: [ObjectID: ObjectID] = [:]
    var outcome = PushOutcome()
    var conflicts: [MergeConflict] = []

    init(store: PersistentStore, db: Database, changes: ChangeSet) {
        self.store = store
        self.db = db
        self.changes = changes
    }

    mutating func run() throws -> PushOutcome {
        try assignPermanentIDs()
        for object in changes.deleted { try delete(object) }
        for object in changes.updated { try update(object) }
        for object in changes.inserted { try insert(object) }
        if !conflicts.isEmpty { throw StoreError.mergeConflict(conflicts) }
        outcome.permanentIDs = assigned
        return outcome
    }

    // MARK: - IDs

    private mutating func assignPermanentIDs() throws {
        let byEntity = Dictionary(grouping: changes.inserted, by: \.id.entityName)
        for (entity, objects) in byEntity {
            let layout = store.model.layout(entity)
            let sequence = try RawStatement(db, "SELECT last FROM _poddoc_sequence WHERE entity = ?")
            sequence.bind(.text(entity), at: 1)
            var last = try sequence.step() ? sequence.int64(0) : 0
            sequence.reset()
            let maximum = try RawStatement(db, "SELECT max(\"id\") FROM \(layout.table)")
            if try maximum.step() { last = max(last, maximum.int64(0)) }
            maximum.reset()
            for object in objects.sorted(by: { $0.id < $1.id }) {
                if object.id.isTemporary {
                    last += 1
                    assigned[object.id] = ObjectID(entityName: entity, key: last)
                } else {
                    last = max(last, object.id.key)
                }
            }
            let update = try RawStatement(db, "INSERT INTO _poddoc_sequence (entity, last) VALUES (?, ?) ON CONFLICT(entity) DO UPDATE SET last = excluded.last")
            update.bind(.text(entity), at: 1)
            update.bind(.integer(last), at: 2)
            try update.execute()
        }
    }

    private func permanent(_ id: ObjectID) -> ObjectID {
        assigned[id] ?? store.resolve(id)
    }

    /// The row with every reference permanent.
    private func resolved(_ row: RowData, of id: ObjectID) throws -> RowData {
        var row = row
        row.resolveRefs(permanent)
        if let dangling = row.refs.first(where: { $0?.isTemporary ?? false }) {
            throw StoreError(.validation, "Could not save \(permanent(id)): it points at \(dangling!), an object that was never saved (inserted in another context?). Save that context first.")
        }
        return row
    }

    // MARK: - Statements

    private mutating func delete(_ object: PushedObject) throws {
        let layout = store.model.layout(object.id.entityName)
        let id = permanent(object.id)
        if try deleteRow(layout, id, version: object.snapshotVersion) { return }
        guard let disk = try diskRow(layout, id) else { return }   // deleted elsewhere too
        let snapshot = try resolved(object.snapshot ?? object.row, of: object.id)
        let conflicting = disk.row.differingFields(from: snapshot)
        if conflicting.isEmpty {
            _ = try deleteRow(layout, id, version: disk.version)
        } else if changes.policy == .error {
            conflicts.append(MergeConflict(objectID: id, kind: .changedElsewhereWhileDeleted,
                                           properties: conflicting.map(layout.fieldName), foundIn: "store"))
        } else if changes.policy.oursSurvives {
            _ = try deleteRow(layout, id, version: disk.version)
        } else {
            outcome.undeleted[object.id] = disk
        }
    }

    private mutating func update(_ object: PushedObject) throws {
        let layout = store.model.layout(object.id.entityName)
        let id = permanent(object.id)
        let row = try resolved(object.row, of: object.id)
        if try updateRow(layout, id, row, fields: object.changedFields, version: object.snapshotVersion) {
            outcome.rows[object.id] = VersionedRow(id: id, row: row, version: object.snapshotVersion + 1)
            return
        }
        guard let disk = try diskRow(layout, id) else {
            if changes.policy == .error {
                conflicts.append(MergeConflict(objectID: id, kind: .deletedElsewhere, properties: [], foundIn: "store"))
            } else if changes.policy.oursSurvives {
                try insertRow(layout, id, row, version: object.snapshotVersion + 1)
                outcome.rows[object.id] = VersionedRow(id: id, row: row, version: object.snapshotVersion + 1)
            } else {
                outcome.removed.insert(object.id)
            }
            return
        }
        let snapshot = try resolved(object.snapshot ?? object.row, of: object.id)
        let conflicting = disk.row.differingFields(from: snapshot)
        var result = disk.row
        if conflicting.isEmpty {
            result.copyFields(object.changedFields, from: row)
        } else if changes.policy == .error {
            conflicts.append(MergeConflict(objectID: id, kind: .changedElsewhere,
                                           properties: conflicting.map(layout.fieldName), foundIn: "store"))
            return
        } else {
            result = changes.policy.resolve(ours: row, changed: object.changedFields, theirs: disk.row, conflicting: conflicting)
        }
        let all = FieldSet(0..<layout.fieldCount)
        guard try updateRow(layout, id, result, fields: all, version: disk.version) else {
            throw StoreError(.sqlite, "\(id) changed again while its conflict was being resolved; save again.")
        }
        outcome.rows[object.id] = VersionedRow(id: id, row: result, version: disk.version + 1)
    }

    private mutating func insert(_ object: PushedObject) throws {
        let layout = store.model.layout(object.id.entityName)
        let id = permanent(object.id)
        let row = try resolved(object.row, of: object.id)
        try insertRow(layout, id, row, version: 1)
        outcome.rows[object.id] = VersionedRow(id: id, row: row, version: 1)
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

    private func insertRow(_ layout: EntityLayout, _ id: ObjectID, _ row: RowData, version: Int64) throws {
        let count = layout.fieldCount
        let columns = (0..<count).map { columnName(layout, $0) }
        let sql = "INSERT INTO \(layout.table) (\"id\", \"_version\"\(columns.map { ", " + $0 }.joined())) VALUES (?, ?\(String(repeating: ", ?", count: count)))"
        let statement = try RawStatement(db, sql)
        statement.bind(.integer(id.key), at: 1)
        statement.bind(.integer(version), at: 2)
        for field in 0..<count { bindField(statement, row, field, at: Int32(3 + field)) }
        try statement.execute()
    }

    /// Updates `fields` if the row is still at `version`; false when it is not.
    private func updateRow(_ layout: EntityLayout, _ id: ObjectID, _ row: RowData, fields: FieldSet, version: Int64) throws -> Bool {
        let fieldList = Array(fields)
        let assignments = fieldList.map { "\(columnName(layout, $0)) = ?" } + ["\"_version\" = ?"]
        let sql = "UPDATE \(layout.table) SET \(assignments.joined(separator: ", ")) WHERE \"id\" = ? AND \"_version\" = ?"
        let statement = try RawStatement(db, sql)
        for (offset, field) in fieldList.enumerated() { bindField(statement, row, field, at: Int32(1 + offset)) }
        let next = Int32(fieldList.count + 1)
        statement.bind(.integer(version + 1), at: next)
        statement.bind(.integer(id.key), at: next + 1)
        statement.bind(.integer(version), at: next + 2)
        try statement.execute()
        return statement.changes == 1
    }

    /// Deletes the row if it is still at `version`; false when it is not (or is gone).
    private func deleteRow(_ layout: EntityLayout, _ id: ObjectID, version: Int64) throws -> Bool {
        let statement = try RawStatement(db, "DELETE FROM \(layout.table) WHERE \"id\" = ? AND \"_version\" = ?")
        statement.bind(.integer(id.key), at: 1)
        statement.bind(.integer(version), at: 2)
        try statement.execute()
        return statement.changes == 1
    }

    private func diskRow(_ layout: EntityLayout, _ id: ObjectID) throws -> VersionedRow? {
        try store.readRows(db, "SELECT \(store.selectList(layout)) FROM \(layout.table) WHERE \"id\" = ?",
                           [.integer(id.key)], layout: layout).first
    }
}
