import Foundation
internal import GRDB
internal import GRDBSQLite
import Synchronization

/// A SQLite file (or an in-memory database) holding the objects of one ``ObjectModel``.
///
/// The store owns the connection; root contexts (``ObjectContext/init(store:name:)``) read and
/// write through it. Opening checks the file is a poddoc store (its `application_id`), brings
/// its schema up to the model's version (one transaction per migration) or refuses a newer
/// one, and checks that every table and column the model needs is there.
///
/// ```swift
/// let store = try PersistentStore(url: folder.appending(path: "persistentStore"), model: model)
/// ```
public final class PersistentStore: Sendable {
    /// How a store is opened.
    public struct Options: Sendable {
        /// Open without writing; saves fail with ``StoreError/Code/readOnly``.
        public var readOnly = false
        /// The file came from elsewhere: open it defensively (`cell_size_check=ON`,
        /// `mmap_size=0`) and run `quick_check` before use.
        public var untrusted = false
        /// With `untrusted`: the file passed ``PersistentStore/checkIntegrity(ofFileAt:)``
        /// already, unchanged since; the defensive settings stay, `quick_check` is not run again.
        public var integrityChecked = false
        /// SQLite's `synchronous` level. `.full` (the default) makes every completed root
        /// save survive power loss; `.normal` survives a crash of the process only.
        public var synchronous: Synchronous = .full
        /// How long to wait for another connection's write lock.
        public var busyTimeout: TimeInterval = 10
        /// How much history the store keeps (``PersistentStore/history(limit:)``); each root
        /// save lets older entries go. Nil records none. (Changeable while the store is open:
        /// ``PersistentStore/historyRetention``.)
        public var historyRetention: HistoryRetention? = .standard
        /// Called with the text of every SQL statement run (for tests and diagnostics).
        public var traceSQL: (@Sendable (String) -> Void)?
        /// Where a store this open creates will live, when it is made in a staging folder and
        /// moved there: it starts as the first copy of its document at that place (ids from 1),
        /// not as a copy moved from the staging folder. Nil: where it is made.
        public var finalLocation: URL?
        /// Where the store notes its replica's newest save outside itself, so that an older
        /// version of it put back at its place (a `git checkout`, a restored backup) takes a
        /// new identity before it writes (see ``ReplicaLedger``). Nil: no such notes.
        public var replicaLedger: (any ReplicaLedger)?
        /// With `readOnly`: what the opener knows of editors of the file, which decides how it
        /// is read (see ``Editors``).
        public var editors: Editors = .unknown

        /// What a read-only open knows of other connections writing the file.
        public enum Editors: Sendable {
            /// Nothing: the store reads through SQLite's log when there is one, and otherwise
            /// opens a connection that could write (but never does), so that the `-wal` and
            /// `-shm` files it makes are removed as it closes.
            case unknown
            /// No one writes the file while this store is open (the opener holds its
            /// document's lock for reading): read as an unchanging file, making no file beside
            /// it and changing none, unless a log left by a crashed writer must be read.
            case excluded
            /// An editor has the file open: read alongside it through its log, read-only.
            case present
        }

        /// SQLite `synchronous` levels poddoc allows in WAL mode.
        public enum Synchronous: String, Sendable {
            case normal = "NORMAL"
            case full = "FULL"
        }

        /// Default options: read-write, trusted, `synchronous=FULL`.
        public init(readOnly: Bool = false, untrusted: Bool = false, synchronous: Synchronous = .full) {
            self.readOnly = readOnly
            self.untrusted = untrusted
            self.synchronous = synchronous
        }
    }

    /// `application_id` of every poddoc store: "PdDc".
    public static let applicationID: Int32 = 0x5064_4463

    /// The file, or nil for an in-memory store (after ``continueOnCopy(at:)``, the copy).
    public var url: URL? { connection.withLock { $0.url } }
    /// The model the store holds.
    public let model: ObjectModel
    /// How the store was opened.
    public let options: Options
    /// A unique identifier of this store, made when it was created; used in object URIs.
    public let identifier: String
    /// The model version of the store as it was found on disk: below ``ObjectModel/version``
    /// when a read-only open reads it through a private upgraded copy, above it when a newer
    /// poddoc wrote it.
    public let modelVersionOnDisk: Int
    /// For a read-only open of an older store read through a private upgraded copy: the
    /// file on disk.
    let olderOnDisk: URL?

