/// An object of the graph, living in exactly one context.
///
/// A managed object is confined to its context's queue: read and write it only inside that
/// context's ``ObjectContext/perform(_:)`` (or on the main actor for a main context).
/// Touching it anywhere else stops the program with a message naming the object.
/// Pass ``objectID`` to other contexts instead.
///
/// An object fetched or looked up by ID starts as a *fault*: its values are read from the
/// parent the first time one is needed.
///
/// ```swift
/// let item = context.insert("Item")
/// item[Item.title] = "Groceries"
/// item[Item.parent] = inbox
/// ```
public final class ManagedObject {
    enum State: UInt8 { case clean, inserted, updated, deleted }

    // The stored properties a save reads and writes come first, so that each object it
    // visits costs as few cache lines as possible.

    /// The save whose change set holds this object's unsaved row, and the object's place in
    /// it (see ``PushFlight``); nil when the object holds its own state. Set only by
    /// ``moveUnsavedState(into:append:)`` and cleared only by ``land()``.
    private(set) var flight: PushFlight?
    private var flightIndex = 0
    /// The number of the context's last change set that carried this object (see
    /// ``ObjectContext/isBeingPushed(_:)``).
    var pushNumber: UInt64 = 0
    // The object's own copies of its state. While a save carries the object (``flight``),
    // its unsaved row, snapshot and changed fields live in the save's change set instead,
    // and the accessors below bring them back (``land()``) before anyone reads or writes them.
    // Only this file touches them, so no read or write can skip that step.
    private var _state: State = .clean
    private var _current: RowData?
    private var _snapshot: RowData?
    private var _snapshotVersion: Int64 = 0
    private var _changedFields = FieldSet()
    /// The object's identity; temporary until the root context saves it.
    public internal(set) var objectID: ObjectID
    /// In a parent context: the child whose push set `current` last, with the push's number
    /// and the object's place in it; nil once anything else changed it. A root save tells
    /// that child which of its rows it wrote as pushed, so the child need not merge them.
    var origin: PushOrigin?
    let layout: EntityLayout
    /// The context the object belongs to; nil once that context is gone.
    public internal(set) weak var context: ObjectContext?
    /// The context's pending-changes generation in which this object was last announced.
    var announced: UInt64 = 0
    /// Counts the object's edits, so a save that ran while the object was edited again does
    /// not mark the newer edits saved.
    var edits: UInt64 = 0

    init(id: ObjectID, layout: EntityLayout, context: ObjectContext) {
        self.objectID = id
        self.layout = layout
        self.context = context
    }

    /// The entity name.
    public var entityName: String { layout.name }

    /// The row as read from the parent (nil while a fault, and for inserted objects).
    var snapshot: RowData? {
        get {
            if flight != nil { land() }
            return _snapshot
        }
        set {
            if flight != nil { land() }
            _snapshot = newValue
        }
    }
    /// The store version `snapshot` was read at (0: never saved).
    var snapshotVersion: Int64 {
        get {
            if flight != nil { land() }
            return _snapshotVersion
        }
        set {
            if flight != nil { land() }
            _snapshotVersion = newValue
        }
    }
    /// The row with this context's changes (nil when unchanged). Setting it forgets the
    /// push that set it (``origin``).
    var current: RowData? {
        get {
            if flight != nil { land() }
            return _current
        }
        set {
            if flight != nil { land() }
            _current = newValue
            origin = nil
        }
    }
    /// Fields changed in this context since the last save.
    var changedFields: FieldSet {
        get {
            if flight != nil { land() }
            return _changedFields
        }
        set {
            if flight != nil { land() }
            _changedFields = newValue
        }
    }
    var state: State {
        get {
            if flight != nil { land() }
            return _state
        }
        set {
            if flight != nil { land() }
            _state = newValue
        }
    }

    /// Whether the object was inserted in its context and not saved yet.
    public var isInserted: Bool { state == .inserted }
    /// Whether the object has unsaved attribute or relationship changes.
    public var isUpdated: Bool { state == .updated }
    /// Whether the object was deleted in its context and the delete is not saved yet.
    public var isDeleted: Bool { state == .deleted }
    /// Whether the object's values have not been read yet.
    public var isFault: Bool { snapshot == nil && current == nil }
    /// Whether the object has any unsaved change.
    public var hasChanges: Bool { state != .clean }

    /// The row as this context sees it now (values fetched on demand).
    var row: RowData {
        if let current { return current }
        if let snapshot { return snapshot }
        return context!.fulfillFault(self)
    }
}

// MARK: - Riding a save

extension ManagedObject {
    /// Moves an updated object's unsaved row, snapshot and changed fields into a save's
    /// change set, without copying them (see ``PushFlight``): `append` adds the pushed state
    /// to the change set and returns its place there, and the object points at `flight` until
    /// it lands. False, with nothing moved, when the object is not an update with an unsaved
    /// row.
    ///
    /// - Precondition: the object holds its own state (it is not riding another save).
    func moveUnsavedState(into flight: PushFlight, append: (PushedObject) -> Int) -> Bool {
        precondition(self.flight == nil, "an object rides one save at a time")
        guard _state == .updated, _current != nil else { return false }
        var row: RowData?
        var snapshot: RowData?
        swap(&row, &_current)
        swap(&snapshot, &_snapshot)
        flightIndex = append(
            PushedObject(id: objectID, row: row!, changedFields: _changedFields, snapshot: snapshot, snapshotVersion: _snapshotVersion))
        self.flight = flight
        return true
    }

