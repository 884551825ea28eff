import Foundation
import PodDocFileSystem
import PodDocStore

/// Files a file-sync tool kept inside a package after a conflict. A sync tool syncs files, not
/// packages: when two machines saved one package, it can end with one machine's store, the
/// other's metadata, and the losing file kept beside the winner under a conflict name —
/// Syncthing's `persistentStore.sync-conflict-20261126-101010-ABCDEFG`, Dropbox's and
/// Nextcloud's `persistentStore (… conflicted copy …)`, OneDrive's `persistentStore-LAPTOP`
/// (and the same for `DocumentMetadata.json`). Each kept store holds the other machine's
/// edits: `poddoc merge PACKAGE KEPT-STORE` takes them in, then the kept files go.
public struct SyncConflictFiles: Sendable {
    /// Other machines' stores: kept copies of `StoreContent/persistentStore`.
    public let stores: [URL]
    /// Other machines' metadata: kept copies of `DocumentMetadata.json`.
    public let metadata: [URL]

    /// Every kept file, stores first.
    public var all: [URL] { stores + metadata }

    /// The files kept inside the package at `root`; none when it cannot be read.
    public init(inPackage root: URL) {
        let layout = PackageLayout(root: root)
        func kept(in folder: URL, copiesOf name: String) -> [URL] {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
            return names.filter { Self.isKeptCopy($0, of: name, insidePackage: true) }.sorted().map { folder.appendingPathComponent($0) }
        }
        stores = kept(in: layout.storeContent, copiesOf: layout.store.lastPathComponent)
        metadata = kept(in: root, copiesOf: layout.metadata.lastPathComponent)
    }

    /// Whether `candidate` is a conflict copy of `name` a sync tool kept. Inside a package,
    /// whose file names are poddoc's own, OneDrive's `name-HOST` counts too (beside a
    /// document, `Notes-old.poddoc` may well be the user's own copy).
    static func isKeptCopy(_ candidate: String, of name: String, insidePackage: Bool) -> Bool {
        guard candidate != name else { return false }
        let syncthing = /\.sync-conflict-[0-9]{8}-[0-9]{6}-[A-Z0-9]{7}/
        let dropbox = /\ \([^()]*conflicted copy[^()]*\)/
        for marker in [candidate.firstRange(of: syncthing), candidate.firstRange(of: dropbox)].compactMap({ $0 }) {
            var plain = candidate
            plain.removeSubrange(marker)
            if plain == name { return true }
        }
        guard insidePackage else { return false }
        // OneDrive: `-HOST` before the extension; SQLite's own files are not copies.
        let stem = name.split(separator: ".", maxSplits: 1).first.map(String.init) ?? name
        let ending = String(name.dropFirst(stem.count))
        guard candidate.hasPrefix(stem + "-"), candidate.hasSuffix(ending) else { return false }
        let host = candidate.dropFirst(stem.count + 1).dropLast(ending.count)
        return !host.isEmpty && !["wal", "shm", "journal"].contains(String(host)) && !host.contains(".")
    }

    /// The kept store whose content hash is `hash` (the one a metadata describes), if any:
    /// the metadata was then saved with that machine's store, and this package's store,
    /// which differs from it, is no damage.
    func store(hashing hash: String, model: ObjectModel) -> URL? {
        stores.first { (try? Self.storeHash(of: $0, model: model)) == hash }
    }

    /// The content hash (``ContentDigest``) of a kept store, read from a private copy (SQLite
    /// would otherwise leave its `-shm` beside the kept file).
    static func storeHash(of file: URL, model: ObjectModel) throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("poddoc-kept-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let copy = folder.appendingPathComponent("persistentStore")
        try FileManager.default.copyItem(at: file, to: copy)
        let store = try PersistentStore(url: copy, model: model, options: PersistentStore.Options(readOnly: true, untrusted: true))
        defer { try? store.close() }
        return try ContentDigest.store(store)
    }

    /// A package in `folder` around a kept store of the package at `root`: the package's
    /// metadata and additional content with the kept store as its store, to be opened
    /// read-only as the other machine's copy of the document.
    public static func package(around keptStore: URL, of root: URL, in folder: URL) throws -> URL {
        let source = PackageLayout(root: root)
        let target = PackageLayout(root: folder.appendingPathComponent(root.lastPathComponent, isDirectory: true))
        let fileSystem = FileSystem()
        try FileManager.default.createDirectory(at: target.storeContent, withIntermediateDirectories: true)
        try fileSystem.copyFile(at: source.metadata, to: target.metadata)
        try fileSystem.copyFile(at: keptStore, to: target.store)
        if FileManager.default.fileExists(atPath: source.additionalContent.path) {
            try FileManager.default.copyItem(at: source.additionalContent, to: target.additionalContent)
        } else {
            try FileManager.default.createDirectory(at: target.additionalContent, withIntermediateDirectories: true)
        }
        return target.root
    }
}
