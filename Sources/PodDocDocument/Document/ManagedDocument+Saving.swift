import Foundation
import PodDocArchive
import PodDocFileSystem
import PodDocStore

// MARK: - Saving

extension ManagedDocument {
    enum SaveKind {
        /// An explicit save: an archive document is re-packed.
        case save
        /// An autosave: in place for packages, into the working copy for archives and
        /// never-saved documents.
        case autosave
    }

    /// Saves the document (see the type's documentation for the order of the steps). An
    /// archive document is re-packed into its archive.
    ///
    /// - Throws: ``DocumentError``: `.inConflict` when the document changed on disk since it
    ///   was opened (resolve with ``resolveConflict(_:)``), `.notSaved` for a never-saved
    ///   document (use ``save(as:format:)``), `.readOnly`, `.closed`, `.store`, `.fileSystem`,
    ///   `.archive`. A failed save keeps every edit in memory.
    public func save() async throws {
        guard fileURL != nil else {
            throw DocumentError(.notSaved, "This document has never been saved; save it with a name first (save as).")
        }
        try await serializedSave(.save)
    }

    /// Writes a copy of the document, in any format, and keeps editing the original.
    ///
    /// - Parameters:
    ///   - url: Where the copy goes; must not exist.
    ///   - format: Package or archive; by default from `url`'s ending.
    /// - Throws: ``DocumentError``.
    public func save(to url: URL, format: DocumentFormat? = nil) async throws {
        if !state.contains(.editingDisabled) { try await serializedSave(.autosave) }  // read-only: nothing unsaved
        try await updateStoreHash()
        let target = format ?? DocumentFormat(inferringFrom: url)
        let files = self.files
        let store = self.store
        let modified = modificationTime
        try await Self.onDisk {
            do {
                switch target {
                case .package: try files.copyPackage(store: store, to: url)
                case .archive(let archiveFormat): try files.pack(store: store, to: url, format: archiveFormat, modificationTime: modified)
                }
            } catch {
                throw DocumentError.wrap(
                    error, target.isArchive ? .archive : .fileSystem, while: "write a copy to \(url.path)", path: url.path)
            }
        }
    }

    /// Saves the document at a new place and format and continues there (package ↔ archive in
    /// any direction). The contexts are replaced: fetch objects again from ``mainContext``.
    ///
    /// - Throws: ``DocumentError``.
    public func save(as url: URL, format: DocumentFormat? = nil) async throws {
        try await save(to: url, format: format)
        try await reopen(at: url, discardingWorkingCopy: true, editable: true)
    }

    /// Drops every change since the last save or autosave.
    ///
    /// - Throws: ``DocumentError`` when the additional content cannot be read again.
    public func revert() async throws {
        try checkOpen()
        await rootContext.perform { $0.rollback() }
        mainContext.rollback()
        mainContext.reset()
        undoManager.removeAllActions()
        let files = self.files
        let content = try await Self.onDisk { try files.readAdditionalContent() }
        additionalContent = content
        bookkeeping.reset(savedAdditionalContent: content)
        state.remove(.savingError)
    }

    // MARK: - The save protocol

    /// Runs one save at a time; a save asked for while another runs waits for it.
    @discardableResult
    func serializedSave(
        _ kind: SaveKind, overwritingConflict: Bool = false, describing work: SaveWork? = nil
    ) async throws -> ObjectContext.WrittenMerge? {
        try checkOpen()
        guard !state.contains(.editingDisabled) else {
            throw DocumentError(.readOnly, "\(displayName) was opened read-only; save a copy elsewhere instead.", path: fileURL?.path)
        }
        await waitForRunningSave()
        // Nothing to write: a save changes nothing on disk (two exports stay identical).
        // (A worker's save into the root may not have been counted yet: ask the root too.)
        // After a failed save, a retry saves in full even with no new edits: the failure may
        // have come after the store's commit, leaving the metadata behind it.
        var needed =
            hasUnsavedChanges || state.contains(.savingError) || (kind == .save && workingCopyIsDirty) || overwritingConflict
            || work?.merge != nil
        if !needed { needed = await rootContext.perform { $0.hasChanges } }
        guard needed else { return nil }
        let task = Task { @MainActor in try await self.saveSteps(kind, overwritingConflict: overwritingConflict, describing: work) }
        bookkeeping.started(task)
        defer { bookkeeping.ended(task) }
        do {
            let written = try await task.value
            state.remove(.savingError)
            return written
        } catch let error as DocumentError {
            if error.code != .inConflict { state.insert(.savingError) }
            throw error
        }
    }

