import Foundation
import PodDocArchive
import PodDocFileSystem
import PodDocStore

/// Everything an open document needs from disk, prepared off the main actor.
final class OpenedParts {
    let store: PersistentStore
    let files: DocumentFiles
    let metadata: DocumentMetadata
    let additionalContent: [String: Data]
    let workingCopy: WorkingCopy?
    let lock: DocumentLock?
    /// An archive's lock beside it (`.NAME.poddoc-lock`), which every user and machine sharing
    /// its folder sees; `lock` is the working copy's, which only this user's processes see.
    var besideLock: DocumentLock?
    var stamp: FileStamp?
    let format: DocumentFormat
    let fileURL: URL?
    let readOnly: Bool

    var model: ObjectModel { store.model }

    init(
        store: PersistentStore, files: DocumentFiles, metadata: DocumentMetadata, additionalContent: [String: Data],
        workingCopy: WorkingCopy?, lock: DocumentLock?, stamp: FileStamp?, format: DocumentFormat, fileURL: URL?, readOnly: Bool
    ) {
        self.store = store
        self.files = files
        self.metadata = metadata
        self.additionalContent = additionalContent
        self.workingCopy = workingCopy
        self.lock = lock
        self.stamp = stamp
        self.format = format
        self.fileURL = fileURL
        self.readOnly = readOnly
    }
}

/// How a store from elsewhere is opened: with the defensive settings, and `quick_check` unless
/// it ran already while the store was unpacked.
enum UntrustedStore {
    case unchecked
    case checked
}

/// Chooses the object model for a document's kind, once its metadata has been read.
/// The model to open a document of a kind with; nil for the model its store records.
typealias ModelProvider = @Sendable (DocumentKind) throws -> ObjectModel?

/// Opening and creating documents: locks, archives, working copies, recovery, repair.
enum DocumentOpening {
    static let lockName = ".poddoc-lock"

