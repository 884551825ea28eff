import Synchronization

/// A bulk find-or-create: rows of one entity, keyed by a unique attribute, that travel from a
/// context to the store as rows, never as managed objects.
///
/// It is the fast path for imports (Core Data's `NSBatchInsertRequest` with upsert semantics),
/// with the same unique-key semantics as ``ObjectContext/findOrCreate(_:key:keys:update:)``: a
/// row whose key is stored updates that object, a row whose key is new inserts one, and a key
/// repeated in the batch updates the same object again (last row wins).
///
/// Where it differs from the object path, by design:
/// - ``ObjectContext/upsert(_:)`` stages the rows in the context; ``ObjectContext/save()-89u7j``
///   carries them to the parent like other changes, and the root's save writes them to the
///   store **in the same transaction** as its objects and its store metadata (after the
///   objects). Until then no fetch sees them, and their IDs are not known:
///   ``BatchUpsertReceipt/result`` is filled in by the root's save.
/// - Every row describes a whole object: attributes the batch sets are written; on insert the
///   others take their defaults, on update they keep their values. Relationships are not set.
/// - The store writes each row whatever its row version (last writer wins), and bumps the
///   version, so a context holding one of these objects with unsaved changes meets a conflict
///   on its next save, resolved by its merge policy, as for a save made by another process.
/// - Contexts are told through the root's ``SaveNotification`` (IDs, and the rows for objects
///   they have registered); with ``ObjectContext/automaticallyMergesChangesFromParent`` their
///   registered objects take the new values. Nothing is materialised for the other rows.
/// - Undo: a keyed batch staged in a context whose undo manager records is undone as one
///   step: while it is staged, undo takes it out of the context (redo stages it again); once
///   written, undo deletes the objects it created and puts back, in the batch's columns, the
///   values it replaced (the store reads a stored row before it updates it), as changes of the
///   context that its next save writes; redo makes those changes again. Undone while a save
///   carries the batch, before the store has written it, there is nothing to undo yet. An
///   insert batch records no undo by itself: name what undo deletes with
///   ``ObjectUndoManager/registerDeletion(of:)`` (for a tree, its top; the cascade takes the
///   rest).
///
/// A batch made with ``init(inserting:model:)`` has no key: every row inserts a new object,
/// and rows may set to-one relationships, to a stored object or to an earlier row of the
/// same batch (``BatchReference``), so a whole tree goes to the store as rows. Its result
/// lists every row's new object in ``BatchUpsertResult/created``, in row order.
///
/// ```swift
/// var batch = try BatchUpsert(Pod.entityName, key: Pod.identifier, model: model)
/// for spec in specs {
///     batch.append { row in
///         row[Pod.identifier] = spec.identifier
///         row[Pod.summary] = spec.summary
///     }
/// }
/// let receipt = try await worker.perform { ctx in
///     let receipt = try ctx.upsert(batch)
///     try ctx.save()                       // into the root
///     return receipt
/// }
/// try await root.perform { try $0.save() } // to disk: receipt.result is set
/// ```
public struct BatchUpsert: Sendable {
    /// The entity of the rows.
    public let entityName: String
    let layout: EntityLayout
    /// The unique attribute that finds a stored object; nil for an insert batch.
    let keyField: Int?
    /// The attribute values of every row, row after row (`layout.attributes.count` each).
    private(set) var values: [StoreValue] = []
    /// The to-one relationships of every row of an insert batch, row after row
    /// (`layout.foreignKeys.count` each).
    private(set) var refs: [BatchReference?] = []
    /// Whether a row of a keyed batch set a relationship (refused when it is staged).
    private var keyedRowSetsReferences = false
    /// The temporary IDs handed out for rows (insert batches), by row index.
    private(set) var temporaryIDs: [Int: ObjectID] = [:]
    /// The attributes at least one row set: the columns an update writes.
    private(set) var columns = FieldSet()
    private var scratch: Row

