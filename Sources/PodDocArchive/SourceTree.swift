import Foundation
import PodDocFileSystem

// MARK: - SourceTree

/// The regular files and folders of a tree to archive or to describe in a manifest, checked
/// with the same rules as extraction and sorted by path in byte order.
struct SourceTree {
    /// One file or folder of the tree.
    struct Item {
        /// The path relative to the root.
        let path: EntryPath
        /// Where it is on disk.
        let url: URL
        /// What it is.
        let kind: NameRegistry.Kind
        /// Its size in bytes as found when scanning (0 for folders).
        let size: Int64
    }

    /// The items, sorted by path in byte order (so a folder comes before its contents).
    let items: [Item]

    /// Scans a folder.
    ///
    /// - Parameters:
    ///   - root: The folder to scan.
    ///   - excluding: Relative paths to leave out, with everything under them.
    ///   - fileSystem: The file system to go through.
    /// - Throws: ``ArchiveError`` naming the first symbolic link, special file, bad or colliding
    ///   name found, or the folder that could not be listed.
    init(scanning root: URL, excluding: Set<String>, fileSystem: FileSystem) throws {
        var registry = NameRegistry()
        var items: [Item] = []
        var pending: [(url: URL, path: EntryPath)] = [(root, .root)]
        while let next = pending.popLast() {
            let (folder, folderPath) = next
            let entries: [DirectoryEntry]
            do {
                entries = try fileSystem.contentsOfDirectory(at: folder)
            } catch let error as FileSystemError {
                throw ArchiveError(
                    code: error.code == .invalidName ? .invalidName : .fileSystem,
                    message: "Cannot read the tree '\(root.path)': \(error.message)",
                    archive: root.path, entry: folderPath.string, cause: error)
            }
            for entry in entries {
                let displayPath = folderPath.components.isEmpty ? entry.name : folderPath.string + "/" + entry.name
                do {
                    let path = try folderPath.appending(entry.name)
                    if excluding.contains(path.string) { continue }
                    let kind: NameRegistry.Kind
                    switch entry.kind {
                    case .regularFile: kind = .file
                    case .directory: kind = .directory
                    case .symbolicLink:
                        throw EntryRejection(code: .unsupportedSourceFile, reason: "is a symbolic link")
                    case .special:
                        throw EntryRejection(code: .unsupportedSourceFile, reason: "is a device, FIFO or socket")
                    }
                    _ = try registry.register(path, as: kind)
                    let url = folder.appendingPathComponent(entry.name, isDirectory: kind == .directory)
                    items.append(Item(path: path, url: url, kind: kind, size: kind == .file ? entry.size : 0))
                    if kind == .directory { pending.append((url, path)) }
                } catch let rejection as EntryRejection {
                    throw ArchiveError(
                        code: rejection.code,
                        message:
                            "Cannot use the tree '\(root.path)': \(quoted(displayPath)) \(rejection.reason). Documents may only hold regular files and folders with portable names: replace or rename it.",
                        archive: root.path, entry: displayPath)
                }
            }
        }
        self.items = items.sorted { $0.path.string.utf8.lexicographicallyPrecedes($1.path.string.utf8) }
    }
}
