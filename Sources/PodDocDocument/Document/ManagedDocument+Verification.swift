import Foundation

// MARK: - Verifying

extension ManagedDocument {
    /// Checks the document as last saved, off the main actor: SQLite's `integrity_check` of
    /// the store, and that the metadata (save number, store hash, file list), the store and
    /// the additional content describe the same save. Unsaved edits are not looked at.
    ///
    /// Crash tests call it after each recovery; a tool can offer it as a "check" command.
    ///
    /// - Returns: What was found; ``DocumentVerification/isSound`` says whether all is well.
    /// - Throws: ``DocumentError`` (`.store`, `.fileSystem`) when the parts cannot be read;
    ///   `.newerFormat` for a document a newer poddoc made, which this one cannot vouch for.
    public func verify() async throws -> DocumentVerification {
        try checkOpen()
        let files = self.files
        let store = self.store
        let metadata = self.metadata
        if metadata.isNewerFormat {
            let path = (fileURL ?? files.layout.root).path
            throw DocumentError(.newerFormat, metadata.newerFormatMessage(document: path, refusing: "check it"), path: path)
        }
        do {
            return try await Self.onDisk { try files.verify(store: store, metadata: metadata) }
        } catch {
            throw DocumentError.wrap(
                error, DocumentError.code(for: error), while: "verify \(files.layout.root.path)", path: files.layout.root.path)
        }
    }
}
