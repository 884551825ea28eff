import Foundation
import PodDocFileSystem
import PodDocStore

// MARK: - Conflicts: the document changed on disk behind it

extension ManagedDocument {
    /// Resolves a conflict (the document changed on disk since it was opened).
    ///
    /// - `keepMine` writes this version over the one on disk;
    /// - `takeTheirs` reloads the one on disk, dropping this version's unsaved work;
    /// - `saveAsCopy` writes this version to a new document and goes on there, leaving the
    ///   one on disk as it is.
    ///
    /// - Throws: ``DocumentError`` from the save or reload.
    public func resolveConflict(_ resolution: ConflictResolution) async throws {
        switch resolution {
        case .keepMine:
            try await serializedSave(.save, overwritingConflict: true)
        case .takeTheirs:
            guard let url = fileURL else { return }
            try await reopen(at: url, discardingWorkingCopy: true)
        case .saveAsCopy(let url):
            try await save(as: url)
        }
        state.remove(.inConflict)
    }

    /// Looks at the document on disk and enters the in-conflict state if someone else changed it.
    ///
    /// - Returns: whether the document is in conflict.
    @discardableResult
    public func checkForChangesOnDisk() async -> Bool {
        do {
            try await checkNotChangedElsewhere()
        } catch {
            return true
        }
        return state.contains(.inConflict)
    }

    /// Marks the document in conflict and refuses to save when it changed on disk. A package
    /// edited in place first moves its own version into a working copy (see
    /// ``keepVersionApart(of:)``), so nothing more is written into the changed package until
    /// the user chooses.
    func checkNotChangedElsewhere() async throws {
        guard let file = stampedFile else { return }
        let expected = stamp
        let now = try await Self.onDisk { FileStamp.of(file) }
        guard now != expected else { return }
        state.insert(.inConflict)
        if let url = fileURL, workingCopy == nil { try await keepVersionApart(of: url) }
        throw DocumentError(
            .inConflict,
            "\(displayName) was changed on disk by someone else since it was opened. Choose: merge theirs into yours and save, keep mine (overwrite theirs), take theirs (reload, dropping your unsaved changes), or save yours as a copy elsewhere.",
            path: fileURL?.path)
    }

    /// The file whose stamp tells whether the document changed elsewhere: the archive, or the
    /// package's metadata (rewritten by every save).
    var stampedFile: URL? {
        guard let url = fileURL else { return nil }
        return format.isArchive ? url : PackageLayout(root: url).metadata
    }

    /// Moves this document's version of a package that changed on disk into the package's
    /// working copy and goes on there, as an archive document does: the store is copied from
    /// this document's own connection (the file at the package's path may be someone else's
    /// now), with the metadata and additional content its last save committed. Autosaves go
    /// there; an explicit save is a conflict until the user chooses; a quit or a crash leaves
    /// it where `poddoc recover` finds it.
    ///
    /// Runs inside a save (or in place of one): the store moves on the root context's queue,
    /// between two of its saves.
    private func keepVersionApart(of url: URL) async throws {
        let fs = options.fileSystem
        let metadata = self.metadata
        let additional = bookkeeping.savedAdditionalContent
        let environment = options.environment
        let taken = stamp
        do {
            let (copy, lock, files) = try await Self.onDisk {
                let copy = try WorkingCopy.forDocument(url, environment: environment)
                try copy.prepareFolder(fileSystem: fs)
                let lock = try DocumentOpening.acquireLock(
                    copy.folder.appendingPathComponent(DocumentOpening.lockName), readOnly: false,
                    document: url, fileSystem: fs)
                do {
                    try fs.removeItem(at: copy.package)
                    let files = DocumentFiles(layout: PackageLayout(root: copy.package), fileSystem: fs)
                    try files.writeVersion(metadata: metadata, additionalContent: additional)
                    return (copy, lock, files)
                } catch {
                    lock?.release()
                    throw error
                }
            }
            let store = self.store
            do {
                try await rootContext.perform { _ in try store.continueOnCopy(at: files.layout.store) }
                try await Self.onDisk {
                    try fs.syncDirectory(at: files.layout.storeContent)
                    try copy.writeOrigin(
                        .init(archivePath: url.standardizedFileURL.path, dirty: true, modified: Date(), archiveStamp: taken), fileSystem: fs
                    )
                }
            } catch {
                lock?.release()
                throw error
            }
            self.lock?.release()
            self.lock = lock
            self.files = files
            workingCopy = copy
        } catch {
            throw DocumentError.wrap(
                error, DocumentError.code(for: error),
                while:
                    "keep your version of \(displayName) apart (it changed on disk); your edits are still open here, `save --as` elsewhere keeps them",
                path: url.path)
        }
    }
}
