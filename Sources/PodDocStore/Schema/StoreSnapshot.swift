internal import GRDB

// MARK: - Reading many rows in one consistent state

extension PersistentStore {
    /// Runs `body` with a snapshot of the saved store: every read through it sees the same
    /// committed state, however long `body` takes (saves of root contexts wait until it
    /// returns). For reads that stream many rows without making objects: exports, catalogs,
    /// reports.
    ///
    /// ```swift
    /// try store.readSnapshot { snapshot in
    ///     let pods = try snapshot.rows(FetchRequest("Pod", sortBy: [FetchSort(Pod.name)]))
    ///     while let pod = try pods.next() {
    ///         print(pod[Pod.name])
    ///     }
    /// }
    /// ```
    ///
    /// The snapshot is valid only inside `body`; do not keep it.
    ///
    /// - Throws: ``StoreError`` when SQLite fails; an error `body` throws comes out unchanged.
    public func readSnapshot<T>(_ body: (StoreSnapshot) throws -> T) throws -> T {
        var result: Result<T, any Error>?
        do {
            try database.read { db in
                result = Result { try body(StoreSnapshot(db, model: model, resolve: resolve)) }
            }
        } catch {
            throw StoreError.sqlite(error, while: "reading")
        }
        guard let result else { preconditionFailure("a read transaction returned without running its body") }
        return try result.get()
    }
}

/// A consistent view of the saved store, valid inside ``PersistentStore/readSnapshot(_:)``.
///
/// It reads rows as ``StoredRow`` values (no objects, no context), in the order of a
/// ``FetchRequest``, streaming: memory stays flat however many rows there are.
public struct StoreSnapshot {
    private let db: Database
    private let model: ObjectModel
    private let resolve: (ObjectID) -> ObjectID

    fileprivate init(_ db: Database, model: ObjectModel, resolve: @escaping (ObjectID) -> ObjectID) {
        self.db = db
        self.model = model
        self.resolve = resolve
    }

    /// The number of saved objects `request` matches (after its offset and limit).
    ///
    /// - Throws: ``StoreError`` when SQLite fails.
    public func count(_ request: FetchRequest) throws -> Int {
        let query = Query(request, model: model)
        return try reading(query.layout) { try PersistentStore.count(query, in: db, resolve: resolve) }
    }

    /// The IDs of the saved objects `request` matches, in its order.
    ///
    /// - Throws: ``StoreError`` when SQLite fails.
    public func objectIDs(_ request: FetchRequest) throws -> [ObjectID] {
        let query = Query(request, model: model)
        return try reading(query.layout) { try PersistentStore.fetchIDs(query, in: db, resolve: resolve) }
    }

    /// The saved rows `request` matches, in its order, read one at a time as the cursor
    /// advances: memory stays flat however many rows there are.
    ///
    /// - Parameters:
    ///   - request: Which rows, in which order.
    ///   - attributes: The attributes to read (nil: all); reading fewer skips long texts a
    ///     walk does not need. A row's other attributes read as if NULL.
    /// - Throws: ``StoreError`` when SQLite cannot prepare the query.
    public func rows(_ request: FetchRequest, reading attributes: [String]? = nil) throws -> StoredRowCursor {
        let query = Query(request, model: model)
        var arguments: [StoreValue] = []
        let fields = attributes.map { Set($0.map(query.layout.attributeIndex(of:))) }
        let sql =
            "SELECT \(PersistentStore.selectList(query.layout, reading: fields)) FROM \(query.layout.table)"
            + PersistentStore.clauses(query, &arguments, resolve: resolve)
        return try reading(query.layout) {
            try StoredRowCursor(db.makeStatement(sql: sql), in: db, arguments: arguments, layout: query.layout)
        }
    }

    /// The saved rows of these objects, in the order given; objects that do not exist (or
    /// were never saved) are left out. All must be of one entity.
    ///
    /// - Throws: ``StoreError`` when SQLite fails.
    public func rows(of ids: [ObjectID]) throws -> [StoredRow] {
        guard let entity = ids.first?.entityName else { return [] }
        precondition(ids.allSatisfy { $0.entityName == entity }, "rows(of:) reads objects of one entity")
        let layout = model.layout(entity)
        let keys = ids.compactMap { resolve($0).rowID }
        let rows = try reading(layout) { try PersistentStore.rows(withRowIDs: keys, layout: layout, in: db) }
        let found = Dictionary(rows.map { ($0.id.key, StoredRow($0, layout: layout)) }, uniquingKeysWith: { first, _ in first })
        return keys.compactMap { found[$0] }
    }

    private func reading<T>(_ layout: EntityLayout, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch {
            throw StoreError.sqlite(error, while: "reading \(layout.name)")
        }
    }
}

