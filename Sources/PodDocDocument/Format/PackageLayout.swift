import Foundation

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

    /// Paths (relative to the root) that are never packed into an archive.
    static let notPacked: Set<String> = [
        ".poddoc-lock", ".AdditionalContent.next",
        "StoreContent/persistentStore-wal", "StoreContent/persistentStore-shm", "StoreContent/persistentStore.backup",
    ]
}
