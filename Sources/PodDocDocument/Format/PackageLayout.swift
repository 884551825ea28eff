import Foundation
import Glibc

/// The paths inside a `Name.poddoc/` package (see docs/FORMAT.md).
public struct PackageLayout: Sendable, Hashable {
    /// The package folder.
    public let root: URL

    /// Makes the layout of the package at `root`.
    public init(root: URL) {
        self.root = root.standardizedFileURL
    }

    /// `StoreContent/`.
    public var storeContent: URL { root.appendingPathComponent("StoreContent", isDirectory: true) }
    /// `StoreContent/persistentStore`: the SQLite database.
    public var store: URL { root.appendingPathComponent(Self.storePath) }
    /// The store's path relative to the root (as an archive names it).
    static let storePath = "StoreContent/persistentStore"
    /// The store's write-ahead log, present while the store is open.
    public var storeWAL: URL { storeContent.appendingPathComponent("persistentStore-wal") }
    /// The store's shared-memory index, present while the store is open.
    public var storeSHM: URL { storeContent.appendingPathComponent("persistentStore-shm") }
    /// A copy of the store kept while a migration runs.
    public var storeBackup: URL { storeContent.appendingPathComponent("persistentStore.backup") }
    /// `AdditionalContent/`: files the application keeps beside the store.
    public var additionalContent: URL { root.appendingPathComponent("AdditionalContent", isDirectory: true) }
    /// The next additional content, written before the store save that commits it.
    public var stagedAdditionalContent: URL { root.appendingPathComponent(".AdditionalContent.next", isDirectory: true) }
    /// `DocumentMetadata.json`.
    public var metadata: URL { root.appendingPathComponent("DocumentMetadata.json") }
    /// The lock file (never part of the document's content).
    public var lock: URL { root.appendingPathComponent(".poddoc-lock") }

    /// The parts a package is made of, which must be what they say (never symbolic links).
    var parts: [URL] {
        [storeContent, store, storeWAL, storeSHM, storeBackup, additionalContent, stagedAdditionalContent, metadata, lock]
    }

    /// Refuses a package one of whose parts is a symbolic link: following it, an edit of this
    /// document would change another one (or any file the link names).
    ///
    /// - Throws: ``DocumentError`` (`.notADocument`) naming the part.
    func checkNoLinkedParts() throws {
        for part in parts {
            var status = stat()
            guard lstat(part.path, &status) == 0, status.st_mode & S_IFMT == S_IFLNK else { continue }
            let relative = String(part.path.dropFirst(root.path.count + 1))
            throw DocumentError(
                .notADocument,
                "\(root.path): its \(relative) is a symbolic link; poddoc does not follow links inside a document, where an edit could change another document. Replace the link with the file or folder itself.",
                path: part.path)
        }
    }

    /// Paths (relative to the root) that are never packed into an archive.
    static let notPacked: Set<String> = [
        ".poddoc-lock", ".AdditionalContent.next",
        "StoreContent/persistentStore-wal", "StoreContent/persistentStore-shm", "StoreContent/persistentStore.backup",
    ]
}
