import Foundation
internal import GRDB
internal import GRDBSQLite

// MARK: - Stores written with another model

extension PersistentStore {
    /// Opens an older store read-only under the model it was written with (the one it
    /// records, or the one of its version among `model`'s ``ObjectModel/earlierVersions``), as
    /// it is on disk: nothing is migrated. For checking it before a writing open upgrades it.
    ///
    /// - Throws: ``StoreError``; `.schemaMismatch` when that model is unknown.
    public static func openAsWritten(
        _ url: URL, readBy model: ObjectModel, editors: Options.Editors = .unknown
    ) throws -> PersistentStore {
        var options = Options(readOnly: true)
        options.editors = editors
        let probe = try PersistentStore.probe(url, options: options)
        defer { try? probe.close() }
        let found = (try? probe.read { db in try Int.fetchOne(db, sql: "PRAGMA user_version") }) ?? 0
        guard found < model.version else { return try PersistentStore(url: url, model: model, options: options) }
        guard let source = try probe.read({ db in try SchemaManager.sourceModel(db, version: found, readBy: model) }) else {
            throw StoreError(
                .schemaMismatch,
                "\(url.path) records no model and its version \(found) is not among the earlier versions this poddoc knows, so its content cannot be read as written."
            )
        }
        return try PersistentStore(url: url, model: source, options: options)
    }

    /// The model the store at `url` records (the whole model it was written with), read
    /// without writing a byte; nil when it records none (a store written before poddoc
    /// recorded models). For opening a store whose model the program does not know.
    ///
    /// - Throws: ``StoreError``: `.notAStore`, `.corrupt` when the record is damaged, `.sqlite`.
    public static func recordedModel(ofStoreAt url: URL, editors: Options.Editors = .unknown) throws -> ObjectModel? {
        var options = Options(readOnly: true)
        options.editors = editors
        let probe = try PersistentStore.probe(url, options: options)
        defer { try? probe.close() }
        do {
            return try probe.read { db in
                let found = try Int32.fetchOne(db, sql: "PRAGMA application_id") ?? 0
                guard found == applicationID else {
                    throw StoreError(.notAStore, "\(url.path) is an SQLite database of another application; it is not a poddoc store.")
                }
                guard try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM sqlite_master WHERE name = '_poddoc_store')") == true
                else { return nil }
                return try SchemaManager.recordedModel(db)
            }
        } catch let error as StoreError {
            throw error
        } catch {
            throw PersistentStore.openError(error, url: url)
        }
    }

    /// A read-only connection to look at a store file's header and records.
    private static func probe(_ url: URL, options: Options) throws -> DatabaseQueue {
        let access = ReadAccess.choose(for: url, editors: options.editors)
        do {
            return try DatabaseQueue(
                path: access.sqlitePath(for: url),
                configuration: configuration(options, readOnlyConnection: access != .writableFile, usesWAL: false))
        } catch {
            throw PersistentStore.openError(error, url: url)
        }
    }

    /// Streams the logical content (``streamLogicalContent(_:)``) of the store as it is on
    /// disk, under the model it was written with: for a store that ``readsUpgradedCopy``, the
    /// older file's (what its document's recorded hash describes); otherwise this store's.
    ///
    /// - Throws: ``StoreError``; `.schemaMismatch` when the older store's model is unknown.
    public func streamLogicalContentOnDisk(_ consume: (UnsafeRawBufferPointer) -> Void) throws {
        guard let olderOnDisk else { return try streamLogicalContent(consume) }
        let original = try Self.openAsWritten(olderOnDisk, readBy: model, editors: options.editors)
        defer { try? original.close() }
        try original.streamLogicalContent(consume)
    }

    /// A copy of an older store, brought to `model`, that no one else sees: read-only opens
    /// read it, so that reading an older document changes no byte of it. The copy is a file in
    /// the temporary folder, removed as soon as it is open (the open connection keeps it).
    static func privateUpgradedCopy(
        of original: DatabaseQueue, url: URL, model: ObjectModel, options: Options
    ) throws -> DatabaseQueue {
        let copy = FileManager.default.temporaryDirectory.appending(path: "poddoc-upgrade-\(UUID().uuidString).sqlite")
        defer {
            for suffix in ["", "-journal", "-wal", "-shm"] { unlink(copy.path + suffix) }
        }
        var writable = options
        writable.readOnly = false
        writable.synchronous = .normal
        do {
            let target = try DatabaseQueue(
                path: copy.path, configuration: configuration(writable, readOnlyConnection: false, usesWAL: false))
            try original.backup(to: target)
            try original.close()
            _ = try SchemaManager(model: model, readOnly: false).prepare(target, url: url)
            try target.close()
        }
        return try DatabaseQueue(path: copy.path, configuration: configuration(options, readOnlyConnection: true, usesWAL: false))
    }
}
