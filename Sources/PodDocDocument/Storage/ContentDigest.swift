import Crypto
import Foundation
import PodDocArchive
import PodDocFileSystem
import PodDocStore

/// Hashes of a document's parts.
enum ContentDigest {
    /// `sha256:<hex>` of a store's logical content.
    static func store(_ store: PersistentStore) throws -> String {
        // Hashed on another thread while the rows are read.
        let hasher = BackgroundHasher()
        try store.streamLogicalContent { hasher.update($0) }
        return "sha256:" + hasher.finish()
    }

    /// `sha256:<hex>` of a store's logical content as it is on disk: for a read-only store
    /// reading a private upgraded copy of an older store, the older store's, under the model it
    /// was written with (what its document's recorded hash describes).
    static func storeOnDisk(_ store: PersistentStore) throws -> String {
        let hasher = BackgroundHasher()
        try store.streamLogicalContentOnDisk { hasher.update($0) }
        return "sha256:" + hasher.finish()
    }

    /// The files of an additional-content folder and `sha256:<hex>` of their manifest (the
    /// digest the store records when it commits that content). A missing folder is empty.
    static func additionalContent(_ folder: URL, fileSystem: FileSystem) throws -> (files: [DocumentMetadata.File], digest: String) {
        let manifest: Manifest
        if FileManager.default.fileExists(atPath: folder.path) {
            manifest = try Manifest.compute(for: folder, fileSystem: fileSystem)
        } else {
            manifest = Manifest(entries: [], totalBytes: 0)
        }
        let files = manifest.entries.map { DocumentMetadata.File(path: $0.path, sha256: $0.sha256) }
        return (files, "sha256:" + hex(SHA256.hash(data: manifest.serialized())))
    }

    static func hex(_ digest: some Sequence<UInt8>) -> String {
        digest.map { String(format: "%02x", $0) }.joined()
    }
}
