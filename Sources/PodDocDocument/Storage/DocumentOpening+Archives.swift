import Foundation
import PodDocArchive
import PodDocFileSystem
import PodDocStore

extension DocumentOpening {
    // MARK: - Archives

    /// Opens an archive by way of its per-user working copy: the archive is unpacked there
    /// (checked entry by entry, manifest verified), or a working copy with unsaved work is
    /// recovered or discarded as the options say.
    static func openArchive(
        _ url: URL, format: ArchiveFormat, model: ModelProvider, options: ManagedDocument.OpenOptions
    ) throws -> OpenedParts {
        if options.readOnly && options.recovery != .recover {
            return try openArchiveToRead(url, format: format, model: model, options: options)
        }
        let fs = options.fileSystem
        let copy = try WorkingCopy.forDocument(url, environment: options.environment)
        try copy.prepareFolder(fileSystem: fs)
        let lock = try acquireLock(copy.folder.appendingPathComponent(lockName), readOnly: false, document: url, fileSystem: fs)
        let besideLock = try acquireBesideLock(for: url, releasing: lock, fileSystem: fs)
        var recovering = false
        let untrusted = options.untrustedStore ?? true
        if copy.exists, let origin = copy.readOrigin(), origin.dirty {
            switch options.recovery {
            case .ask:
                lock?.release()
                besideLock?.release()
                throw DocumentError(
                    .recoveryAvailable,
                    "\(url.path) has unsaved work from \(origin.modified) in its working copy \(copy.package.path). Recover it with `poddoc recover \(url.path)` (or `--as NEW` for a copy, `--discard` to drop it), or open with --recover or --discard.",
                    path: url.path)
            case .recover:
                recovering = true
            case .discard:
                break
            }
        }
        if !recovering {
            do {
                try fs.removeItem(at: copy.package)
                // The store's integrity check runs beside the unpacking, on the store's bytes.
                try Archive.extract(
                    archive: url, into: copy.package, manifestPolicy: .require,
                    checking: untrusted ? storeCheck : nil, fileSystem: fs)
                try fs.removeItem(at: copy.package.appendingPathComponent(Manifest.fileName))
                try copy.writeOrigin(
                    .init(
                        archivePath: url.standardizedFileURL.path, dirty: false, modified: Date(),
                        archiveStamp: FileStamp.of(url)), fileSystem: fs)
            } catch {
                try? copy.remove(fileSystem: fs)
                lock?.release()
                besideLock?.release()
                throw DocumentError.wrap(
                    error, DocumentError.code(for: error, otherwise: .archive), while: "unpack \(url.path)", path: url.path)
            }
        }
        do {
            let parts = try openPackage(
                PackageLayout(root: copy.package), model: model, options: options, lockFile: copy.folder.appendingPathComponent(lockName),
                workingCopy: copy, fileURL: url, format: .archive(format),
                untrusted: untrusted ? (recovering ? .unchecked : .checked) : nil, heldLock: lock)
            // Recovered work was made on the archive as it was then: if the archive has changed
            // since (another writer), writing it back would silently undo that writer's work,
            // so the first save meets a conflict instead. An archive that holds exactly the
            // working copy's last save (our own write-back, cut short before origin.json
            // recorded it) is no conflict.
            if recovering, let taken = copy.readOrigin()?.archiveStamp, parts.stamp != taken,
                !holdsSameSave(archive: url, as: PackageLayout(root: copy.package))
            {
                parts.stamp = taken
            }
            parts.besideLock = besideLock
            return parts
        } catch {
            // A copy unpacked for this open holds nothing but the archive: it goes, and with
            // it the folder, so a refused open leaves nothing `recover` would not list.
            if !recovering { try? copy.remove(fileSystem: fs) }
            lock?.release()
            besideLock?.release()
            throw error
        }
    }

    /// Opens an archive to read it, as it is on disk: unpacked (checked as always) into a
    /// private reading copy, never the working copy, so it works while a writer has the
    /// archive open and whatever work waits for recovery (which `info` describes apart;
    /// reading with `.recover` reads that work instead, from the working copy).
    private static func openArchiveToRead(
        _ url: URL, format: ArchiveFormat, model: ModelProvider, options: ManagedDocument.OpenOptions
    ) throws -> OpenedParts {
        let fs = options.fileSystem
        WorkingCopy.sweepReadingCopies(environment: options.environment, fileSystem: fs)
        let copy = WorkingCopy.forReading(environment: options.environment)
        do {
            try copy.prepareFolder(fileSystem: fs)
        } catch {
            throw DocumentError.wrap(error, .fileSystem, while: "make a folder to unpack \(url.path) into for reading", path: url.path)
        }
        // Held while reading, so the sweep of another process leaves this copy alone.
        let lock = try acquireLock(copy.folder.appendingPathComponent(lockName), readOnly: false, document: url, fileSystem: fs)
        do {
            let untrusted = options.untrustedStore ?? true
            try Archive.extract(
                archive: url, into: copy.package, manifestPolicy: .require,
                checking: untrusted ? storeCheck : nil, fileSystem: fs)
            try fs.removeItem(at: copy.package.appendingPathComponent(Manifest.fileName))
            let parts = try openPackage(
                PackageLayout(root: copy.package), model: model, options: options, lockFile: copy.folder.appendingPathComponent(lockName),
                workingCopy: copy, fileURL: url, format: .archive(format),
                untrusted: untrusted ? .checked : nil, heldLock: lock)
            parts.stamp = FileStamp.of(url)
            return parts
        } catch {
            lock?.release()
            try? copy.remove(fileSystem: fs)
            throw DocumentError.wrap(
                error, DocumentError.code(for: error, otherwise: .archive), while: "unpack \(url.path) to read it", path: url.path)
        }
    }

    /// Whether the archive's `DocumentMetadata.json` is byte for byte the package's: the
    /// archive then holds the same save (save number and store hash) as the working copy.
    private static func holdsSameSave(archive: URL, as package: PackageLayout) -> Bool {
        guard let packed = try? Archive.readFile(named: "DocumentMetadata.json", in: archive),
            let ours = try? Data(contentsOf: package.metadata)
        else { return false }
        return packed == ours
    }

    /// The untrusted store's `quick_check`, run beside the unpacking as soon as the store is
    /// written: on its bytes mapped into memory, or on the file when they cannot be (when the
    /// archive has a store; opening reports a missing one).
    private static let storeCheck = ExtractedFileCheck(path: PackageLayout.storePath) { file in
        if let image = file.bytes {
            try PersistentStore.checkIntegrity(ofImage: image, of: file.url)
        } else {
            try PersistentStore.checkIntegrity(ofFileAt: file.url)
        }
    }
}