    /// Makes an empty batch.
    ///
    /// - Parameters:
    ///   - entityName: The entity of the rows.
    ///   - key: The attribute that identifies an object; it must be declared unique.
    ///   - model: The model of the store the batch is for.
    /// - Throws: ``StoreError`` (`.invalidModel`) when the entity is not in the model or the
    ///   key is not one of its unique attributes.
    public init<Key: AttributeValue & Hashable>(_ entityName: String, key: Attribute<Key>, model: ObjectModel) throws {
        guard model.entity(named: entityName) != nil else {
            throw StoreError.invalidModel("A batch upsert names entity '\(entityName)', which the model does not have.")
        }
        let layout = model.layout(entityName)
        guard let keyField = layout.attributeIndex[key.name], layout.attributes[keyField].isUnique else {
            throw StoreError.invalidModel(
                "A batch upsert of '\(entityName)' must be keyed by a unique attribute; '\(key.name)' is not one. Declare it with `unique: true`."
            )
        }
        self.entityName = entityName
        self.layout = layout
        self.keyField = keyField
        self.scratch = Row(layout: layout)
    }

    /// Makes an empty insert batch: every row becomes a new object, and rows may set to-one
    /// relationships (``Row/subscript(_:)-(ToOne)``).
    ///
    /// ```swift
    /// var batch = try BatchUpsert(inserting: "Item", model: model)
    /// batch.append { row in row[Item.title] = "Work"; row[Item.parent] = .object(rootID) }
    /// batch.append { row in row[Item.title] = "Plans"; row[Item.parent] = .row(0) }
    /// ```
    ///
    /// - Throws: ``StoreError`` (`.invalidModel`) when the entity is not in the model.
    public init(inserting entityName: String, model: ObjectModel) throws {
        guard model.entity(named: entityName) != nil else {
            throw StoreError.invalidModel("A batch insert names entity '\(entityName)', which the model does not have.")
        }
        let layout = model.layout(entityName)
        self.entityName = entityName
        self.layout = layout
        self.keyField = nil
        self.scratch = Row(layout: layout)
    }

    /// Whether every row inserts a new object (the batch has no key).
    public var isInsertOnly: Bool { keyField == nil }
    /// The number of rows.
    public var count: Int { values.count / max(1, layout.attributes.count) }

    /// Whether the batch has no rows.
    public var isEmpty: Bool { values.isEmpty }

    /// Reserves room for `rows` rows.
    public mutating func reserveCapacity(_ rows: Int) {
        values.reserveCapacity(rows * layout.attributes.count)
        if isInsertOnly { refs.reserveCapacity(rows * layout.foreignKeys.count) }
    }

    /// Adds one row, filled in by `fill` (which must set the key of a keyed batch).
    public mutating func append(_ fill: (inout Row) throws -> Void) rethrows {
        scratch.reset()
        try fill(&scratch)
        values.append(contentsOf: scratch.values)
        columns.formUnion(scratch.setFields)
        if isInsertOnly {
            refs.append(contentsOf: scratch.refs)
        } else if scratch.setsReferences {
            keyedRowSetsReferences = true
        }
    }

    /// A temporary ID for the object that row `index` inserts: it names the object before
    /// the batch is written, and becomes permanent when the root's save writes it, as the ID
    /// of an inserted object does (contexts ``ObjectContext/resolve(_:)`` it). Undo can be
    /// recorded with it before the save (``ObjectUndoManager/registerDeletion(of:)``).
    ///
    /// - Precondition: an insert batch, and a row it holds.
    public mutating func temporaryID(ofRow index: Int) -> ObjectID {
        precondition(isInsertOnly, "only the rows of an insert batch have IDs before they are written")
        precondition(index >= 0 && index < count, "row \(index) is not in the batch of \(count) rows")
        if let id = temporaryIDs[index] { return id }
        let id = ObjectID.makeTemporary(entity: entityName)
        temporaryIDs[index] = id
        return id
    }