    /// Opens the package or archive at `url`. An archive reached through a symbolic link is
    /// opened (locked, written back) at the link's target.
    static func open(_ url: URL, model: ModelProvider, options: ManagedDocument.OpenOptions) throws -> OpenedParts {
        let url = resolvingLinks(url)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw DocumentError(
                .notADocument, "\(url.path) does not exist. Check the path, or create it with `poddoc new`.", path: url.path)
        }
        if isDirectory.boolValue {
            if !options.readOnly, let waiting = WorkingCopy.waiting(for: url, environment: options.environment) {
                if let parts = try openKeptVersion(waiting, of: url, model: model, options: options) { return parts }
            }
            return try openPackage(
                PackageLayout(root: url), model: model, options: options,
                lockFile: PackageLayout(root: url).lock, workingCopy: nil, fileURL: url, format: .package,
                untrusted: (options.untrustedStore ?? false) ? .unchecked : nil)
        }
        let format: ArchiveFormat
        do {
            format = try Archive.detectFormat(of: url)
        } catch {
            throw DocumentError(
                .notADocument,
                "\(url.path) is a plain file, not a poddoc document: a document is a `Name.poddoc` folder or an archive of one (.tar.zst, .zip, .tar.gz).",
                path: url.path, cause: error)
        }
        return try openArchive(url, format: format, model: model, options: options)
    }

    // MARK: - Packages

    static func openPackage(
        _ layout: PackageLayout, model: ModelProvider, options: ManagedDocument.OpenOptions, lockFile: URL,
        workingCopy: WorkingCopy?, fileURL: URL?, format: DocumentFormat, untrusted: UntrustedStore?,
        heldLock: DocumentLock? = nil
    ) throws -> OpenedParts {
        try layout.checkNoLinkedParts()
        var files = DocumentFiles(layout: layout, fileSystem: options.fileSystem)
        guard FileManager.default.fileExists(atPath: layout.metadata.path) || FileManager.default.fileExists(atPath: layout.store.path)
        else {
            throw DocumentError(
                .notADocument,
                "\(layout.root.path) is a folder but not a poddoc document (no DocumentMetadata.json, no StoreContent/persistentStore).",
                path: layout.root.path)
        }
        // A short read takes the lock before it reads anything, so that the metadata and the
        // store it reads are of one save.
        var readersLock: DocumentLock?
        var editors = PersistentStore.Options.Editors.unknown
        if options.readOnly, heldLock == nil, options.readSharing == .excludingEditors {
            switch DocumentLock.acquireForReading(lockFile, fileSystem: options.fileSystem) {
            case .held(let shared):
                readersLock = shared
                editors = .excluded
            case .editorPresent:
                editors = .present
            case .unavailable:
                break
            }
        }
        var metadata = try files.readMetadata()
        let kindModel = try resolveModel(model, of: metadata.kind, layout: layout, editors: editors, document: fileURL ?? layout.root)
        var readOnly = options.readOnly
        if metadata.isNewerFormat {
            guard options.readOnly else {
                let document = (fileURL ?? layout.root).path
                throw DocumentError(.newerFormat, metadata.newerFormatMessage(document: document, refusing: "edit it"), path: document)
            }
            readOnly = true
        }
        if !readOnly, heldLock == nil, let found = SQLiteHeader.userVersion(of: layout.store),
            case let known = kindModel.version, found > known
        {
            // Refused before the lock, so that nothing is written (the store checks again,
            // for a version a crash left in its -wal).
            let document = (fileURL ?? layout.root).path
            throw DocumentError(
                .newerFormat,
                "\(document) \(StoreError.newerModelDescription(found: found, known: known))",
                path: document)
        }
        let lock =
            try heldLock ?? readersLock ?? acquireLock(lockFile, readOnly: readOnly, document: layout.root, fileSystem: options.fileSystem)
        if !readOnly {
            // With the lock held, what a save killed midway left behind can go.
            for folder in [layout.root, workingCopy?.folder].compactMap({ $0 }) {
                do {
                    try options.fileSystem.removeTemporaryItems(in: folder)
                } catch {
                    throw DocumentError.wrap(
                        error, .fileSystem, while: "remove temporary files left in \(folder.path)", path: layout.root.path)
                }
            }
        }
        let store: PersistentStore
        let migrated: Bool
        do {
            if !readOnly, let found = SQLiteHeader.userVersion(of: layout.store), case let current = kindModel,
                found < current.version
            {
                // A writing open upgrades the store: checked first, as it is on disk.
                try files.verifyBeforeUpgrading(metadata: metadata, model: current)
            }
            (store, migrated) = try files.openStore(
                model: kindModel, readOnly: readOnly, untrusted: untrusted,
                ledger: readOnly ? nil : StateReplicaLedger(environment: options.environment), editors: editors)
        } catch let error as StoreError where error.code == .newerSchema && !readOnly {
            // Named by the user's document, not the store inside it.
            lock?.release()
            let document = (fileURL ?? layout.root).path
            let detail = error.message.range(of: " was made by a newer poddoc").map { String(error.message[$0.lowerBound...]) }
            throw DocumentError(.newerFormat, document + (detail ?? ": " + error.message), path: document, cause: error)
        } catch let error as StoreError where error.code == .readOnly && !readOnly {
            lock?.release()
            throw readOnlyDocument(fileURL ?? layout.root, cause: error)
        } catch let error as StoreError where error.code == .corrupt || error.code == .notAStore {
            // A damaged store is an integrity failure for every command, as `check` says.
            lock?.release()
            throw DocumentError.wrap(error, .corrupt, while: "open the store of \(layout.root.path)", path: layout.root.path)
        } catch {
            throw DocumentError.wrap(error, .store, while: "open the store of \(layout.root.path)", path: layout.root.path)
        }
        do {
            if !readOnly {
                try files.verifyBeforeWriting(store: store, metadata: metadata, quickChecked: untrusted != nil, migrated: migrated)
                if (migrated || metadata.schemaVersion != store.model.version) && metadata.isStoreHashCurrent {
                    // The upgrade changed the store's content (now, or at an open cut off
                    // before it recorded so): the metadata describes it now.
                    metadata = try files.writeMetadata(
                        after: metadata, saveSequence: metadata.saveSequence, store: store, hashingStore: true)
                }
            }
            metadata = try files.reconcile(store: store, metadata: metadata, writable: !readOnly)
        } catch let error as DocumentError {
            try? store.close()
            lock?.release()
            throw error
        } catch {
            try? store.close()
            throw DocumentError.wrap(error, .corrupt, while: "check \(layout.root.path)", path: layout.root.path)
        }
        let additional = try files.readAdditionalContent()
        let stamp = format.isArchive ? fileURL.flatMap(FileStamp.of) : FileStamp.of(layout.metadata)
        return OpenedParts(
            store: store, files: files, metadata: metadata, additionalContent: additional, workingCopy: workingCopy,
            lock: lock, stamp: stamp, format: format, fileURL: fileURL, readOnly: readOnly)
    }

    /// The model to open a package of `kind` with: the provider's, or for a kind it does not
    /// know, the one the package's store records.
    private static func resolveModel(
        _ provider: ModelProvider, of kind: DocumentKind, layout: PackageLayout, editors: PersistentStore.Options.Editors, document: URL
    ) throws -> ObjectModel {
        if let model = try provider(kind) { return model }
        guard FileManager.default.fileExists(atPath: layout.store.path) else {
            throw DocumentError(
                .missingStore, "\(layout.root.path) has no store (StoreContent/persistentStore is missing); the document is incomplete.",
                path: layout.root.path)
        }
        let recorded: ObjectModel?
        do {
            recorded = try PersistentStore.recordedModel(ofStoreAt: layout.store, editors: editors)
        } catch let error as StoreError where error.code == .corrupt || error.code == .notAStore {
            throw DocumentError.wrap(error, .corrupt, while: "read the model of \(document.path)", path: document.path)
        } catch {
            throw DocumentError.wrap(error, .store, while: "read the model of \(document.path)", path: document.path)
        }
        guard let recorded else {
            throw DocumentError(
                .wrongKind,
                "\(document.path) is a document of kind '\(kind)', which this program does not know, and its store records no model to read it with. Open it with the app that made it.",
                path: document.path)
        }
        return recorded
    }

    /// Opens the user's version of a package kept in a working copy when the package changed
    /// behind an open document (see ``ManagedDocument``'s conflicts), as the options say:
    /// asks (an error naming the choices), recovers it (in conflict unless the package holds
    /// exactly its last save), or discards it and returns nil (the package opens as it is).
    private static func openKeptVersion(
        _ copy: WorkingCopy, of url: URL, model: ModelProvider, options: ManagedDocument.OpenOptions
    ) throws -> OpenedParts? {
        let fs = options.fileSystem
        let lock = try acquireLock(copy.folder.appendingPathComponent(lockName), readOnly: false, document: url, fileSystem: fs)
        let origin = copy.readOrigin()
        switch options.recovery {
        case .ask:
            lock?.release()
            let when = origin.map { " from \($0.modified.formatted(.iso8601))" } ?? ""
            throw DocumentError(
                .recoveryAvailable,
                "\(url.path) changed on disk while it was open, and your version\(when) waits in \(copy.package.path). Recover it (`poddoc recover \(url.path)`, then --keep-mine, --discard or --as NEW), or open with --discard to drop it.",
                path: url.path)
        case .discard:
            defer { lock?.release() }
            do {
                try copy.remove(fileSystem: fs)
            } catch {
                throw DocumentError.wrap(
                    error, .fileSystem, while: "discard the version of \(url.path) kept in \(copy.folder.path)", path: url.path)
            }
            return nil
        case .recover:
            break
        }
        do {
            let parts = try openPackage(
                PackageLayout(root: copy.package), model: model, options: options, lockFile: copy.folder.appendingPathComponent(lockName),
                workingCopy: copy, fileURL: url, format: .package, untrusted: .unchecked, heldLock: lock)
            // Stamped as the package was when the work was kept apart: unless the package holds
            // exactly this version's last save, the first save back is a conflict.
            let metadata = PackageLayout(root: url).metadata
            if let taken = origin?.archiveStamp, FileStamp.of(metadata) != taken,
                (try? Data(contentsOf: metadata)) != (try? Data(contentsOf: parts.files.layout.metadata))
            {
                parts.stamp = taken
            } else {
                parts.stamp = FileStamp.of(metadata)
            }
            return parts
        } catch {
            lock?.release()
            throw error
        }
    }

    /// The path of `url` with its symbolic links resolved (as `realpath`), when it exists: an
    /// archive edited through a link is the link's target, written back there and locked as
    /// the target is.
    static func resolvingLinks(_ url: URL) -> URL {
        guard let real = realpath(url.path, nil) else { return url }
        defer { free(real) }
        let path = String(cString: real)
        guard path != url.standardizedFileURL.path else { return url }
        return URL(fileURLWithPath: path, isDirectory: url.hasDirectoryPath)
    }

    /// The lock file beside an archive, `.NAME.poddoc-lock` in the archive's folder, which
    /// every user and machine sharing the folder sees (a working copy's lock is in one user's
    /// state folder). A name too long for the file system is shortened and keeps a digest of
    /// the whole name.
    static func besideLockFile(for archive: URL) -> URL {
        let name = archive.lastPathComponent
        let suffix = ".poddoc-lock"
        var lockName = "." + name + suffix
        if lockName.utf8.count > 255 {
            lockName = "." + WorkingCopy.shortened(name, toBytes: 200) + "-" + WorkingCopy.digest(of: name) + suffix
        }
        return archive.deletingLastPathComponent().appendingPathComponent(lockName)
    }

    /// Takes an archive's lock beside it (see ``besideLockFile(for:)``), released with
    /// `heldLock` when it cannot be taken.
    static func acquireBesideLock(for archive: URL, releasing heldLock: DocumentLock?, fileSystem: FileSystem) throws -> DocumentLock? {
        do {
            return try acquireLock(
                besideLockFile(for: archive), readOnly: false, document: archive, fileSystem: fileSystem, kind: .besideDocument)
        } catch {
            heldLock?.release()
            throw error
        }
    }

    /// Takes the document's exclusive lock. A read-only open takes none: it writes nothing,
    /// and must work while another process edits the document.
    static func acquireLock(
        _ lockFile: URL, readOnly: Bool, document: URL, fileSystem: FileSystem, kind: LockFileKind = .owned
    ) throws -> DocumentLock? {
        guard !readOnly else { return nil }
        do {
            return try DocumentLock.acquire(
                lockFile, mode: .exclusive, toolVersion: PodDocVersion.writer, fileSystem: fileSystem, kind: kind)
        } catch let error as FileSystemError where error.code == .locked {
            throw DocumentError(.locked, "\(document.path) is open in another process: \(error.message)", path: document.path, cause: error)
        } catch let error as FileSystemError where [EROFS, EACCES, EPERM].contains(error.errno ?? 0) {
            throw readOnlyDocument(document, cause: error)
        } catch {
            throw DocumentError.wrap(error, .fileSystem, while: "lock \(document.path)", path: document.path)
        }
    }

    /// The error for a document this process cannot write: a read-only disk, a file marked
    /// immutable, another user's folder.
    static func readOnlyDocument(_ document: URL, cause: (any Error)?) -> DocumentError {
        DocumentError(
            .readOnly,
            "\(document.path) is read-only here (a read-only disk, an immutable file, or not yours to write): commands that only read it work (`poddoc open --read-only` for a shell); to change it, save a copy elsewhere with `poddoc save \(document.path) --as NEW`.",
            path: document.path, cause: cause)
    }

    // MARK: - Recovery

    /// Working copies holding work not written back, with no live process editing them.
    static func recoverable(environment: [String: String], fileSystem: FileSystem) -> [RecoverableDocument] {
        WorkingCopy.all(environment: environment).compactMap { copy in
            guard copy.exists, let origin = copy.readOrigin(), origin.dirty else { return nil }
            if let holder = try? DocumentLock.currentHolder(of: copy.folder.appendingPathComponent(lockName), fileSystem: fileSystem),
                holder.isRunning == true
            {
                return nil
            }
            return RecoverableDocument(
                archive: origin.archivePath.map { URL(fileURLWithPath: $0) }, workingCopy: copy.package, modified: origin.modified)
        }
    }
}