    /// Whether this read-only store reads a private upgraded copy of an older store on disk.
    public var readsUpgradedCopy: Bool { olderOnDisk != nil }
    /// The connection and its file. Only ``continueOnCopy(at:)`` replaces them, with an exact
    /// copy, so every reader sees the same objects before and after.
    private let connection: Locked<(database: DatabaseQueue, url: URL?)>
    /// The connection every read and write goes through.
    var database: DatabaseQueue { connection.withLock { $0.database } }
    /// Bumped twice whenever a root save makes temporary IDs permanent: to an odd number
    /// before it fills in the permanent keys, to an even one after. Contexts compare it to
    /// know when to rename their objects, and a read that saw the same even number before
    /// and after knows no ID became permanent while it ran.
    let aliasGeneration = Atomic<Int>(0)
    private let retention: Locked<HistoryRetention?>

    /// Where the store lives, as ``Replica`` compares it: this machine and the file's path (an
    /// archive's working copy is named after the archive's path, so it moves with it). A
    /// store that finds another place recorded when it writes is a copy.
    var placeForWrites: String { Self.place(of: options.finalLocation ?? url) }

    static func place(of url: URL?) -> String {
        hostName + ":" + (url?.standardizedFileURL.path ?? "memory")
    }

    /// This machine's name.
    static let hostName: String = {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "localhost" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }()

    /// How much history root saves keep from now on; nil records none (saves then leave the
    /// recorded history as it is).
    public var historyRetention: HistoryRetention? {
        get { retention.withLock { $0 } }
        set { retention.withLock { $0 = newValue } }
    }

    /// Opens (or creates) a store.
    ///
    /// A store opened read-only writes nothing, not even SQLite's `-wal` and `-shm` files
    /// once it is closed, and opens on read-only file systems (see `ReadAccess`).
    ///
    /// - Parameters:
    ///   - url: The SQLite file; nil for an in-memory store.
    ///   - model: What the store holds.
    ///   - options: How to open it.
    /// - Throws: ``StoreError``: `.notAStore`, `.newerSchema`, `.migrationFailed`,
    ///   `.schemaMismatch`, `.corrupt` or `.sqlite`.
    public init(url: URL?, model: ObjectModel, options: Options = Options()) throws {
        self.model = model
        self.options = options
        self.retention = Locked(options.historyRetention)
        if let url, !options.readOnly, FileManager.default.fileExists(atPath: url.path), !ReadAccess.canWrite(url) {
            throw StoreError(
                .readOnly,
                "\(url.path) cannot be written (a read-only disk or file); open it read-only to read it, or save a copy elsewhere.")
        }
        let readAccess = url.flatMap { options.readOnly ? ReadAccess.choose(for: $0, editors: options.editors) : nil }
        let config = Self.configuration(
            options, readOnlyConnection: options.readOnly && readAccess != .writableFile,
            usesWAL: url != nil && !options.readOnly)
        var database: DatabaseQueue
        do {
            if let url {
                database = try DatabaseQueue(path: readAccess?.sqlitePath(for: url) ?? url.path, configuration: config)
            } else {
                database = try DatabaseQueue(configuration: config)
            }
        } catch {
            throw PersistentStore.openError(error, url: url)
        }
        let onDisk = (try? database.read { db in try Int.fetchOne(db, sql: "PRAGMA user_version") }) ?? 0
        self.modelVersionOnDisk = onDisk
        if options.readOnly, let url, onDisk > 0, onDisk < model.version {
            // A read never writes: an older store is read through a private upgraded copy.
            do {
                olderOnDisk = url
                database = try Self.privateUpgradedCopy(of: database, url: url, model: model, options: options)
            } catch let error as StoreError where error.code != .sqlite {
                throw error
            } catch {
                let full = (error as? DatabaseError)?.resultCode == .SQLITE_FULL
                throw StoreError(
                    .sqlite,
                    "\(url.path) was written with model \(onDisk); reading it takes an upgraded copy in the temporary folder \(FileManager.default.temporaryDirectory.path), which could not be made (\(full ? "the folder is full" : "\(error)")). Set TMPDIR to a folder with room, or open it for writing once to upgrade it.",
                    cause: error)
            }
        } else {
            olderOnDisk = nil
        }
        connection = Locked((database, url))
        // SQLite falls back to reading a file it cannot open for writing; a writable open
        // must say so now, not at the first save.
        if let url, !options.readOnly,
            database.inDatabase({ db in db.sqliteConnection.map { sqlite3_db_readonly($0, "main") == 1 } ?? false })
        {
            try? database.close()
            throw StoreError(
                .readOnly,
                "\(url.path) cannot be written (a read-only disk or file); open it read-only to read it, or save a copy elsewhere.")
        }
        do {
            try Self.setSynchronous(options.synchronous, on: database)
            if options.untrusted && !options.integrityChecked { try Self.runQuickCheck(database, url: url) }
            identifier = try SchemaManager(model: model, readOnly: options.readOnly).prepare(
                database, url: url, finalLocation: options.finalLocation)
        } catch {
            throw PersistentStore.openError(error, url: url)
        }
    }

