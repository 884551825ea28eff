import Foundation
public import PodDocFileSystem
public import PodDocStore

/// A managed document: UIManagedDocument for Linux.
///
/// The document owns the store, the private-queue **root** context attached to it, the
/// **main** context (main actor, child of root) with its undo manager, and hands out worker
/// contexts. It saves in one order, every time (autosave included): main → root in memory;
/// additional content staged; root → SQLite on the root's queue, recording the additional
/// content and a save number in the same transaction; additional content moved into place;
/// metadata; for an archive document, the archive re-packed. No disk work runs on the main
/// actor.
///
/// ```swift
/// let document = try await ManagedDocument.create(at: url, kind: .outline, model: model)
/// let item = document.mainContext.insert("Item")
/// try await document.save()
/// try await document.close()
/// ```
@MainActor
public final class ManagedDocument {
    /// How a document is opened.
    public struct OpenOptions: Sendable {
        /// Open without writing anything (no editing lock is taken; editing disabled).
        public var readOnly = false
        /// With `readOnly`: how the read shares a package with editors.
        public var readSharing: ReadSharing = .alongsideEditors
        /// Autosave this often while there are unsaved changes; nil turns autosave off.
        public var autosaveInterval: Duration? = .seconds(15)
        /// What to do with a working copy holding unsaved work.
        public var recovery: RecoveryChoice = .ask
        /// Treat the store as coming from elsewhere (integrity check first). Default: yes for
        /// archives, no for packages.
        public var untrustedStore: Bool?
        /// The file system every write goes through (tests inject faults here).
        public var fileSystem = FileSystem()
        /// Waits between autosaves (tests drive time with their own).
        public var sleep: @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }
        /// Where working copies live (`XDG_STATE_HOME`, `HOME`).
        public var environment = ProcessInfo.processInfo.environment
        /// Recompute the store's logical hash at every autosave too, not only at explicit
        /// saves, copies and close (see docs/FORMAT.md): for tools that check each autosave
        /// against the hash it reports, such as the crash test. It costs a read of the store.
        public var hashesEveryAutosave = false

