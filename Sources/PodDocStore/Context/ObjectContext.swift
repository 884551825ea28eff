import Dispatch
import Foundation
import Synchronization

/// A scratchpad of managed objects, confined to one queue: Core Data's
/// `NSManagedObjectContext`, for Linux and Swift 6.
///
/// Contexts form a stack. The *root* context is attached to a ``PersistentStore`` and is the
/// only one that writes to disk; a *child* context's `save()` pushes its changes one level
/// up, into its parent's memory. A typical stack is a private-queue root, a main context
/// (``ConcurrencyType/main``) for the user interface, and private worker contexts for
/// background work.
///
/// A context and its objects are used only on the context's queue: inside
/// ``perform(_:)`` / ``performAndWait(_:)``, or directly on the main actor for a main
/// context. Only ``ObjectID``s cross between contexts.
///
/// ```swift
/// let store = try PersistentStore(url: url, model: model)
/// let root = ObjectContext(store: store)
/// let main = ObjectContext(.main, parent: root)
/// let worker = ObjectContext(.privateQueue, parent: root)
/// try await worker.perform { ctx in
///     let item = ctx.insert("Item")
///     item[Item.title] = "Imported"
///     try ctx.save()           // into root, in memory
/// }
/// try await root.perform { try $0.save() }   // to disk
/// ```
public final class ObjectContext: @unchecked Sendable {
    // @unchecked Sendable: every mutable property below the "queue-confined state" mark is
    // read and written only on `queue`, which `preconditionOnQueue()` checks at each public
    // entry point; `links` (children and observers, reached from other threads) is behind a
    // lock (`Locked`).

    /// Where a context runs.
    public enum ConcurrencyType: Sendable {
        /// On the main queue / main actor.
        case main
        /// On a serial queue of its own.
        case privateQueue
    }

    enum Parent {
        case store(PersistentStore)
        case context(ObjectContext)
    }

    /// Where the context runs.
    public let concurrencyType: ConcurrencyType
    /// A name for logs and errors.
    public let name: String
    /// The store at the root of this context's stack.
    public let store: PersistentStore
    let parent: Parent
    let model: ObjectModel
    let queue: DispatchQueue
    private let queueToken: QueueToken
    let links = Locked(Links())

    // MARK: Queue-confined state

    /// The objects the context holds, by ID, and the old rows waiting to be freed.
    var registry = ObjectRegistry()
    /// Inserted, updated and deleted objects, counted by entity, indexed by foreign key.
    var changes: ChangeTracker
    /// Batch upserts not saved yet, in the order they were made.
    var stagedBatches = StagedBatches()
    /// Changes not yet announced to observers, and the observers.
    var pending = PendingChanges()
    /// Where the context's saves stand: change-set numbers, the save holding moved objects,
    /// recent saves whose objects may not have settled.
    var saveState = SaveState()
    /// How many `perform` blocks are running (nested); pending changes are announced when
    /// the outermost ends.
    private(set) var performDepth = 0
    /// The store's alias generation (`PersistentStore.aliasGeneration`) whose permanent IDs
    /// this context has adopted (``adoptPermanentIDs()``).
    private(set) var appliedAliasGeneration = 0
    // The settings' values, read without the queue check by the module's own code (which
    // runs on the queue already); set only through the public properties below, and the
    // undo manager also by ``withUndoRecordingSuspended(_:)``.
    private(set) var _mergePolicy: MergePolicy = .error
    private(set) var _undoManager: ObjectUndoManager?
    private(set) var _automaticallyMerges = false

    // MARK: - Making contexts

    /// Makes a root context attached to a store. Root contexts run on a private queue.
    ///
    /// - Parameters:
    ///   - store: The store the context reads and writes.
    ///   - name: A name for logs and errors.
    public init(store: PersistentStore, name: String = "root") {
        self.concurrencyType = .privateQueue
        self.name = name
        self.store = store
        self.parent = .store(store)
        self.model = store.model
        self.changes = ChangeTracker(entityCount: store.model.entities.count)
        self.queue = DispatchQueue(label: "poddoc.context.\(name)")
        self.queueToken = QueueToken()
        queue.setSpecific(key: QueueToken.key, value: queueToken)
    }

