import Foundation
import PodDocStore

// MARK: - Autosave

extension ManagedDocument {
    /// Starts (or restarts) autosaving: every `interval`, when there are unsaved changes, the
    /// document saves — in place for a package, into its working copy for an archive or a
    /// never-saved document. A failed autosave keeps the edits, puts the document in the
    /// saving-error state, reports through ``onAutosave``, and is retried at the next tick while there are unsaved changes.
    public func startAutosave(every interval: Duration) {
        autosaveTask?.cancel()
        let sleep = options.sleep
        autosaveTask = Task { @MainActor [weak self] in
            while !Task.isCancelled {
                do {
                    try await sleep(interval)
                } catch {
                    return
                }
                guard let self, !Task.isCancelled else { return }
                await self.autosaveIfNeeded()
            }
        }
    }

    /// Stops autosaving.
    public func stopAutosave() {
        autosaveTask?.cancel()
        autosaveTask = nil
    }

    /// Saves now as an autosave does — in place for a package, into the working copy for an
    /// archive, a never-saved document or a package that met a conflict — and throws when that
    /// fails. Long work such as an
    /// import calls it after each batch: the batch is on disk without re-packing an archive.
    ///
    /// - Throws: ``DocumentError``, as `save()` does; the edits stay in memory.
    public func autosave() async throws {
        try await serializedSave(.autosave)
    }

    /// Autosaves as ``autosave()`` does, describing the save in the document's history as
    /// `description`; the saves of one `run` (an import saving batch after batch) make one
    /// entry there.
    ///
    /// - Throws: ``DocumentError``, as `save()` does; the edits stay in memory.
    public func autosave(describing description: String, run: String) async throws {
        try await serializedSave(.autosave, describing: SaveWork(description: description, run: run))
    }

    /// Saves a merge of another copy (`CopyMerge.plan(mine:theirs:trees:latest:preferring:choices:twoWay:base:)`,
    /// worked out from what this document's store holds) as one save: unsaved edits are
    /// autosaved first; the merge then goes to the store as rows (never as objects of the
    /// main context, so a merge of 100,000 objects costs the memory of its values only,
    /// see `ObjectContext.save(applying:storeMetadata:note:)`), recording what it settled so
    /// that either copy's next merge starts from there. Undoing the action `name` takes the
    /// merge back (see ``undo()``).
    ///
    /// - Returns: What the merge changed.
    /// - Throws: ``DocumentError``, as `save()` does; nothing of the merge is saved then.
    @discardableResult
    public func saveMerge(_ merge: CopyMerge, named name: String) async throws -> ObjectContext.RevertSummary {
        precondition(merge.canApply, "a merge with conflicts and no preference is not saved")
        if hasUnsavedChanges { try await serializedSave(.autosave) }
        guard merge.outcome != .upToDate else { return ObjectContext.RevertSummary() }
        let written = try await serializedSave(.autosave, describing: SaveWork(description: name, merge: merge.record, rows: merge))
        guard let written else { return ObjectContext.RevertSummary() }
        undoManager.group(name) { undoManager.registerRevert(of: written) }
        // The action is the save's own: the next save does not describe it again.
        bookkeeping.described(upTo: undoManager.actionCount)
        if let save = try? await Self.onDisk({ [store] in try store.history(limit: 1).first?.save }) {
            mergesByUndoCount[undoManager.undoCount] = save
        }
        return written.summary
    }

    /// Undoes the last action, as ``undoManager`` does; when that action was a merge this open
    /// saved, the next save also takes the merge back: the copy then no longer holds what the
    /// merge brought, and merging the same copy again brings it back.
    public func undo() {
        let count = undoManager.undoCount
        undoManager.undo()
        if let merge = mergesByUndoCount[count], !pendingTakeBack.contains(merge) { pendingTakeBack.append(merge) }
    }

    /// Redoes the last undone action, as ``undoManager`` does; a merge redone before its
    /// undo was saved is no longer taken back.
    public func redo() {
        undoManager.redo()
        if let merge = mergesByUndoCount[undoManager.undoCount] { pendingTakeBack.removeAll { $0 == merge } }
    }

    /// Makes the next save take back `merges` (save numbers, `PersistentStore.mergeSaves(after:)`):
    /// a revert to a save before them. Merging the same copies again brings their changes back.
    public func takeBack(merges: [Int]) {
        for merge in merges where !pendingTakeBack.contains(merge) { pendingTakeBack.append(merge) }
    }

    /// Autosaves now if there are unsaved changes and nothing stands in the way (closed,
    /// read-only). A document in conflict autosaves into its working copy, which keeps the
    /// edits safe while the user chooses.
    public func autosaveIfNeeded() async {
        guard hasUnsavedChanges, state.isDisjoint(with: [.closed, .editingDisabled]),
            !state.contains(.inConflict) || workingCopy != nil
        else { return }
        do {
            try await serializedSave(.autosave)
            autosaveStatus.lastSuccess = Date()
            autosaveStatus.lastError = nil
            autosaveStatus.consecutiveFailures = 0
            onAutosave?(.saved(at: autosaveStatus.lastSuccess!, saveSequence: metadata.saveSequence, storeHash: metadata.storeHash))
        } catch {
            let failure = DocumentError.wrap(error, DocumentError.code(for: error), while: "autosave", path: fileURL?.path)
            autosaveStatus.lastError = failure
            autosaveStatus.consecutiveFailures += 1
            onAutosave?(.failed(failure))
        }
    }
}
