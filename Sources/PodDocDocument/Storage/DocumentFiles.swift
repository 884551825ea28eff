import Foundation
import PodDocArchive
import PodDocFileSystem
import PodDocStore

/// The disk side of a document: everything here does file I/O and runs off the main actor.
struct DocumentFiles: Sendable {
    let layout: PackageLayout
    let fileSystem: FileSystem
    /// A read-only open found the committed additional content still staged (a crash came
    /// between the store's commit and moving it into place): it is read from there.
    var readsStagedAdditionalContent = false

    /// The folder holding the additional content the store last committed.
    var committedAdditionalContent: URL {
        readsStagedAdditionalContent ? layout.stagedAdditionalContent : layout.additionalContent
    }

    /// Keys the document keeps in the store's metadata, written in the same transaction as
    /// the objects they describe.
    enum StoreKey {
        static let saveSequence = "poddoc.saveSequence"
        static let additionalContentDigest = "poddoc.additionalContentDigest"
        static let documentID = "poddoc.documentID"
        static let kind = "poddoc.kind"
    }

    // MARK: - Creating

    /// Creates a new package of `type` at `root` (which must not exist), atomically: empty,
    /// or holding the type's initial content, saved with the store's metadata as save 0.
    static func createPackage(at root: URL, type: DocumentType, fileSystem: FileSystem) throws {
        let (kind, model) = (type.kind, type.model)
        let documentID = UUID()
        try fileSystem.writeDirectory(at: root, replacingExisting: false) { staged in
            let layout = PackageLayout(root: staged)
            try fileSystem.createDirectory(at: layout.storeContent)
            try fileSystem.createDirectory(at: layout.additionalContent)
            // The store is made here and moved to `root` with the folder: it belongs there.
            var options = PersistentStore.Options()
            options.finalLocation = PackageLayout(root: root).store
            // Save 0 is where every copy starts, not an edit: the history begins after it.
            options.historyRetention = nil
            let store = try PersistentStore(url: layout.store, model: model, options: options)
            let root = ObjectContext(store: store, name: "create")
            let (_, digest) = try ContentDigest.additionalContent(layout.additionalContent, fileSystem: fileSystem)
            try root.performAndWait { ctx in
                try type.initialContent?(ctx)
                try ctx.save(storeMetadata: [
                    StoreKey.saveSequence: "0", StoreKey.additionalContentDigest: digest,
                    StoreKey.documentID: documentID.uuidString, StoreKey.kind: kind.rawValue,
                ])
            }
            try store.checkpoint()
            let now = Date()
            let metadata = DocumentMetadata(
                formatVersion: DocumentMetadata.currentFormatVersion, kind: kind, documentID: documentID,
                created: now, modified: now, writer: PodDocVersion.writer, schemaVersion: model.version,
                saveSequence: 0, storeHash: try ContentDigest.store(store), storeHashSaveSequence: 0, additionalContent: [])
            try store.close()
            for leftover in [layout.storeWAL, layout.storeSHM] { try? FileManager.default.removeItem(at: leftover) }
            try fileSystem.write(metadata.encoded(), to: layout.metadata)
        }
    }

    // MARK: - Metadata

    func readMetadata() throws -> DocumentMetadata {
        let data: Data
        do {
            data = try Data(contentsOf: layout.metadata)
        } catch {
            throw DocumentError(
                .invalidMetadata, "\(layout.metadata.path) is missing or unreadable; this is not a complete poddoc document.",
                path: layout.root.path, cause: error)
        }
        return try DocumentMetadata.decode(data, path: layout.metadata.path)
    }

    func writeMetadata(_ metadata: DocumentMetadata) throws {
        try fileSystem.write(metadata.encoded(), to: layout.metadata)
    }