    /// Makes a child context whose saves go into `parent`.
    ///
    /// - Parameters:
    ///   - concurrencyType: `.main` for the context the user interface uses, `.privateQueue`
    ///     for background work.
    ///   - parent: The context that receives this context's saves.
    ///   - name: A name for logs and errors.
    public init(_ concurrencyType: ConcurrencyType, parent: ObjectContext, name: String? = nil) {
        self.concurrencyType = concurrencyType
        self.name = name ?? (concurrencyType == .main ? "main" : "worker")
        self.store = parent.store
        self.parent = .context(parent)
        self.model = parent.model
        self.changes = ChangeTracker(entityCount: parent.model.entities.count)
        switch concurrencyType {
        case .main:
            self.queue = .main
            self.queueToken = QueueToken.main
        case .privateQueue:
            self.queue = DispatchQueue(label: "poddoc.context.\(self.name)")
            self.queueToken = QueueToken()
            queue.setSpecific(key: QueueToken.key, value: queueToken)
        }
        parent.links.withLock { $0.children.append(WeakContext(self)) }
    }

    /// The context this one saves into, or nil for a root context.
    public var parentContext: ObjectContext? {
        if case .context(let p) = parent { return p }
        return nil
    }

    // MARK: - Running on the context's queue

    /// Runs `body` on the context's queue and returns its result.
    ///
    /// Pending changes are announced to observers when the outermost block ends.
    ///
    /// - Throws: whatever `body` throws.
    public func perform<T: Sendable, E: Error>(
        _ body: @escaping @Sendable (ObjectContext) throws(E) -> T
    ) async throws(E) -> T {
        let result: Result<T, E> = await withCheckedContinuation { continuation in
            queue.async {
                continuation.resume(returning: self.runBlock(body))
            }
        }
        return try result.get()
    }

    /// Runs `body` on the context's queue and waits for it. Reentrant: on the context's queue
    /// already, `body` runs at once.
    ///
    /// Never call it on a child from inside its parent's queue, nor on a main context from a
    /// queue the main thread is waiting for: that deadlocks, as it would in Core Data.
    ///
    /// - Throws: whatever `body` throws.
    public func performAndWait<T, E: Error>(_ body: (ObjectContext) throws(E) -> T) throws(E) -> T {
        if isOnQueue { return try runBlock(body).get() }
        return try queue.sync { runBlock(body) }.get()
    }

    private func runBlock<T, E: Error>(_ body: (ObjectContext) throws(E) -> T) -> Result<T, E> {
        performDepth += 1
        defer {
            performDepth -= 1
            if performDepth == 0 { processPendingChanges() }
        }
        return Result { () throws(E) -> T in try body(self) }
    }

    /// Whether the caller is running on this context's queue.
    public var isOnQueue: Bool {
        if DispatchQueue.getSpecific(key: QueueToken.key) === queueToken { return true }
        return concurrencyType == .main && Thread.isMainThread
    }

    /// Stops the program when called off the context's queue (confinement is not optional).
    func preconditionOnQueue(for object: ManagedObject? = nil, _ function: StaticString = #function) {
        guard isOnQueue else {
            let what = object.map { "\($0.objectID)" } ?? "context '\(name)'"
            preconditionFailure(
                "\(what) was used off its context's queue (in \(function)); use perform { } or pass ObjectIDs between contexts")
        }
        if store.aliasGeneration.load(ordering: .acquiring) != appliedAliasGeneration { adoptPermanentIDs() }
    }

    // MARK: - Settings

    /// How `save()` resolves conflicts with changes made elsewhere. Default: `.error`.
    public var mergePolicy: MergePolicy {
        get {
            preconditionOnQueue()
            return _mergePolicy
        }
        set {
            preconditionOnQueue()
            _mergePolicy = newValue
        }
    }

