import PodDocStore

/// What ``ManagedDocument/verify()`` found on disk: the store's integrity, and whether the
/// store, the metadata and the additional content describe the same save.
public struct DocumentVerification: Sendable, Hashable, Codable {
    /// The lines of SQLite's `PRAGMA integrity_check`: `["ok"]` for a sound store.
    public var integrityCheck: [String]
    /// The logical hash of the store's content (`sha256:<hex>`), computed now.
    public var storeHash: String
    /// The save number the store recorded in its last commit.
    public var storeSaveSequence: Int?
    /// Each disagreement found, as a sentence; empty when the document is sound.
    public var problems: [String]

    /// Whether the store is sound and agrees with the metadata and the additional content.
    public var isSound: Bool { problems.isEmpty }
}

extension DocumentFiles {
    /// Checks the store (`integrity_check`, its search indexes against its rows, the save graph merges read), then that the metadata's save number, store hash
    /// and file list, and the digest the store committed, all match what is on disk.
    func verify(store: PersistentStore, metadata: DocumentMetadata) throws -> DocumentVerification {
        var problems: [String] = []
        let integrityProblems = try store.integrityProblems()
        if !integrityProblems.isEmpty {
            problems.append("The store fails SQLite's integrity check: \(integrityProblems.prefix(3).joined(separator: "; ")).")
        }
        let integrity = integrityProblems.isEmpty ? ["ok"] : integrityProblems
        problems += try store.fullTextProblems()
        problems += store.mergeRecordProblems().map { $0 + " Merges of this copy stop until it is restored from another copy." }
        // An older store read through its upgraded copy is checked as it is on disk, under the
        // model it was written with: what its recorded hash describes.
        let hash = try store.readsUpgradedCopy ? ContentDigest.storeOnDisk(store) : ContentDigest.store(store)
        // The metadata's hash describes save `storeHashSaveSequence` (autosaves leave it behind).
        let kept = SyncConflictFiles(inPackage: layout.root)
        // A hash recorded under another model version describes the store before an upgrade
        // cut off before the metadata caught up: nothing to compare (the next writing open
        // records the upgraded store's).
        if metadata.isStoreHashCurrent, metadata.schemaVersion == store.modelVersionOnDisk, hash != metadata.storeHash {
            if let other = kept.store(hashing: metadata.storeHash, model: store.model) {
                problems.append(
                    "The metadata was saved with another machine's store, which a sync tool kept as StoreContent/\(other.lastPathComponent); this store is intact but not the one the metadata describes (the next save fixes that)."
                )
            } else {
                problems.append("The store's content hash \(hash) differs from the metadata's \(metadata.storeHash).")
            }
        }
        for file in kept.stores {
            problems.append(
                "A sync tool kept another machine's store as StoreContent/\(file.lastPathComponent) after a conflict: it holds that machine's edits. Merge it in with `poddoc merge \(ShellQuoting.quote(layout.root.path)) \(ShellQuoting.quote(file.path))`."
            )
        }
        for file in kept.metadata {
            problems.append(
                "A sync tool kept another machine's metadata as \(file.lastPathComponent) after a conflict; merging the kept store (if any) removes it."
            )
        }
        let sequence = try store.metadataValue(forKey: StoreKey.saveSequence).flatMap(Int.init)
        if sequence != metadata.saveSequence {
            problems.append("The store records save \(sequence.map(String.init) ?? "none"), the metadata save \(metadata.saveSequence).")
        }
        let additional = try ContentDigest.additionalContent(committedAdditionalContent, fileSystem: fileSystem)
        if additional.files != metadata.additionalContent {
            problems.append("AdditionalContent/ differs from the file list in the metadata.")
        }
        if let committed = try store.metadataValue(forKey: StoreKey.additionalContentDigest), committed != additional.digest {
            problems.append("AdditionalContent/ is not the content the store last committed.")
        }
        return DocumentVerification(integrityCheck: integrity, storeHash: hash, storeSaveSequence: sequence, problems: problems)
    }
}