        /// Default options: read-write, autosave every 15 s, ask before recovering.
        public init() {}
    }

    /// How a read-only open shares a package with processes that edit it.
    public enum ReadSharing: Sendable {
        /// Reads while editors open, edit and save the document, for as long as it stays
        /// open. Opened while no editor has it, SQLite makes the store's `-wal` and `-shm`
        /// files for the read and removes them as it closes.
        case alongsideEditors
        /// For a read that ends soon (a command): while it is open no editor opens the
        /// document (an editor waits for it, up to `DocumentLock.readerWait`), and the store
        /// is read as an unchanging file, so no file is made or changed, not even a folder's
        /// modification time. When an editor has the document open already, it reads
        /// alongside it through its log.
        case excludingEditors
    }

    /// The model the store holds.
    public let model: ObjectModel
    /// Where the document is; nil until a never-saved document is saved.
    public internal(set) var fileURL: URL?
    /// Package or archive.
    public internal(set) var format: DocumentFormat
    /// The metadata as last saved.
    public internal(set) var metadata: DocumentMetadata
    /// Normal, closed, in conflict, saving error, editing disabled. Each change is told to
    /// ``onStateChange`` and to every ``stateChanges()`` stream: an app learns there that an
    /// autosave found the document changed on disk (``DocumentState/inConflict``) or could
    /// not save (``DocumentState/savingError``).
    public internal(set) var state: DocumentState = .normal {
        didSet {
            guard state != oldValue else { return }
            onStateChange?(state)
            stateStreams.yield(state, finishing: state.contains(.closed))
        }
    }
    /// Called on the main actor with the new ``state`` whenever it changes.
    public var onStateChange: ((DocumentState) -> Void)?
    /// The streams ``stateChanges()`` handed out.
    private var stateStreams = StateStreams()
    /// The private-queue context attached to the store; only it writes to disk.
    public internal(set) var rootContext: ObjectContext
    /// The main-actor context the user interface edits; child of the root.
    public internal(set) var mainContext: ObjectContext
    /// Undo and redo for the main context.
    public let undoManager: ObjectUndoManager
    /// How autosave is doing.
    public internal(set) var autosaveStatus = AutosaveStatus()
    /// Called on the main actor after each autosave, successful or not.
    public var onAutosave: ((AutosaveEvent) -> Void)?
    /// Files the application keeps beside the store (`AdditionalContent/`), by relative path.
    /// Setting it marks the document changed; the next save writes it.
    public var additionalContent: [String: Data] {
        didSet { bookkeeping.additionalContentEdited() }
    }
    /// The previous holder, when opening took over a lock left by a process that died.
    public internal(set) var lockTakeover: LockTakeover?
    /// The package an archive (or never-saved) document is edited and autosaved in; nil for
    /// a package document, which is edited in place until it meets a conflict.
    public var workingCopyPackage: URL? { workingCopy?.package }

    var options: OpenOptions
    var store: PersistentStore
    var files: DocumentFiles
    var workingCopy: WorkingCopy?
    var lock: DocumentLock?
    /// An archive's lock beside it, seen by every user and machine sharing its folder.
    var besideLock: DocumentLock?
    var stamp: FileStamp?
    /// What is not on disk yet, and the save under way.
    var bookkeeping: SaveBookkeeping
    var workerObservations: [SaveObservation] = []
    var autosaveTask: Task<Void, Never>?
    /// Merges (by save number) the next save takes back: undone, or reverted past.
    var pendingTakeBack: [Int] = []
    /// The merges saved by this open, by the undo count their undo group made.
    var mergesByUndoCount: [Int: Int] = [:]

    init(_ parts: OpenedParts, options: OpenOptions) {
        self.model = parts.model
        self.options = options
        self.store = parts.store
        self.files = parts.files
        self.fileURL = parts.fileURL
        self.format = parts.format
        self.metadata = parts.metadata
        self.workingCopy = parts.workingCopy
        self.lock = parts.lock
        self.besideLock = parts.besideLock
        self.lockTakeover = parts.lock?.takeover ?? parts.besideLock?.takeover
        self.stamp = parts.stamp
        self.additionalContent = parts.additionalContent
        self.bookkeeping = SaveBookkeeping(savedAdditionalContent: parts.additionalContent)
        self.undoManager = ObjectUndoManager()
        self.rootContext = ObjectContext(store: parts.store, name: "root")
        self.mainContext = ObjectContext(.main, parent: rootContext)
        if parts.readOnly { state.insert(.editingDisabled) }
        attachMainContext()
        if let interval = options.autosaveInterval, !parts.readOnly { startAutosave(every: interval) }
    }

    /// Sets up a new root and main context: undo, merging, and a merge policy that resolves
    /// every conflict the one writer of a document can meet (the user's edits against an
    /// import's, an object brought back by undo against a copy imported since), so that no
    /// sequence of edits leaves the document unable to save. The user's side wins, property
    /// by property, as Core Data's `NSMergeByPropertyObjectTrumpMergePolicy` does for a user
    /// interface context; see ``MergePolicy`` for unique values.
    func attachMainContext() {
        mainContext.undoManager = undoManager
        mainContext.automaticallyMergesChangesFromParent = true
        mainContext.mergePolicy = .inMemoryWins
        rootContext.performAndWait { $0.mergePolicy = .inMemoryWins }
    }

    // MARK: - Opening and creating

    /// Opens the document at `url`: a `Name.poddoc` package, or an archive of one.
    ///
    /// - Throws: ``DocumentError``: `.notADocument`, `.missingStore`, `.newerFormat`, `.locked`,
    ///   `.recoveryAvailable`, `.corrupt`, `.archive`, `.store`.
    public static func open(_ url: URL, model: ObjectModel, options: OpenOptions = OpenOptions()) async throws -> ManagedDocument {
        try await open(url, options: options) { _ in model }
    }

    /// Opens the document at `url`, which must be of `type`'s kind, with `type`'s model
    /// (migrating an older store to it on a writing open).
    ///
    /// - Throws: ``DocumentError``; `.wrongKind` when the document is of another kind.
    public static func open(_ url: URL, as type: DocumentType, options: OpenOptions = OpenOptions()) async throws -> ManagedDocument {
        let path = url.path
        return try await open(url, options: options) { kind in
            guard kind == type.kind else {
                throw DocumentError(
                    .wrongKind, "\(path) is a document of kind '\(kind)', not '\(type.kind)' (\(type.displayName)); nothing changed.",
                    path: path)
            }
            return type.model
        }
    }

    /// Opens the document at `url` whatever its kind: with the model of its kind's type among
    /// `types`, or, for a kind none of them declares, with the model its store records (as
    /// written: never migrated, never another kind's model). What a tool that opens any
    /// poddoc document calls.
    ///
    /// - Throws: ``DocumentError``; `.wrongKind` when the kind is unknown and the store
    ///   records no model.
    public static func open(_ url: URL, types: [DocumentType], options: OpenOptions = OpenOptions()) async throws -> ManagedDocument {
        let models = Dictionary(types.map { ($0.kind, $0.model) }, uniquingKeysWith: { first, _ in first })
        let parts = try await onDisk { try DocumentOpening.open(url, model: { kind in models[kind] }, options: options) }
        return ManagedDocument(parts, options: options)
    }

    /// Opens the document at `url` with the object model that `model` gives for the kind its
    /// metadata names: for tools that open any document.
    ///
    /// - Throws: ``DocumentError``, or what `model` throws for a kind it does not know.
    public static func open(
        _ url: URL, options: OpenOptions = OpenOptions(),
        model: @escaping @Sendable (DocumentKind) throws -> ObjectModel
    ) async throws -> ManagedDocument {
        let parts = try await onDisk { try DocumentOpening.open(url, model: model, options: options) }
        return ManagedDocument(parts, options: options)
    }

    /// Creates a new document of `type`: a package, or an archive when `url` ends in
    /// `.tar.zst`, `.zip` or `.tar.gz`; with no `url`, a never-saved document kept in a
    /// working copy until ``save(as:format:)`` gives it a place. It holds the type's initial
    /// content, saved as save 0.
    ///
    /// - Throws: ``DocumentError``.
    public static func create(at url: URL?, type: DocumentType, options: OpenOptions = OpenOptions()) async throws -> ManagedDocument {
        let parts = try await onDisk { try DocumentOpening.create(url, type: type, options: options) }
        let document = ManagedDocument(parts, options: options)
        if url != nil, parts.format.isArchive { try await document.save() }
        return document
    }

    /// Creates a new, empty document of `kind` with `model`: ``create(at:type:options:)``
    /// with a type of no initial content.
    ///
    /// - Throws: ``DocumentError``.
    public static func create(
        at url: URL?, kind: DocumentKind, model: ObjectModel, options: OpenOptions = OpenOptions()
    ) async throws -> ManagedDocument {
        try await create(at: url, type: DocumentType(kind: kind, displayName: kind.rawValue, model: model), options: options)
    }

    /// Working copies holding work that was never written back (archive documents autosaved
    /// after their last save, never-saved documents), with no process editing them.
    public static func recoverableDocuments(environment: [String: String] = ProcessInfo.processInfo.environment) -> [RecoverableDocument] {
        DocumentOpening.recoverable(environment: environment, fileSystem: FileSystem())
    }

    /// The work waiting for recovery for the document at `url` (an archive's autosaves, or a
    /// package's version kept apart after a conflict), if any; see ``recoverableDocuments(environment:)``.
    public static func waitingWork(
        for url: URL, environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> RecoverableDocument? {
        let path = DocumentOpening.resolvingLinks(url).standardizedFileURL.path
        return recoverableDocuments(environment: environment).first { $0.archive?.standardizedFileURL.path == path }
    }

    // MARK: - State

    /// Whether there are changes not yet saved: the main context's (edits, undo, redo), worker
    /// saves into the root, additional content.
    public var hasUnsavedChanges: Bool {
        mainContext.hasChanges || bookkeeping.hasUnsavedWork
    }

    /// A private-queue context whose saves go into the root context; the document counts them
    /// as unsaved changes until its next save.
    public func newWorkerContext(name: String = "worker") -> ObjectContext {
        let worker = ObjectContext(.privateQueue, parent: rootContext, name: name)
        workerObservations.append(
            worker.observeSaves { [weak self] _ in
                Task { @MainActor in self?.bookkeeping.workerSaved() }
            })
        return worker
    }

    /// The store's file, for tools that inspect it.
    public var storeURL: URL { files.layout.store }

    /// The package being edited: the document itself, or its working copy.
    public var packageURL: URL { files.layout.root }

    // MARK: - Off the main actor

    /// Runs file work on the global executor, never on the main actor.
    @concurrent
    nonisolated static func onDisk<T>(_ work: @Sendable () throws -> sending T) async throws -> sending T {
        try work()
    }
}