    /// The undo manager recording this context's changes, if any. Main contexts of a
    /// document have one; set it to nil to stop recording.
    public var undoManager: ObjectUndoManager? {
        get {
            preconditionOnQueue()
            return _undoManager
        }
        set {
            preconditionOnQueue()
            _undoManager?.context = nil
            _undoManager = newValue
            newValue?.context = self
        }
    }

    /// Whether saves of the parent (and of sibling contexts into it) are merged into this
    /// context automatically, on its queue. Default: false.
    public var automaticallyMergesChangesFromParent: Bool {
        get {
            preconditionOnQueue()
            return _automaticallyMerges
        }
        set {
            preconditionOnQueue()
            _automaticallyMerges = newValue
        }
    }

    /// Whether the context has unsaved changes (objects, or staged batch upserts).
    public var hasChanges: Bool {
        preconditionOnQueue()
        return !changes.isEmpty || !stagedBatches.isEmpty
    }

    /// The inserted objects not saved yet.
    public var insertedObjects: [ManagedObject] { objects(in: .inserted) }
    /// The changed objects not saved yet.
    public var updatedObjects: [ManagedObject] { objects(in: .updated) }
    /// The deleted objects whose delete is not saved yet.
    public var deletedObjects: [ManagedObject] { objects(in: .deleted) }

    private func objects(in state: ManagedObject.State) -> [ManagedObject] {
        preconditionOnQueue()
        return changes.all.filter { $0.state == state }.sorted { $0.objectID < $1.objectID }
    }

    /// Whether the context has unsaved changes to objects of an entity.
    func hasChanges(in layout: EntityLayout) -> Bool {
        changes.count(in: layout) > 0
    }

    /// The changed objects of an entity.
    func changedObjects(in layout: EntityLayout) -> [ManagedObject] {
        changes.objects(in: layout)
    }

    /// The objects the context holds in memory now.
    public var registeredObjectCount: Int {
        preconditionOnQueue()
        return registry.count
    }

    /// Runs `body` without recording undo steps (a parent applying a child's save: the
    /// child's undo manager records them).
    func withUndoRecordingSuspended<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        let undoManager = _undoManager
        _undoManager = nil
        defer { _undoManager = undoManager }
        return try body()
    }

    /// Gives every object registered under a temporary ID that became permanent its
    /// permanent ID, and makes the references in unsaved rows permanent. Runs at the first
    /// use of the context after a root save (checked in `preconditionOnQueue`), so a context
    /// never holds one object under two IDs.
    func adoptPermanentIDs() {
        appliedAliasGeneration = store.aliasGeneration.load(ordering: .acquiring)
        for temporary in registry.ids where temporary.isTemporary {
            let permanent = resolve(temporary)
            guard permanent != temporary, let object = registry[temporary] else { continue }
            let tracked = changes[temporary] != nil
            if tracked { untrackChange(object) }
            rename(object, to: permanent)
            if tracked { trackChange(object) }
        }
        for object in Array(changes.all) where object.current?.refs.contains(where: { $0?.isTemporary ?? false }) ?? false {
            untrackChange(object)
            object.current?.resolveRefs(resolve)
            trackChange(object)
        }
    }
}

// MARK: - Support types

/// Identifies a context's queue, so that `isOnQueue` is one lookup.
final class QueueToken: Sendable {
    static let key = DispatchSpecificKey<QueueToken>()
    /// The main queue's token, installed once.
    static let main: QueueToken = {
        let token = QueueToken()
        DispatchQueue.main.setSpecific(key: key, value: token)
        return token
    }()
}

struct WeakContext: Sendable {
    weak var context: ObjectContext?
    init(_ context: ObjectContext) { self.context = context }
}

/// Children and observers of a context, reached from any thread under a lock.
struct Links {
    var children: [WeakContext] = []
    var saveObservers: [UInt64: @Sendable (SaveNotification) -> Void] = [:]
    var nextObserverID: UInt64 = 0
}
