import Foundation

// MARK: - NameRegistry

/// Remembers every path of a tree being read or extracted, refusing duplicates, names that
/// differ only in letter case or Unicode normalisation (NFC vs NFD `é`), which would overwrite
/// each other on macOS and Windows, and files standing where folders are needed.
struct NameRegistry {
    /// What a path is.
    enum Kind {
        case file
        case directory
    }

    private struct Record {
        var path: EntryPath
        var kind: Kind
        /// Whether the path had its own entry, rather than being implied by a deeper one.
        var explicit: Bool
    }

    private var records: [String: Record] = [:]

    /// Whether a file at exactly `path` (e.g. `manifest-sha256.txt`) was registered.
    func containsFile(_ path: String) -> Bool {
        guard let record = records[Self.key(path)] else { return false }
        return record.kind == .file && record.path.string.utf8.elementsEqual(path.utf8)
    }

    /// Registers a path and the folders it implies.
    ///
    /// - Parameters:
    ///   - path: The path, not the root.
    ///   - kind: What it is.
    /// - Returns: The folders that are new (implied parents first, then `path` itself if it is a
    ///   folder), which the caller must create, in order.
    mutating func register(_ path: EntryPath, as kind: Kind) throws(EntryRejection) -> [EntryPath] {
        var newFolders: [EntryPath] = []
        for depth in 1..<path.components.count {
            let ancestor = path.prefix(depth)
            if let record = records[Self.key(ancestor)] {
                try Self.checkSameName(record.path, ancestor)
                if record.kind == .file {
                    throw EntryRejection(code: .pathConflict, reason: "lies inside \(quoted(record.path.string)), which is a file")
                }
            } else {
                records[Self.key(ancestor)] = Record(path: ancestor, kind: .directory, explicit: false)
                newFolders.append(ancestor)
            }
        }
        let key = Self.key(path)
        guard let record = records[key] else {
            records[key] = Record(path: path, kind: kind, explicit: true)
            if kind == .directory { newFolders.append(path) }
            return newFolders
        }
        try Self.checkSameName(record.path, path)
        switch (record.kind, kind, record.explicit) {
        case (.directory, .directory, false):
            records[key]?.explicit = true
            return newFolders
        case (.directory, .file, _):
            throw EntryRejection(code: .pathConflict, reason: "is a file, but an earlier entry uses that name as a folder")
        case (.file, .directory, _):
            throw EntryRejection(code: .pathConflict, reason: "is a folder, but an earlier entry is a file with that name")
        default:
            throw EntryRejection(
                code: .duplicateEntry,
                reason: "appears twice (libarchive reports names in Unicode NFC, so two spellings of one name count as the same)")
        }
    }

    /// The key under which names that would collide on a case-insensitive, normalising file
    /// system are the same: lowercased, then NFC.
    private static func key(_ path: EntryPath) -> String {
        key(path.string)
    }

    private static func key(_ path: String) -> String {
        path.lowercased().precomposedStringWithCanonicalMapping
    }

    private static func sameBytes(_ first: EntryPath, _ second: EntryPath) -> Bool {
        first.string.utf8.elementsEqual(second.string.utf8)
    }

    private static func checkSameName(_ earlier: EntryPath, _ later: EntryPath) throws(EntryRejection) {
        guard sameBytes(earlier, later) else {
            throw EntryRejection(
                code: .nameCollision,
                reason:
                    "collides with the earlier \(quoted(earlier.string)): the names differ only in letter case or Unicode normalisation, so one would overwrite the other on macOS and Windows"
            )
        }
    }
}