    /// Brings the metadata up to date after a committed save and writes it. The store's
    /// logical hash is recomputed only when `hashingStore` (explicit saves): an autosave keeps
    /// the previous hash, and ``DocumentMetadata/storeHashSaveSequence`` says which save it
    /// describes.
    func writeMetadata(
        after metadata: DocumentMetadata, saveSequence: Int, store: PersistentStore, hashingStore: Bool
    ) throws -> DocumentMetadata {
        var updated = metadata
        updated.saveSequence = saveSequence
        updated.modified = Date()
        updated.writer = PodDocVersion.writer
        updated.schemaVersion = store.model.version
        if hashingStore {
            updated.storeHash = try ContentDigest.store(store)
            updated.storeHashSaveSequence = saveSequence
        } else {
            updated.storeHashSaveSequence = metadata.storeHashSaveSequence ?? metadata.saveSequence
        }
        updated.additionalContent = try ContentDigest.additionalContent(layout.additionalContent, fileSystem: fileSystem).files
        try writeMetadata(updated)
        return updated
    }

    /// Hashes the store and rewrites the metadata when its hash describes an earlier save
    /// (the document was autosaved since); otherwise returns it unchanged.
    func refreshStoreHash(_ metadata: DocumentMetadata, store: PersistentStore) throws -> DocumentMetadata {
        guard !metadata.isStoreHashCurrent else { return metadata }
        var updated = metadata
        updated.storeHash = try ContentDigest.store(store)
        updated.storeHashSaveSequence = metadata.saveSequence
        try writeMetadata(updated)
        return updated
    }

    // MARK: - Opening the store

    /// Opens the store; when it must be migrated, a copy is kept until the migration succeeds.
    ///
    /// - Returns: The store, and whether it was migrated (its content then differs from what
    ///   the metadata's hash describes, by the migration's doing).
    func openStore(
        model: ObjectModel, readOnly: Bool, untrusted: UntrustedStore?, ledger: (any ReplicaLedger)? = nil,
        editors: PersistentStore.Options.Editors = .unknown
    ) throws -> (store: PersistentStore, migrated: Bool) {
        guard let size = try? FileManager.default.attributesOfItem(atPath: layout.store.path)[.size] as? Int else {
            throw DocumentError(
                .missingStore, "\(layout.root.path) has no store (StoreContent/persistentStore is missing); the document is incomplete.",
                path: layout.root.path)
        }
        // SQLite would take an empty file for a new database, and poddoc would fill it with an
        // empty store: every object gone, with nothing to say so.
        guard size > 0 else {
            throw DocumentError(
                .corrupt,
                "\(layout.root.path): its store (StoreContent/persistentStore) is empty, 0 bytes: this copy has lost its data. Restore the document from another copy; poddoc will not replace it with an empty store.",
                path: layout.store.path)
        }
        let needsMigration = !readOnly && (SQLiteHeader.userVersion(of: layout.store).map { $0 < model.version } ?? false)
        if needsMigration {
            try? FileManager.default.removeItem(at: layout.storeBackup)
            try fileSystem.copyFile(at: layout.store, to: layout.storeBackup)
        }
        var options = PersistentStore.Options(readOnly: readOnly, untrusted: untrusted != nil)
        options.integrityChecked = untrusted == .checked
        options.replicaLedger = ledger
        options.editors = editors
        let store = try PersistentStore(url: layout.store, model: model, options: options)
        if needsMigration { try fileSystem.removeItem(at: layout.storeBackup) }
        return (store, needsMigration)
    }

