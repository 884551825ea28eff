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
/// - No undo is recorded, even in a context with an undo manager.
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
    let keyField: Int
    /// The attribute values of every row, row after row (`layout.attributes.count` each).
    private(set) var values: [StoreValue] = []
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

    /// The number of rows.
    public var count: Int { values.count / max(1, layout.attributes.count) }

    /// Whether the batch has no rows.
    public var isEmpty: Bool { values.isEmpty }

    /// Reserves room for `rows` rows.
    public mutating func reserveCapacity(_ rows: Int) {
        values.reserveCapacity(rows * layout.attributes.count)
    }

    /// Adds one row, filled in by `fill` (which must set the key).
    public mutating func append(_ fill: (inout Row) throws -> Void) rethrows {
        scratch.reset()
        try fill(&scratch)
        values.append(contentsOf: scratch.values)
        columns.formUnion(scratch.setFields)
    }

    /// The attribute values of row `index`.
    func row(_ index: Int) -> ArraySlice<StoreValue> {
        let width = layout.attributes.count
        return values[index * width..<(index + 1) * width]
    }

    /// Checks every row before anything is staged: the key set, required attributes not nil.
    func validate() throws {
        guard columns.contains(keyField) || isEmpty else {
            throw StoreError(
                .validation,
                "Could not upsert into '\(entityName)': no row sets the key '\(layout.attributes[keyField].name)'. Set it in every row.")
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

        init(layout: EntityLayout) {
            self.layout = layout
            self.values = layout.defaultRow.values
        }

        mutating func reset() {
            setFields = FieldSet()
            for (index, value) in layout.defaultRow.values.enumerated() { values[index] = value }
        }

        /// Sets (or reads back) an attribute of the row.
        ///
        /// - Precondition: the attribute belongs to the batch's entity.
        public subscript<Value: AttributeValue>(_ attribute: Attribute<Value>) -> Value {
            get {
                let raw = values[layout.attributeIndex(of: attribute.name)]
                guard let value = Value.fromStoreValue(raw) else {
                    preconditionFailure(
                        "attribute '\(attribute.name)' of this row holds \(raw), not a \(Value.self); set it before reading")
                }
                return value
            }
            set {
                let field = layout.attributeIndex(of: attribute.name)
                values[field] = newValue.storeValue
                setFields.insert(field)
            }
        }
    }
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
    private let outcome = Locked<BatchUpsertResult?>(nil)

    init() {}

    /// The created and updated objects, or nil while the rows are not written yet (still in a
    /// context, or the save that carried them failed).
    public var result: BatchUpsertResult? { outcome.withLock { $0 } }

    func fulfil(_ result: BatchUpsertResult) {
        outcome.withLock { $0 = result }
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

    /// The object of row `index`.
    func id(ofRow index: Int) -> ObjectID {
        ObjectID(entityName: batch.entityName, key: rowIDs[index])
    }
}