extension ManagedDocument {
    /// The document's ``state`` from now on: every change, in order, on the main actor; the
    /// stream ends when the document closes.
    ///
    /// ```swift
    /// Task { @MainActor in
    ///     for await state in document.stateChanges() where state.contains(.inConflict) {
    ///         // The disk holds someone else's save: offer merge, keep mine, take theirs.
    ///     }
    /// }
    /// ```
    public func stateChanges() -> AsyncStream<DocumentState> {
        let (stream, continuation) = AsyncStream.makeStream(of: DocumentState.self, bufferingPolicy: .unbounded)
        if state.contains(.closed) {
            continuation.finish()
        } else {
            stateStreams.add(continuation)
        }
        return stream
    }
}

/// The continuations of the streams ``ManagedDocument/stateChanges()`` handed out; a stream
/// its reader dropped is let go.
struct StateStreams {
    private var continuations: [Int: AsyncStream<DocumentState>.Continuation] = [:]
    private var nextKey = 0

    mutating func add(_ continuation: AsyncStream<DocumentState>.Continuation) {
        continuations[nextKey] = continuation
        nextKey += 1
    }

    mutating func yield(_ state: DocumentState, finishing: Bool) {
        for (key, continuation) in continuations {
            if case .terminated = continuation.yield(state) { continuations[key] = nil }
            if finishing { continuation.finish() }
        }
        if finishing { continuations = [:] }
    }
}