    /// How every connection of a store is set up.
    ///
    /// WAL is set here rather than with GRDB's `journalMode = .wal`, whose set-up creates and
    /// drops a table on every open without a WAL file (bumping the schema cookie and the change
    /// counter): opening a document and closing it unchanged writes nothing.
    static func configuration(_ options: Options, readOnlyConnection: Bool, usesWAL: Bool) -> Configuration {
        var config = Configuration()
        config.readonly = readOnlyConnection
        config.foreignKeysEnabled = true
        config.busyMode = .timeout(options.busyTimeout)
        config.label = "poddoc.store"
        let untrusted = options.untrusted
        let trace = options.traceSQL
        config.prepareDatabase { db in
            if let trace { db.trace { trace($0.expandedDescription) } }
            if let connection = db.sqliteConnection {
                try TextFolding.register(onConnection: connection)
                try SearchText.register(onConnection: connection)
            }
            SearchRanking.register(on: db)
            db.add(
                collation: DatabaseCollation(VersionOrder.collationName) { a, b in
                    let c = VersionOrder.compare(a, b)
                    return c < 0 ? .orderedAscending : (c == 0 ? .orderedSame : .orderedDescending)
                })
            if usesWAL {
                // A no-op on a store already in WAL mode (every store poddoc made).
                guard try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL") == "wal" else {
                    throw StoreError(.sqlite, "Could not switch \(db.description) to write-ahead logging.")
                }
            }
            try db.execute(sql: "PRAGMA trusted_schema = OFF")
            if untrusted { try db.execute(sql: PersistentStore.untrustedFileSettings) }
            // 64 MiB of page cache: a save of a hundred thousand objects then stays in memory
            // until it commits, instead of spilling pages to the WAL half-way.
            try db.execute(sql: "PRAGMA cache_size = -65536")
        }
        return config
    }

    /// Sets `synchronous` after GRDB's own set-up, which puts WAL connections at NORMAL.
    static func setSynchronous(_ level: Options.Synchronous, on database: DatabaseQueue) throws {
        try database.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA synchronous = \(level.rawValue)")
        }
    }

    /// Copies the store, page for page (SQLite's backup API, reading through this connection,
    /// so commits still in the `-wal` come along), to `url`, which must not exist, and goes on
    /// there: every later read and write uses the copy, and the old file is closed without
    /// another write. Object IDs, and the contexts attached to the store, stay valid.
    ///
    /// A document uses it when its file was replaced or changed behind it: its own version
    /// moves somewhere private before anything more is written.
    ///
    /// Call it from the root context's queue (``ObjectContext/perform(_:)``), so no save runs
    /// meanwhile.
    ///
    /// - Throws: ``StoreError``: `.readOnly` for a store opened read-only or in memory,
    ///   `.sqlite` when the copy cannot be made (the store then goes on where it was).
    public func continueOnCopy(at url: URL) throws {
        guard !options.readOnly, let oldURL = self.url else {
            throw StoreError(.readOnly, "Only a store opened for writing, on disk, can move to a copy.")
        }
        guard !FileManager.default.fileExists(atPath: url.path) else {
            throw StoreError(.sqlite, "Could not copy the store to \(url.path): something with that name already exists.")
        }
        let old = database
        let copy: DatabaseQueue
        do {
            try writeSnapshot(to: url)
            do {
                copy = try DatabaseQueue(
                    path: url.path, configuration: Self.configuration(options, readOnlyConnection: false, usesWAL: true))
                try Self.setSynchronous(options.synchronous, on: copy)
            } catch {
                Self.removeDatabaseFiles(at: url)
                throw error
            }
        } catch {
            throw StoreError.sqlite(error, while: "copying the store from \(oldURL.path) to \(url.path)")
        }
        connection.withLock { $0 = (copy, url) }
        try? old.close()
    }

    /// Writes the store as its last commit left it to a new file at `url`, alone: no `-wal` or
    /// `-shm` beside it, durable when this returns.
    ///
    /// The copy is made page for page with SQLite's backup API, reading through this store's
    /// connection in one read transaction: commits still in the `-wal` (another process's, or a
    /// crashed writer's) come along, a writer committing meanwhile does not get in the way,
    /// and nothing is written to this store, its `-wal` or its `-shm` beyond what any reader
    /// writes (a store opened read-only copies itself). The copy keeps the store's
    /// write-ahead-log mode; it is usable as it is, or packed into an archive.
    ///
    /// ```swift
    /// try store.writeSnapshot(to: folder.appending(path: "persistentStore"))
    /// ```
    ///
    /// - Throws: ``StoreError`` (`.sqlite`) when `url` exists or the copy cannot be written;
    ///   nothing is left at `url` then.
    public func writeSnapshot(to url: URL) throws {
        guard !FileManager.default.fileExists(atPath: url.path) else {
            throw StoreError(.sqlite, "Could not copy the store to \(url.path): something with that name already exists.")
        }
        do {
            // A rollback-journal connection: pages go straight to the file (a WAL one would
            // write each twice), and the copy holds the source's header, WAL mode included.
            var configuration = Configuration()
            configuration.label = "poddoc.store.snapshot"
            let copy = try DatabaseQueue(path: url.path, configuration: configuration)
            do {
                try copy.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA synchronous = FULL") }
                try database.backup(to: copy)
                try copy.close()
            } catch {
                try? copy.close()
                throw error
            }
        } catch {
            Self.removeDatabaseFiles(at: url)
            if let error = error as? DatabaseError, error.resultCode == .SQLITE_FULL {
                throw StoreError(
                    .sqlite, "Could not copy the store to \(url.path): No space left on device; make room there, or choose another place.",
                    cause: error)
            }
            throw StoreError.sqlite(error, while: "copying the store to \(url.path)")
        }
    }

    /// Runs `body` in one read transaction of this store when its main file alone holds the
    /// last commit (its `-wal` is absent or empty), so that `body` may copy or archive the
    /// file: while the transaction lasts, no checkpoint (of any process) writes the main file.
    ///
    /// A writer empties its log with ``checkpoint()`` first. Saves through this store wait
    /// until `body` returns.
    ///
    /// - Returns: What `body` returned, or nil without running it when the log holds commits
    ///   (or the store is in memory): copy the store with ``writeSnapshot(to:)`` then.
    /// - Throws: ``StoreError`` when the store cannot be read, or what `body` throws.
    public func whileMainFileHoldsEverything<T>(_ body: () throws -> T) throws -> T? {
        guard let url else { return nil }
        var failure: (any Error)?
        let result: T?
        do {
            result = try database.read { db -> T? in
                // The transaction takes its snapshot at its first read; from then on a
                // checkpoint cannot write past it.
                _ = try Int.fetchOne(db, sql: "PRAGMA schema_version")
                let logged = (try? FileManager.default.attributesOfItem(atPath: url.path + "-wal"))?[.size] as? Int ?? 0
                guard logged == 0 else { return nil }
                do {
                    return try body()
                } catch {
                    failure = error
                    return nil
                }
            }
        } catch {
            throw StoreError.sqlite(error, while: "reading \(url.path)")
        }
        if let failure { throw failure }
        return result
    }

    /// Removes an SQLite file with its `-wal`, `-shm` and `-journal`, if they exist.
    private static func removeDatabaseFiles(at url: URL) {
        for suffix in ["", "-wal", "-shm", "-journal"] { try? FileManager.default.removeItem(atPath: url.path + suffix) }
    }

    /// The permanent ID for `id`, if the root context has saved it.
    func resolve(_ id: ObjectID) -> ObjectID {
        id.resolved
    }

    /// Runs `body` with the database connection, for reads poddoc does not model (reports,
    /// exports). Do not write through it: writes belong to root contexts.
    ///
    /// - Throws: ``StoreError`` wrapping the SQLite error.
    func unsafeRead<T>(_ body: (Database) throws -> T) throws -> T {
        do {
            return try database.read(body)
        } catch {
            throw StoreError.sqlite(error, while: "reading")
        }
    }

    /// Checkpoints the WAL into the main file and truncates it, so the main file alone holds
    /// everything (before copying or archiving it).
    ///
    /// Another process reading an older commit keeps the log from being emptied: SQLite waits
    /// for it (the busy timeout), then checkpoints what it can and leaves the rest in the log.
    ///
    /// - Returns: Whether the main file alone now holds every commit (the log is empty).
    /// - Throws: ``StoreError``: `.readOnly` for a store opened read-only (a checkpoint writes
    ///   the main file, which may be another process's to write), `.sqlite` when SQLite
    ///   cannot checkpoint.
    @discardableResult
    public func checkpoint() throws -> Bool {
        guard !options.readOnly else {
            throw StoreError(.readOnly, "A store opened read-only is not checkpointed: copy it with writeSnapshot(to:).")
        }
        do {
            return try database.writeWithoutTransaction { db in
                // (busy, frames in the log, frames checkpointed); TRUNCATE leaves (0, 0, 0).
                let row = try Row.fetchOne(db, sql: "PRAGMA wal_checkpoint(TRUNCATE)")
                return row.map { $0[0] as Int == 0 && $0[1] as Int == $0[2] as Int } ?? true
            }
        } catch {
            throw StoreError.sqlite(error, while: "checkpointing the write-ahead log")
        }
    }

    /// Rebuilds the store file without its free pages (SQLite's `VACUUM`), then checkpoints,
    /// so the main file alone holds the content in as few pages as it needs. The logical
    /// content (and its hash) is unchanged. For copies about to be packed or sent: a copy
    /// that let go of most of its history is otherwise mostly empty pages.
    ///
    /// Call it from the root context's queue, or on a store no context saves into.
    ///
    /// - Throws: ``StoreError``: `.readOnly` for a store opened read-only, `.sqlite` when
    ///   SQLite cannot rebuild it (no room for the rebuilt copy, another connection reading).
    public func compact() throws {
        guard !options.readOnly else {
            throw StoreError(.readOnly, "Only a store opened for writing can be compacted.")
        }
        do {
            try database.writeWithoutTransaction { db in
                try db.execute(sql: "VACUUM")
                try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)")
            }
        } catch {
            throw StoreError.sqlite(error, while: "compacting the store (VACUUM)")
        }
    }

    /// Closes the connection. The store cannot be used afterwards.
    ///
    /// - Throws: ``StoreError`` when SQLite cannot close (statements still running).
    public func close() throws {
        do {
            try database.close()
        } catch {
            throw StoreError.sqlite(error, while: "closing the store")
        }
    }

    /// The settings for a file from elsewhere, besides `trusted_schema=OFF` (always on): SQLite
    /// checks cell sizes as it reads pages, and reads with `read()` rather than a memory map,
    /// so a damaged file gives an error instead of a crash.
    static let untrustedFileSettings = "PRAGMA cell_size_check = ON; PRAGMA mmap_size = 0"

    // MARK: - Opening errors

    static func openError(_ error: any Error, url: URL?) -> StoreError {
        if let error = error as? StoreError { return error }
        let path = url?.path ?? "the in-memory store"
        if let db = error as? DatabaseError {
            switch db.resultCode {
            case .SQLITE_NOTADB:
                return StoreError(.notAStore, "\(path) is not an SQLite database; it cannot be opened as a poddoc store.", cause: db)
            case .SQLITE_CORRUPT:
                return StoreError(
                    .corrupt, "\(path) is damaged (\(db.message ?? "corrupt")). Restore it from a backup or an autosaved copy.", cause: db)
            case .SQLITE_CANTOPEN:
                return StoreError(.sqlite, "\(path) cannot be opened: check that it exists and that you may read it.", cause: db)
            default:
                break
            }
        }
        return StoreError.sqlite(error, while: "opening \(path)")
    }
}
