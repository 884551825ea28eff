import Foundation
import PodDocFileSystem

// MARK: - Manifest

/// A BagIt-style (RFC 8493) SHA-256 manifest of a tree: `manifest-sha256.txt` at its root.
///
/// The file is UTF-8, every line ends with `\n` (no `\r`), and nothing else is allowed:
///
/// ```text
/// # Payload-Oxum: <total bytes>.<file count>
/// <sha256>  <path>
/// <sha256>  <path>
/// ```
///
/// - The first line carries BagIt's `Payload-Oxum` (total size of the listed files, then their
///   number; decimal, no leading zeros) for a fast completeness check.
/// - Then one line per regular file of the tree except the manifest itself: 64 lowercase hex
///   digits, two spaces, the path relative to the root with `/` separators, in which `%` is
///   written `%25` (RFC 8493 §2.1.3; names cannot hold line breaks, so no other escape occurs).
/// - Lines are sorted by path in byte order, with no duplicates; the count matches the header.
/// - Paths follow the same rules as archive entries (no `..`, `.`, empty components, control
///   characters or backslashes).
///
/// The file lines are those of `sha256sum`, so `sha256sum -c manifest-sha256.txt` checks a tree
/// too (it skips the header line with a warning).
public struct Manifest: Sendable, Hashable {
    /// `manifest-sha256.txt`.
    public static let fileName = "manifest-sha256.txt"

    /// The largest manifest read (about 200,000 lines of long paths).
    static let maximumSize = 64 << 20

    /// One listed file.
    public struct Entry: Sendable, Hashable {
        /// The path relative to the tree's root, with `/` separators.
        public var path: String
        /// The SHA-256 of the contents, as 64 lowercase hex digits.
        public var sha256: String
    }

    /// The listed files, sorted by path in byte order.
    public private(set) var entries: [Entry]

    /// The total size of the listed files, in bytes.
    public private(set) var totalBytes: Int64

    /// Makes a manifest from its entries (sorted by path) and their total size.
    public init(entries: [Entry], totalBytes: Int64) {
        self.entries = entries
        self.totalBytes = totalBytes
    }

    // MARK: Creating

    /// Computes the manifest of a tree, hashing every file in 1 MiB chunks.
    ///
    /// - Parameters:
    ///   - directory: The tree's root.
    ///   - excluding: Relative paths to leave out (the manifest itself always is).
    ///   - fileSystem: The file system to read through.
    /// - Returns: The manifest (not written anywhere).
    /// - Throws: ``ArchiveError`` for symbolic links, special files, bad names, or unreadable
    ///   files in the tree.
    public static func compute(
        for directory: URL, excluding: Set<String> = [], fileSystem: FileSystem = FileSystem()
    ) throws -> Manifest {
        var entries: [Entry] = []
        var total: Int64 = 0
        for file in try files(of: directory, excluding: excluding, fileSystem: fileSystem) {
            let digest = try hash(file, in: directory.path, fileSystem: fileSystem)
            entries.append(Entry(path: file.path.string, sha256: digest.hex))
            total += digest.size
        }
        return Manifest(entries: entries, totalBytes: total)
    }

    /// Computes the manifest of a tree and saves it as `manifest-sha256.txt` at its root
    /// (through the safe save).
    ///
    /// - Parameters:
    ///   - directory: The tree's root.
    ///   - excluding: Relative paths to leave out (the manifest itself always is).
    ///   - fileSystem: The file system to go through.
    /// - Returns: The manifest written.
    /// - Throws: ``ArchiveError`` (see ``compute(for:excluding:fileSystem:)``), or
    ///   ``ArchiveError/Code-swift.struct/fileSystem`` if it cannot be saved.
    @discardableResult
    public static func create(
        in directory: URL, excluding: Set<String> = [], fileSystem: FileSystem = FileSystem()
    ) throws -> Manifest {
        let manifest = try compute(for: directory, excluding: excluding, fileSystem: fileSystem)
        let file = directory.appendingPathComponent(fileName)
        do {
            try fileSystem.write(manifest.serialized(), to: file)
        } catch let error as FileSystemError {
            throw ArchiveError(
                code: .fileSystem, message: "Could not save the manifest: \(error.message)",
                archive: directory.path, entry: fileName, cause: error)
        }
        return manifest
    }

    /// The manifest file's bytes, in the format described above.
    public func serialized() -> Data {
        var text = "# Payload-Oxum: \(totalBytes).\(entries.count)\n"
        for entry in entries {
            text += "\(entry.sha256)  \(entry.path.replacingOccurrences(of: "%", with: "%25"))\n"
        }
        return Data(text.utf8)
    }

    // MARK: Shared helpers

    /// The regular files of a tree, sorted, without the manifest and the excluded paths.
    static func files(of directory: URL, excluding: Set<String>, fileSystem: FileSystem) throws -> [SourceTree.Item] {
        try SourceTree(scanning: directory, excluding: excluding.union([fileName]), fileSystem: fileSystem)
            .items.filter { $0.kind == .file }
    }

    /// Hashes one file of a tree, turning a read failure into an error naming it.
    static func hash(_ file: SourceTree.Item, in root: String, fileSystem: FileSystem) throws -> FileDigest.Result {
        do {
            return try FileDigest.sha256(of: file.url, fileSystem: fileSystem)
        } catch let error as FileSystemError {
            throw ArchiveError(
                code: .fileSystem, message: "Could not read \(quoted(file.path.string)) in '\(root)': \(error.message)",
                archive: root, entry: file.path.string, cause: error)
        }
    }
}