    /// The reference of row `index` of an insert batch in foreign key `fk`, if the row set one.
    func reference(row index: Int, foreignKey fk: Int) -> BatchReference? {
        refs[index * layout.foreignKeys.count + fk]
    }

    /// The attributes an existing object's row takes from the batch: those some row set,
    /// but the key.
    var updateColumns: [Int] { columns.filter { $0 != keyField } }

    /// The attribute values of row `index`.
    func row(_ index: Int) -> ArraySlice<StoreValue> {
        let width = layout.attributes.count
        return values[index * width..<(index + 1) * width]
    }

    /// Checks every row before anything is staged: the key set, required attributes not nil.
    func validate() throws {
        if let keyField {
            guard columns.contains(keyField) || isEmpty else {
                throw StoreError(
                    .validation,
                    "Could not upsert into '\(entityName)': no row sets the key '\(layout.attributes[keyField].name)'. Set it in every row."
                )
            }
            guard !keyedRowSetsReferences else {
                throw StoreError(
                    .validation,
                    "Could not upsert into '\(entityName)': a keyed batch cannot set relationships. Make an insert batch (`BatchUpsert(inserting:model:)`), or set them on the objects."
                )
            }
        }
        let width = layout.foreignKeys.count
        for (offset, reference) in refs.enumerated() {
            let (index, fk) = offset.quotientAndRemainder(dividingBy: width)
            let destination = layout.foreignKeys[fk].destination
            switch reference {
            case .none:
                continue
            case .row(let target):
                guard target >= 0, target < index, destination == entityName else {
                    throw StoreError(
                        .validation,
                        "Could not insert row \(index) of '\(entityName)': its '\(layout.foreignKeys[fk].name)' points at row \(target), which is not an earlier row of the batch\(destination == entityName ? "" : " (it leads to '\(destination)')"). A row may point at rows before it."
                    )
                }
            case .object(let id):
                guard id.entityName == destination else {
                    throw StoreError(
                        .validation,
                        "Could not insert row \(index) of '\(entityName)': its '\(layout.foreignKeys[fk].name)' points at \(id), not a '\(destination)'."
                    )
                }
            }
        }
        let required = layout.attributes.indices.filter { !layout.attributes[$0].isOptional }
        for index in 0..<count {
            let base = index * layout.attributes.count
            for field in required where values[base + field].isNull {
                throw StoreError(
                    .validation,
                    "Could not upsert row \(index) of '\(entityName)': required attribute '\(layout.attributes[field].name)' is nil. Set it in every row, or declare it optional."
                )
            }
        }
    }

    /// One row being filled in; attributes not set keep their defaults (on insert).
    public struct Row: Sendable {
        let layout: EntityLayout
        var values: [StoreValue]
        var setFields = FieldSet()
        var refs: [BatchReference?]
        var setsReferences = false

        init(layout: EntityLayout) {
            self.layout = layout
            self.values = layout.defaultRow.values
            self.refs = Array(repeating: nil, count: layout.foreignKeys.count)
        }

        mutating func reset() {
            setFields = FieldSet()
            for (index, value) in layout.defaultRow.values.enumerated() { values[index] = value }
            if setsReferences {
                for index in refs.indices { refs[index] = nil }
                setsReferences = false
            }
        }

        /// Sets (or reads back) a to-one relationship of the row: an object, or an earlier
        /// row of the batch. Insert batches only: a keyed batch with a relationship set is
        /// refused when it is staged.
        ///
        /// - Precondition: the relationship belongs to the batch's entity.
        public subscript(_ relationship: ToOne) -> BatchReference? {
            get { refs[foreignKey(of: relationship)] }
            set {
                refs[foreignKey(of: relationship)] = newValue
                setsReferences = true
            }
        }