    /// Refuses to write to a damaged store: one that fails SQLite's `quick_check` (skipped
    /// when the open already ran it), or whose content no longer matches the hash its last
    /// save recorded (bytes changed on disk since: a failing disk, a bad copy). A write would
    /// stamp the damage with a fresh hash, and `check` could no longer tell.
    ///
    /// The hash is compared only when the metadata describes the store's last save (after an
    /// autosave or a crash it may not, and there is nothing to compare with) and no migration
    /// changed the store at this open: it costs one read of the whole store, which the close
    /// of a writable document pays anyway.
    ///
    /// - Throws: ``DocumentError`` (`.corrupt`) saying how to save what can be read.
    func verifyBeforeWriting(store: PersistentStore, metadata: DocumentMetadata, quickChecked: Bool, migrated: Bool) throws {
        let advice =
            "poddoc will not write to it. Open it read-only (`poddoc open \(layout.root.path) --read-only`, or `poddoc export`) to save what can still be read, or restore another copy."
        if !quickChecked {
            do {
                try store.quickCheck()
            } catch {
                throw DocumentError(
                    .corrupt, "\(layout.root.path): its store is damaged (\(error)); \(advice)", path: layout.store.path, cause: error)
            }
        }
        let sequence = try store.metadataValue(forKey: StoreKey.saveSequence).flatMap(Int.init) ?? metadata.saveSequence
        // A hash recorded under an older model describes the store before its upgrade (cut
        // off before the metadata caught up): nothing to compare.
        guard !migrated, metadata.isStoreHashCurrent, sequence == metadata.saveSequence,
            metadata.schemaVersion == store.modelVersionOnDisk
        else { return }
        let actual: String
        do {
            actual = try ContentDigest.store(store)
        } catch {
            throw DocumentError(
                .corrupt, "\(layout.root.path): its store cannot be read in full (\(error)); \(advice)", path: layout.store.path,
                cause: error)
        }
        guard actual == metadata.storeHash else {
            let conflict = SyncConflictFiles(inPackage: layout.root)
            // A sync tool's conflict, not damage: the metadata was saved with the other
            // machine's store, which it kept beside this one (intact: quick_check passed). The
            // next save describes this store; the kept one waits to be merged in.
            if conflict.store(hashing: metadata.storeHash, model: store.model) != nil { return }
            let kept = conflict.stores
            let note =
                kept.isEmpty
                ? ""
                : " (a sync tool also kept \(kept.map { $0.lastPathComponent }.joined(separator: ", ")) in StoreContent/, another machine's store: keep it)"
            throw DocumentError(
                .corrupt,
                "\(layout.root.path): its store no longer matches the hash recorded at save \(sequence) (it changed on disk since)\(note); \(advice)",
                path: layout.store.path)
        }
    }

    /// Refuses to upgrade a damaged store: one whose content, read as it was written (under
    /// its own model), no longer matches the hash its last save recorded. The check
    /// ``verifyBeforeWriting(store:metadata:quickChecked:migrated:)`` makes, before the
    /// upgrade changes the content it compares.
    ///
    /// - Throws: ``DocumentError`` (`.corrupt`) saying how to save what can be read.
    func verifyBeforeUpgrading(metadata: DocumentMetadata, model: ObjectModel) throws {
        guard metadata.isStoreHashCurrent else { return }
        let advice =
            "poddoc will not upgrade it. Open it read-only (`poddoc open \(layout.root.path) --read-only`, or `poddoc export`) to save what can still be read, or restore another copy."
        let (hash, sequence): (String, Int?)
        do {
            let older = try PersistentStore.openAsWritten(layout.store, readBy: model)
            defer { try? older.close() }
            hash = try ContentDigest.store(older)
            sequence = try older.metadataValue(forKey: StoreKey.saveSequence).flatMap(Int.init)
        } catch {
            throw DocumentError(
                .corrupt, "\(layout.root.path): its store cannot be read in full (\(error)); \(advice)", path: layout.store.path,
                cause: error)
        }
        guard (sequence ?? metadata.saveSequence) == metadata.saveSequence, hash != metadata.storeHash else { return }
        throw DocumentError(
            .corrupt,
            "\(layout.root.path): its store no longer matches the hash recorded at save \(metadata.saveSequence) (it changed on disk since); \(advice)",
            path: layout.store.path)
    }

    // MARK: - Consistency after a crash

