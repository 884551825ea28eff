import Foundation
import PodDocStore

// MARK: - Earlier saves

extension ManagedDocument {
    /// Writes a package copy of the document as it was after save `save` (a number the
    /// store's history lists): its objects as they were, its history ending at that save. The
    /// copy keeps the document ID, like any copy; this document is not changed. The copy's
    /// store is compacted: the later saves and history it let go of leave no free pages, so
    /// it packs into an archive of the size of its content.
    ///
    /// - Parameters:
    ///   - url: Where the copy goes; must not exist.
    ///   - number: The save whose state the copy holds.
    /// - Throws: ``DocumentError``, or `StoreError` (`.notInHistory`) when the
    ///   history does not reach back to save `number`; nothing is left at `url` then.
    public func saveCopy(to url: URL, asAfterSave number: Int) async throws {
        try checkOpen()
        // Checked here first, so that a save out of reach costs no copy.
        let store = self.store
        _ = try await Self.onDisk { try store.pastState(after: number) }
        try await save(to: url, format: .package)
        do {
            var options = OpenOptions()
            options.autosaveInterval = nil
            options.fileSystem = self.options.fileSystem
            options.environment = self.options.environment
            let model = self.model
            let copy = try await ManagedDocument.open(url, model: model, options: options)
            do {
                let copyStore = copy.store
                copyStore.historyRetention = nil
                let past = try await Self.onDisk { try copyStore.pastState(after: number) }
                let context = copy.mainContext
                try copy.undoManager.withoutRegistration { _ = try context.revert(to: past) }
                try await copy.save()
                try await Self.onDisk {
                    try copyStore.removeHistory(after: number)
                    try copyStore.compact()
                }
                try await copy.close()
            } catch {
                try? await copy.close()
                throw error
            }
        } catch {
            try? FileManager.default.removeItem(at: url)
            throw error
        }
    }
}

// MARK: - Copies a sync tool kept

extension ManagedDocument {
    /// Copies of the document at `url` that file-sync tools left beside it after a conflict:
    /// Syncthing's `Notes.poddoc.tar.sync-conflict-20261125-120000-ABCDEFG.zst` (its marker
    /// goes before the last extension; anywhere in the name is recognised) and Dropbox's or
    /// Nextcloud's `Notes (conflicted copy 2026-11-25).poddoc` or
    /// `Notes (Alice's conflicted copy 2026-11-25).poddoc`. Merge them in with `poddoc merge`
    /// (`--remove-copy` removes the copy once merged).
    ///
    /// - Returns: Their locations, sorted by name; none when the folder cannot be read.
    public nonisolated static func syncConflictCopies(of url: URL) -> [URL] {
        let folder = URL(fileURLWithPath: url.path).standardizedFileURL.deletingLastPathComponent()
        let name = url.lastPathComponent
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return [] }
        return names.filter { SyncConflictFiles.isKeptCopy($0, of: name, insidePackage: false) }.sorted().map {
            folder.appendingPathComponent($0)
        }
    }
}