        private func foreignKey(of relationship: ToOne) -> Int {
            guard case .foreignKey(let fk) = layout.relationship(named: relationship.name).storage else {
                preconditionFailure("'\(relationship.name)' is not a to-one relationship of '\(layout.name)'")
            }
            return fk
        }

        /// Sets (or reads back) an attribute of the row.
        ///
        /// - Precondition: the attribute belongs to the batch's entity.
        @inlinable
        public subscript<Value: AttributeValue>(_ attribute: Attribute<Value>) -> Value {
            // Inlinable so that a caller filling many rows converts its values without generic
            // dispatch; the row's storage stays behind the two calls below.
            get {
                let raw = storedValue(named: attribute.name)
                guard let value = Value.fromStoreValue(raw) else {
                    preconditionFailure(
                        "attribute '\(attribute.name)' of this row holds \(raw), not a \(Value.self); set it before reading")
                }
                return value
            }
            set { setStoredValue(newValue.storeValue, named: attribute.name) }
        }

        @usableFromInline
        func storedValue(named name: String) -> StoreValue {
            values[layout.attributeIndex(of: name)]
        }

        @usableFromInline
        mutating func setStoredValue(_ value: StoreValue, named name: String) {
            let field = layout.attributeIndex(of: name)
            values[field] = value
            setFields.insert(field)
        }
    }
}

/// Where a to-one relationship of a ``BatchUpsert`` row leads.
public enum BatchReference: Sendable, Hashable {
    /// An object: stored, or inserted in a context and saved with (or before) the batch.
    case object(ObjectID)
    /// The object of an earlier row of the same batch, by its index.
    case row(Int)
}

/// What the store did with a ``BatchUpsert``.
public struct BatchUpsertResult: Sendable, Hashable {
    /// Objects inserted for keys not stored before, in the order of their first row.
    public var created: [ObjectID] = []
    /// Objects that were stored and were updated, in the order of their first row.
    public var updated: [ObjectID] = []
    /// Objects that were stored with the very values of their rows, so were not written (nor
    /// their versions bumped), in the order of their first row.
    public var unchanged: [ObjectID] = []
}

/// Where the outcome of a staged ``BatchUpsert`` appears once the root context's save has
/// written it.
public final class BatchUpsertReceipt: Sendable {
    private let outcome = Locked<(result: BatchUpsertResult, replaced: [ObjectID: [StoreValue]])?>(nil)

    init() {}

    /// The created and updated objects, or nil while the rows are not written yet (still in a
    /// context, or the save that carried them failed).
    public var result: BatchUpsertResult? { outcome.withLock { $0?.result } }

    /// The result, and for each updated object the values its row held before in the batch's
    /// update columns (``BatchUpsert/updateColumns``).
    var written: (result: BatchUpsertResult, replaced: [ObjectID: [StoreValue]])? { outcome.withLock { $0 } }

    func fulfil(_ written: WrittenBatch) {
        outcome.withLock { $0 = (written.result, written.replaced) }
    }

    func fulfil(_ result: BatchUpsertResult) {
        outcome.withLock { $0 = (result, [:]) }
    }
}

/// A batch staged in a context, on its way to the store.
struct StagedBatch: Sendable {
    let batch: BatchUpsert
    let receipt: BatchUpsertReceipt
}

/// A batch as the store wrote it: for each row, the object it went to and that object's row
/// version afterwards.
struct WrittenBatch: Sendable {
    let batch: BatchUpsert
    let rowIDs: [Int64]
    let versions: [Int64]
    /// The rows that held the stored values already (not written).
    let unchangedRows: Set<Int>
    let result: BatchUpsertResult
    /// For each updated object, the values it held before in the batch's update columns.
    var replaced: [ObjectID: [StoreValue]] = [:]

    /// The object of row `index`.
    func id(ofRow index: Int) -> ObjectID {
        ObjectID(entityName: batch.entityName, key: rowIDs[index])
    }
}