    private func saveSteps(
        _ kind: SaveKind, overwritingConflict: Bool, describing work: SaveWork?
    ) async throws -> ObjectContext.WrittenMerge? {
        // Every save looks at the document on disk first. An autosave into a working copy
        // (an archive's, or a package's after a conflict) never writes the document: a change
        // of the document elsewhere puts it in conflict but does not stop the autosave (the
        // edits stay safe on disk while the user chooses); the save that would write the
        // document back stops. A package found changed moves its version into a working copy
        // (see `keepVersionApart`), where the autosave then goes.
        if !overwritingConflict {
            do {
                try await checkNotChangedElsewhere()
            } catch let error as DocumentError where error.code == .inConflict && kind == .autosave && workingCopy != nil {
                // In conflict (reported by `state`): this autosave goes into the working copy.
            }
        }
        let save = bookkeeping.begin(actionCount: undoManager.actionCount, additionalContent: additionalContent)
        do {
            // Main → root, in memory, applied on the root's queue while the main actor runs on.
            try await mainContext.save()
            bookkeeping.pushedToRoot()
            // Additional content, staged until the store commits it.
            let files = self.files
            let store = self.store
            let sequence = metadata.saveSequence + 1
            var recorded = [DocumentFiles.StoreKey.saveSequence: String(sequence)]
            if let additional = save.additionalContent {
                recorded[DocumentFiles.StoreKey.additionalContentDigest] = try await Self.onDisk {
                    try files.stageAdditionalContent(additional)
                }
            }
            // Root → SQLite, on the root's queue: the commit point.
            let storeMetadata = recorded
            let note = saveNote(describing: work)
            var written: ObjectContext.WrittenMerge?
            if let merge = work?.rows {
                written = try await rootContext.perform { try $0.save(applying: merge, storeMetadata: storeMetadata, note: note) }
            } else {
                try await rootContext.perform { try $0.save(storeMetadata: storeMetadata, note: note) }
            }
            pendingTakeBack.removeAll { note.takesBack.contains($0) }
            bookkeeping.committed(save)
            if save.additionalContent != nil {
                try await Self.onDisk { try files.installStagedAdditionalContent() }
                bookkeeping.installed(save)
            }
            // Metadata, derived from what was committed.
            let previous = metadata
            let hashing = kind == .save || options.hashesEveryAutosave
            metadata = try await Self.onDisk {
                try files.writeMetadata(after: previous, saveSequence: sequence, store: store, hashingStore: hashing)
            }
            try await finishSave(kind, overwritingConflict: overwritingConflict)
            return written
        } catch {
            bookkeeping.failed(save)
            throw DocumentError.wrap(error, DocumentError.code(for: error), while: "save \(displayName)", path: fileURL?.path)
        }
    }

    /// Waits until no save runs. Awaiting a finished task does not suspend, so a finished save
    /// is cleared here rather than left for its owner to clear (it cannot resume while this
    /// loop holds the main actor; an import's autosave meeting the timer's spun that way).
    func waitForRunningSave() async {
        while let running = bookkeeping.runningSave {
            _ = try? await running.value
            bookkeeping.ended(running)
        }
    }

    /// Hashes the store into the metadata if autosaves left the hash behind (before copies and
    /// when closing, so that a document at rest always has a current hash).
    ///
    /// - Throws: ``DocumentError`` (`.store`, `.fileSystem`).
    func updateStoreHash() async throws {
        await waitForRunningSave()
        guard !metadata.isStoreHashCurrent, !state.contains(.editingDisabled) else { return }
        let files = self.files
        let store = self.store
        let previous = metadata
        let stamped = stampedFile
        let inPlace = workingCopy == nil
        // A package edited in place gets its metadata rewritten: not if it changed on disk.
        if inPlace { try await checkNotChangedElsewhere() }
        do {
            metadata = try await Self.onDisk { try files.refreshStoreHash(previous, store: store) }
            if inPlace { stamp = try await Self.onDisk { stamped.flatMap(FileStamp.of) } }
        } catch {
            throw DocumentError.wrap(error, DocumentError.code(for: error), while: "hash the store of \(displayName)", path: fileURL?.path)
        }
    }

