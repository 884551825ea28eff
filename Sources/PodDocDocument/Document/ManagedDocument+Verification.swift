import Foundation
import GRDB
import PodDocStore

// MARK: - Verifying

/// What ``ManagedDocument/verifyIntegrity()`` found.
public struct IntegrityReport: Sendable, Hashable {
    /// Each problem as one line a user can read; empty when the document is intact.
    public var problems: [String]
    /// The logical hash of the store as it is on disk now (`sha256:<hex>`).
    public var storeHash: String

    /// Whether nothing was found wrong.
    public var isIntact: Bool { problems.isEmpty }
}

extension ManagedDocument {
    /// Checks the saved document: SQLite's `integrity_check` of the store, the store's logical
    /// hash against the metadata's ``DocumentMetadata/storeHash``, and the additional content
    /// against the metadata's manifest. (An archive's own manifest was verified when it was
    /// opened.) Unsaved changes are not looked at: check a document opened read-only.
    ///
    /// - Throws: ``DocumentError`` (`.store`) when the store cannot be read at all.
    public func verifyIntegrity() async throws -> IntegrityReport {
        try checkOpen()
        let store = self.store, files = self.files, metadata = self.metadata
        return try await Self.onDisk {
            var problems: [String] = []
            do {
                let lines = try store.unsafeRead { db in try String.fetchAll(db, sql: "PRAGMA integrity_check") }
                if lines != ["ok"] { problems += lines.prefix(10).map { "store: \($0)" } }
            } catch {
                throw DocumentError.wrap(error, .store, while: "run the integrity check of \(files.layout.store.path)", path: files.layout.root.path)
            }
            let hash: String
            do {
                hash = try ContentDigest.store(store)
            } catch {
                throw DocumentError.wrap(error, .store, while: "hash the store of \(files.layout.root.path)", path: files.layout.root.path)
            }
            if hash != metadata.storeHash {
                problems.append("store: its logical hash \(hash) differs from the metadata's \(metadata.storeHash)")
            }
            let additional = try? ContentDigest.additionalContent(files.layout.additionalContent, fileSystem: files.fileSystem).files
            if additional != metadata.additionalContent {
                problems.append("AdditionalContent: its files differ from the metadata's manifest")
            }
            return IntegrityReport(problems: problems, storeHash: hash)
        }
    }
}
