import Foundation
import PodDocFileSystem
import PodDocStore

// MARK: - Closing and reopening

extension ManagedDocument {
    /// Saves what is unsaved (a never-saved document is autosaved into its working copy, so it
    /// can be recovered), then releases the store, the lock and, for an archive written back,
    /// its working copy.
    ///
    /// - Throws: ``DocumentError`` when the final save fails; the document then stays open
    ///   with its edits.
    public func close() async throws {
        guard !state.contains(.closed) else { return }
        if !state.contains(.editingDisabled) && (hasUnsavedChanges || workingCopyIsDirty) {
            if fileURL == nil {
                try await serializedSave(.autosave)
            } else {
                try await serializedSave(.save)
            }
        }
        try await updateStoreHash()
        autosaveTask?.cancel()
        autosaveTask = nil
        try await releaseResources(removeWorkingCopy: fileURL != nil && !workingCopyIsDirty)
        state = [.closed]
    }

    /// Closes the store and lock without saving, then opens `url` and continues there with
    /// new contexts; `editable` opens it for writing even when this document was opened
    /// read-only (a copy saved from it is the user's to edit).
    func reopen(at url: URL, discardingWorkingCopy: Bool, editable: Bool = false) async throws {
        autosaveTask?.cancel()
        let wasUntitled = fileURL == nil
        try await releaseResources(removeWorkingCopy: discardingWorkingCopy || wasUntitled)
        var reopening = self.options
        reopening.recovery = .discard
        if editable { reopening.readOnly = false }
        let options = reopening
        let model = self.model
        let parts = try await Self.onDisk { try DocumentOpening.open(url, model: { _ in model }, options: options) }
        store = parts.store
        files = parts.files
        fileURL = parts.fileURL
        format = parts.format
        metadata = parts.metadata
        workingCopy = parts.workingCopy
        lock = parts.lock
        besideLock = parts.besideLock
        stamp = parts.stamp
        additionalContent = parts.additionalContent
        rootContext = ObjectContext(store: parts.store, name: "root")
        mainContext = ObjectContext(.main, parent: rootContext)
        workerObservations.removeAll()
        undoManager.removeAllActions()
        attachMainContext()
        bookkeeping.reset(savedAdditionalContent: parts.additionalContent)
        state = parts.readOnly ? .editingDisabled : .normal
        if let interval = options.autosaveInterval, !parts.readOnly { startAutosave(every: interval) }
    }

    /// Closes the store, releases the lock, and removes the working copy when asked.
    private func releaseResources(removeWorkingCopy: Bool) async throws {
        mainContext.reset()
        let store = self.store
        let copy = workingCopy
        let fs = options.fileSystem
        let locks = [self.lock, self.besideLock]
        self.lock = nil
        self.besideLock = nil
        try await Self.onDisk {
            do {
                try store.close()
            } catch {
                throw DocumentError.wrap(error, .store, while: "close the store", path: nil)
            }
            if removeWorkingCopy, let copy { try? copy.remove(fileSystem: fs) }
        }
        for lock in locks { lock?.release() }
    }

    /// Lets go of the document's locks without closing or saving, as the death of its process
    /// does (`flock` locks die with their process): for tests of recovery within one process.
    /// The working copy's record is emptied (a record naming this live process would keep its
    /// work from being offered); the lock file beside an archive stays, record and all.
    func abandonLocksAsACrashDoes() {
        lock?.release()
        besideLock?.abandon()
        lock = nil
        besideLock = nil
    }

    /// Whether the document's working copy holds saved work its archive (or, after a
    /// conflict, its package) does not have yet: what `poddoc recover` would bring back.
    public var hasWorkInWorkingCopy: Bool { workingCopyIsDirty }

    /// Whether the working copy holds autosaved work not yet written back to the archive.
    var workingCopyIsDirty: Bool {
        workingCopy?.readOrigin()?.dirty ?? false
    }
}