    /// Makes the package agree with its store, the commit point of every save: installs
    /// additional content staged for the last committed save, drops content staged for a save
    /// that never committed, and rewrites metadata left behind.
    ///
    /// - Returns: the metadata now on disk.
    mutating func reconcile(store: PersistentStore, metadata: DocumentMetadata, writable: Bool) throws -> DocumentMetadata {
        let committed = try store.metadataValue(forKey: StoreKey.additionalContentDigest)
        var current = try ContentDigest.additionalContent(layout.additionalContent, fileSystem: fileSystem)
        let staged = FileManager.default.fileExists(atPath: layout.stagedAdditionalContent.path)
        if let committed, committed != current.digest {
            let next = staged ? try ContentDigest.additionalContent(layout.stagedAdditionalContent, fileSystem: fileSystem) : nil
            guard let next, next.digest == committed else {
                throw DocumentError(
                    .corrupt,
                    "\(layout.root.path): AdditionalContent does not match what the store last committed, and no staged copy does. Restore the document from another copy.",
                    path: layout.root.path)
            }
            if writable {
                try fileSystem.moveIntoPlace(layout.stagedAdditionalContent, replacing: layout.additionalContent)
            } else {
                readsStagedAdditionalContent = true
            }
            current = next
        } else if staged, writable {
            try fileSystem.removeItem(at: layout.stagedAdditionalContent)
        }
        let sequence = try store.metadataValue(forKey: StoreKey.saveSequence).flatMap(Int.init) ?? metadata.saveSequence
        guard sequence != metadata.saveSequence || metadata.additionalContent != current.files else {
            // Left by autosaves (or a crash after them): a writable document gets a current hash.
            return writable ? try refreshStoreHash(metadata, store: store) : metadata
        }
        var repaired = metadata
        repaired.saveSequence = sequence
        repaired.storeHash = try ContentDigest.store(store)
        repaired.storeHashSaveSequence = sequence
        repaired.additionalContent = current.files
        if writable { try writeMetadata(repaired) }
        return repaired
    }

    // MARK: - Additional content