/// The rows of ``StoreSnapshot/rows(_:reading:)``, read as ``next()`` is called; valid inside
/// the snapshot's ``PersistentStore/readSnapshot(_:)`` only.
public final class StoredRowCursor {
    /// Owned here (not from GRDB's statement cache), so that two walks never share one.
    private let statement: Statement
    private let raw: RawStatement
    private let layout: EntityLayout
    private var isFinished = false

    fileprivate init(_ statement: Statement, in db: Database, arguments: [StoreValue], layout: EntityLayout) {
        self.statement = statement
        raw = RawStatement(statement, in: db)
        raw.bind(arguments, startingAt: 1)
        self.layout = layout
    }

    /// The next row, or nil after the last.
    ///
    /// - Throws: ``StoreError`` when SQLite fails (a damaged page, say).
    public func next() throws -> StoredRow? {
        guard !isFinished else { return nil }
        do {
            if try raw.step() { return StoredRow(PersistentStore.versionedRow(raw, layout: layout), layout: layout) }
        } catch {
            isFinished = true
            throw StoreError.sqlite(error, while: "reading \(layout.name)")
        }
        isFinished = true
        raw.reset()
        return nil
    }
}

/// One saved row read through a ``StoreSnapshot``: the object's ID and its attribute values.
public struct StoredRow: Sendable {
    /// The object the row holds.
    public let objectID: ObjectID
    private let values: RowData
    private let layout: EntityLayout

    fileprivate init(_ row: VersionedRow, layout: EntityLayout) {
        objectID = row.id
        values = row.row
        self.layout = layout
    }

    /// The destination of a to-one relationship that this entity holds the key of; nil for
    /// none.
    ///
    /// - Precondition: the relationship is one of the entity's to-one relationships.
    public subscript(_ key: ToOne) -> ObjectID? {
        guard let index = layout.foreignKeyIndex[key.name] else {
            preconditionFailure("\(layout.name) holds no key of a relationship '\(key.name)'")
        }
        return values.refs[index]
    }

    /// The names of the attributes whose values differ from `other`'s, and of the to-one
    /// relationships whose destinations do (by row id: the rows may come from two copies of
    /// one store), in the model's order.
    ///
    /// - Precondition: both rows are of the same entity.
    public func differingProperties(from other: StoredRow) -> [String] {
        precondition(layout.name == other.layout.name, "rows of \(layout.name) and \(other.layout.name) do not compare")
        var names: [String] = []
        for (index, attribute) in layout.attributes.enumerated() where values.values[index] != other.values.values[index] {
            names.append(attribute.name)
        }
        for (index, key) in layout.foreignKeys.enumerated() where values.refs[index]?.rowID != other.values.refs[index]?.rowID {
            names.append(key.name)
        }
        return names
    }

    /// For each attribute and to-one relationship not in `skipped`, in the order
    /// ``differingProperties(from:)`` names them: its name and a hash of its value (for a
    /// relationship, of its destination's row id). A compact stand-in for the row where only
    /// whether properties differ matters (two rows' hashes differ when their values do; equal
    /// hashes mean equal values but for a 64-bit collision). Hashes hold within one run.
    public func propertyHashes(skipping skipped: Set<String>) -> [(name: String, hash: Int)] {
        var hashes: [(name: String, hash: Int)] = []
        for (index, attribute) in layout.attributes.enumerated() where !skipped.contains(attribute.name) {
            hashes.append((attribute.name, values.values[index].hashValue))
        }
        for (index, key) in layout.foreignKeys.enumerated() where !skipped.contains(key.name) {
            hashes.append((key.name, values.refs[index]?.rowID.hashValue ?? Int64?.none.hashValue))
        }
        return hashes
    }

    /// The stored value of the attribute named `name`, whatever its type: for tools that read
    /// any model (exports, generic listings).
    ///
    /// - Precondition: the entity has the attribute.
    public func value(ofAttribute name: String) -> StoreValue {
        values.values[layout.attributeIndex(of: name)]
    }

    /// The destination of the to-one relationship named `name` that this entity holds the
    /// key of (nil for none), whatever the model: for tools that read any model.
    ///
    /// - Precondition: the entity holds the key of the relationship.
    public func destination(ofRelationship name: String) -> ObjectID? {
        guard let index = layout.foreignKeyIndex[name] else {
            preconditionFailure("\(layout.name) holds no key of a relationship '\(name)'")
        }
        return values.refs[index]
    }

    /// The names of the to-one relationships whose keys the row holds, in the model's order.
    public var heldRelationships: [String] { layout.foreignKeys.map(\.name) }

    /// The value of a typed attribute, as ``ManagedObject`` reads it.
    ///
    /// - Precondition: the stored value is of the attribute's type (the schema enforces it).
    public subscript<Value: AttributeValue>(_ key: Attribute<Value>) -> Value {
        let raw = values.values[layout.attributeIndex(of: key.name)]
        guard let value = Value.fromStoreValue(raw) else {
            preconditionFailure("\(objectID): attribute '\(key.name)' holds \(raw), not a \(Value.self)")
        }
        return value
    }
}