    /// Brings the object's state back from the save that carries it: settled (clean, with
    /// the pushed row as its snapshot) when the save finished, or as it was pushed while the
    /// save still runs (the save then settles it itself).
    func land() {
        guard let flight else { return }
        self.flight = nil
        switch flight.landing(of: self, at: flightIndex) {
        case .stillPushing(let pushed):
            _current = pushed.row
            _snapshot = pushed.snapshot
            _changedFields = pushed.changedFields
            return
        case .saved(let row, let version):
            _snapshot = row
            _snapshotVersion = version
            _state = .clean
        case .deletedInParent:
            _snapshot = nil
            _state = .deleted
        }
        // Settled: nothing unsaved is left.
        _current = nil
        _changedFields = FieldSet()
        origin = nil
    }
}

// MARK: - Attributes

extension ManagedObject {
    /// Reads or writes an attribute through its typed key.
    ///
    /// - Precondition: the attribute belongs to the object's entity; a non-optional attribute
    ///   is not nil when read (declare it optional, or give it a default).
    public subscript<Value: AttributeValue>(_ key: Attribute<Value>) -> Value {
        get {
            let raw = value(forKey: key.name)
            guard let value = Value.fromStoreValue(raw) else {
                preconditionFailure(
                    "\(objectID): attribute '\(key.name)' holds \(raw), not a \(Value.self); declare it optional or set it before reading")
            }
            return value
        }
        set {
            setValue(newValue.storeValue, forKey: key.name)
        }
    }

    /// Reads an attribute by name, as the store holds it.
    ///
    /// - Precondition: the entity has this attribute.
    public func value(forKey key: String) -> StoreValue {
        let context = checkedContext()
        return context.readAttribute(self, layout.attributeIndex(of: key))
    }

    /// Writes an attribute by name.
    ///
    /// - Precondition: the entity has this attribute, and the value is of its type (or NULL).
    public func setValue(_ value: StoreValue, forKey key: String) {
        let context = checkedContext()
        let index = layout.attributeIndex(of: key)
        let attribute = layout.attributes[index]
        precondition(
            value.isNull || ManagedObject.fits(value, attribute.type),
            "\(objectID): \(value) is not a valid \(attribute.type) for '\(key)'")
        context.writeField(self, index, .value(value))
    }

    /// The names of the attributes and relationships changed since the last save.
    public var changedKeys: Set<String> {
        _ = checkedContext()
        return Set(changedFields.map { layout.fieldName($0) })
    }

    static func fits(_ value: StoreValue, _ type: AttributeType) -> Bool {
        switch (value, type) {
        case (.text, .string), (.text, .json), (.integer, .integer), (.integer, .bool),
            (.real, .double), (.integer, .double), (.real, .date), (.integer, .date), (.blob, .data):
            return true
        default:
            return false
        }
    }

    /// The context, after checking (in debug builds) that the caller runs on its queue.
    ///
    /// Attribute access is the hottest path of an import, so the queue check runs in debug
    /// builds only; context operations (insert, fetch, save, delete…) check in every build.
    func checkedContext() -> ObjectContext {
        guard let context else {
            preconditionFailure("\(objectID) was used after its context was deallocated")
        }
        assert(context.isOnQueue, "\(objectID) was used off its context's queue; use perform { } or pass ObjectIDs between contexts")
        return context
    }
}

// MARK: - Relationships

extension ManagedObject {
    /// Reads or writes a to-one relationship; the inverse follows automatically.
    public subscript(_ key: ToOne) -> ManagedObject? {
        get {
            let context = checkedContext()
            return context.destination(of: self, key.name)
        }
        set {
            let context = checkedContext()
            context.setDestination(of: self, key.name, to: newValue)
        }
    }

    /// Reads or replaces a to-many relationship (the destinations whose inverse points here).
    ///
    /// Replacing sets the inverse of each new destination to this object and clears it on
    /// destinations no longer in the list. The order of the result is by object ID; keep an
    /// order attribute when order matters.
    public subscript(_ key: ToMany) -> [ManagedObject] {
        get {
            let context = checkedContext()
            return context.destinations(of: self, key.name)
        }
        set {
            let context = checkedContext()
            context.setDestinations(of: self, key.name, to: newValue)
        }
    }

    /// The ID of a to-one destination without fetching it.
    public func destinationID(_ key: ToOne) -> ObjectID? {
        let context = checkedContext()
        return context.destinationID(of: self, key.name)
    }
}

// MARK: - CustomStringConvertible

extension ManagedObject: CustomStringConvertible {
    public var description: String {
        "<\(objectID) \(state)\(isFault ? " fault" : "")>"
    }
}