    /// The files of `AdditionalContent/`, by relative path.
    func readAdditionalContent() throws -> [String: Data] {
        var files: [String: Data] = [:]
        let root = committedAdditionalContent
        guard let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey]) else { return [:] }
        for case let url as URL in walker where (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true {
            let relative = String(url.standardizedFileURL.path.dropFirst(root.standardizedFileURL.path.count + 1))
            files[relative] = try Data(contentsOf: url)
        }
        return files
    }

    /// Writes `files` as the next additional content (not yet in place), returning the
    /// digest the store must record to commit it.
    func stageAdditionalContent(_ files: [String: Data]) throws -> String {
        try fileSystem.writeDirectory(at: layout.stagedAdditionalContent) { folder in
            try writeFiles(files, into: folder)
        }
        return try ContentDigest.additionalContent(layout.stagedAdditionalContent, fileSystem: fileSystem).digest
    }

    /// Moves staged additional content into place (after the store committed it).
    func installStagedAdditionalContent() throws {
        try fileSystem.moveIntoPlace(layout.stagedAdditionalContent, replacing: layout.additionalContent)
    }

    // MARK: - Copies

    /// Writes the package as an archive: the store as one file (no lock, no `-wal`) and the
    /// metadata and additional content of the same save.
    ///
    /// A writer's store (not read-only) is checkpointed first; when that empties its log, the
    /// package is archived as it is, under a read transaction that keeps the main file as it
    /// is until the archive is written. Otherwise (a store opened read-only, whose log may be
    /// another process's to checkpoint, or a checkpoint that readers elsewhere kept from
    /// completing) a copy made by ``copy(of:into:)`` in a hidden folder beside `archive` is
    /// archived and removed.
    func pack(store: PersistentStore, to archive: URL, format: ArchiveFormat, modificationTime: Int64) throws {
        let options = ArchiveWriteOptions(
            modificationTime: modificationTime, excludedPaths: PackageLayout.notPacked, includesManifest: true)
        let fileSystem = self.fileSystem
        if !store.options.readOnly, try store.checkpoint() {
            let root = layout.root
            let packed = try store.whileMainFileHoldsEverything {
                try Archive.write(directory: root, to: archive, format: format, options: options, fileSystem: fileSystem)
            }
            if packed != nil { return }
        }
        let scratch = archive.deletingLastPathComponent().appendingPathComponent(
            ".\(archive.lastPathComponent).snapshot-\(String(UInt32.random(in: .min ... .max), radix: 16))", isDirectory: true)
        try fileSystem.createDirectory(at: scratch)
        defer { try? FileManager.default.removeItem(at: scratch) }
        try copy(of: store, into: scratch)
        try Archive.write(directory: scratch, to: archive, format: format, options: options, fileSystem: fileSystem)
    }

    /// Writes a copy of the package (see ``copy(of:into:)``) at `target`, replacing what is
    /// there in one swap.
    func copyPackage(store: PersistentStore, to target: URL) throws {
        try fileSystem.writeDirectory(at: target) { folder in try copy(of: store, into: folder) }
    }

    /// Fills `folder` (which exists and is empty) with a package holding this one as the
    /// store's last commit left it: the store copied with ``PodDocStore/PersistentStore/writeSnapshot(to:)``
    /// (commits still in the `-wal` included, nothing written to this package), the additional
    /// content that commit refers to, and the metadata brought to that save (with the store's
    /// hash when the metadata's hash describes another save).
    ///
    /// - Throws: ``DocumentError`` (`.fileSystem`) when the additional content changed while
    ///   it was copied (a writer saved meanwhile: copying again gets the next save), or the
    ///   errors of the store, the metadata and the file system.
    private func copy(of store: PersistentStore, into folder: URL) throws {
        let copy = PackageLayout(root: folder)
        try fileSystem.createDirectory(at: copy.storeContent)
        try store.writeSnapshot(to: copy.store)
        let snapshot = try PersistentStore(url: copy.store, model: store.model, options: PersistentStore.Options(readOnly: true))
        defer { try? snapshot.close() }
        try fileSystem.createDirectory(at: copy.additionalContent)
        try writeFiles(try readAdditionalContent(), into: copy.additionalContent)
        let additional = try ContentDigest.additionalContent(copy.additionalContent, fileSystem: fileSystem)
        if let committed = try snapshot.metadataValue(forKey: StoreKey.additionalContentDigest), committed != additional.digest {
            throw DocumentError(
                .fileSystem,
                "\(layout.root.path) was saved while it was being copied (its additional content is no longer the one the copied store refers to); copy it again.",
                path: layout.root.path)
        }
        var metadata = try readMetadata()
        let sequence = try snapshot.metadataValue(forKey: StoreKey.saveSequence).flatMap(Int.init) ?? metadata.saveSequence
        // A copy of an older store read through its upgraded copy holds the upgraded store:
        // its hash and model version are that store's.
        if sequence != metadata.saveSequence || !metadata.isStoreHashCurrent || store.readsUpgradedCopy {
            metadata.saveSequence = sequence
            metadata.storeHash = try ContentDigest.store(snapshot)
            metadata.storeHashSaveSequence = sequence
        }
        metadata.schemaVersion = snapshot.model.version
        metadata.additionalContent = additional.files
        let data = metadata.encoded()
        try fileSystem.createFile(at: copy.metadata) { try $0.write(data) }
    }

    /// Writes this package (which must not exist) holding a document's version but its
    /// store: the metadata and the additional content its store committed, with an empty
    /// `StoreContent/` for the store.
    func writeVersion(metadata: DocumentMetadata, additionalContent: [String: Data]) throws {
        let data = metadata.encoded()
        try fileSystem.writeDirectory(at: layout.root, replacingExisting: false) { folder in
            let package = PackageLayout(root: folder)
            try fileSystem.createDirectory(at: package.storeContent)
            try fileSystem.createDirectory(at: package.additionalContent)
            try writeFiles(additionalContent, into: package.additionalContent)
            try fileSystem.createFile(at: package.metadata) { try $0.write(data) }
        }
    }

    /// Creates `files` (by relative path) in `folder`, which exists.
    private func writeFiles(_ files: [String: Data], into folder: URL) throws {
        for (path, data) in files.sorted(by: { $0.key < $1.key }) {
            let url = folder.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try fileSystem.createFile(at: url) { try $0.write(data) }
        }
    }
}

/// Reads fields of an SQLite file's 100-byte header without opening it.
enum SQLiteHeader {
    /// The `user_version` (header offset 60), or nil when the file is not SQLite.
    static func userVersion(of url: URL) -> Int? {
        guard let handle = try? FileHandle(forReadingFrom: url) else { return nil }
        defer { try? handle.close() }
        guard let header = try? handle.read(upToCount: 100), header.count == 100,
            header.prefix(16) == Data("SQLite format 3\0".utf8)
        else { return nil }
        return header[60..<64].reduce(0) { $0 << 8 | Int($1) }
    }
}
