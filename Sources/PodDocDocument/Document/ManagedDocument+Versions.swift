import Foundation
import PodDocStore

// MARK: - Earlier saves

extension ManagedDocument {
    /// Writes a package copy of the document as it was after save `save` (a number the
    /// store's history lists): its objects as they were, its history ending at that save. The
    /// copy keeps the document ID, like any copy; this document is not changed.
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
                try await Self.onDisk { try copyStore.removeHistory(after: number) }
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