    /// Writes an explicit save of a document edited in a working copy back to the document
    /// (re-packs the archive, or swaps a new package in) or marks the working copy as holding
    /// work not yet written back (autosaves). The document's stamp on disk is remembered only
    /// when this save wrote the document: a document changed elsewhere never becomes the
    /// baseline silently.
    private func finishSave(_ kind: SaveKind, overwritingConflict: Bool) async throws {
        let files = self.files
        let store = self.store
        let copy = workingCopy
        let fs = options.fileSystem
        let modified = modificationTime
        let archive = fileURL?.standardizedFileURL.path
        let format = self.format
        let stamped = stampedFile
        if kind == .save, let url = fileURL, let copy {
            // Until the document holds this save, only the working copy does: a failed
            // write-back (a full disk) or a document replaced since the save began leaves it
            // where `recover` finds it.
            try await Self.onDisk { try copy.markDirty(archivePath: archive, fileSystem: fs) }
            if !overwritingConflict { try await checkNotChangedElsewhere() }
            try await Self.onDisk {
                switch format {
                case .archive(let archiveFormat):
                    try files.pack(store: store, to: url, format: archiveFormat, modificationTime: modified)
                case .package:
                    // Not while someone else has the package open for writing.
                    let lock = try DocumentOpening.acquireLock(
                        PackageLayout(root: url).lock, readOnly: false, document: url, fileSystem: fs)
                    defer { lock?.release() }
                    try files.copyPackage(store: store, to: url)
                }
                try copy.writeOrigin(
                    .init(archivePath: archive, dirty: false, modified: Date(), archiveStamp: stamped.flatMap(FileStamp.of)), fileSystem: fs
                )
            }
            stamp = try await Self.onDisk { stamped.flatMap(FileStamp.of) }
        } else if let copy {
            // The document itself was not written: what this open last saw of it stays the
            // baseline, so a document replaced behind it is still a conflict at the next save.
            try await Self.onDisk { try copy.markDirty(archivePath: archive, fileSystem: fs) }
        } else {
            // A package saved in place: its metadata is the one this save just wrote.
            stamp = try await Self.onDisk { stamped.flatMap(FileStamp.of) }
        }
    }

    /// What a save did, for the history, when it is not the undo names: an import's batch,
    /// a merge.
    struct SaveWork {
        var description: String
        var run: String?
        var merge: SaveNote.MergeRecord?
        /// A merge the save writes to the store as rows (the root context's own changes
        /// saved).
        var rows: CopyMerge?
    }

    /// What the store's history records about a save: this machine, the user and program,
    /// and what was done — `work` when given, else the undo action names since the last save.
    private func saveNote(describing work: SaveWork?) -> SaveNote {
        let description = work?.description ?? Self.describe(undoManager.actionNames(since: bookkeeping.savedActionCount))
        return SaveNote(
            description: description, host: Self.thisProcess.host, writer: Self.thisProcess.writer, run: work?.run, merge: work?.merge,
            takesBack: pendingTakeBack)
    }

    /// This machine's name, and the user and program (looked up once).
    private static let thisProcess: (host: String, writer: String) = {
        let process = LockHolder.currentProcess(toolVersion: PodDocVersion.writer)
        return (process.host, "\(process.user), \(PodDocVersion.writer)")
    }()

    /// `Rename “Plans”, Delete “Old” and 2 items`; repeats of the same name once, with a count.
    static func describe(_ names: [String]) -> String {
        var order: [String] = []
        var counts: [String: Int] = [:]
        for name in names {
            if counts[name] == nil { order.append(name) }
            counts[name, default: 0] += 1
        }
        return order.map { counts[$0]! > 1 ? "\($0) (×\(counts[$0]!))" : $0 }.joined(separator: ", ")
    }

    /// The archive time stamp: `SOURCE_DATE_EPOCH` when set, else the last modification.
    var modificationTime: Int64 {
        (try? SourceDateEpoch.value(in: options.environment)) ?? Int64(metadata.modified.timeIntervalSince1970)
    }

    var displayName: String { fileURL?.lastPathComponent ?? "the untitled document" }

    func checkOpen() throws {
        if state.contains(.closed) {
            throw DocumentError(.closed, "\(displayName) is closed; open it again.", path: fileURL?.path)
        }
    }
}
