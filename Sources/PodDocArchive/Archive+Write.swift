import Foundation
import PodDocFileSystem

// MARK: - Writing

extension Archive {
    /// Writes a folder tree into one archive file, reproducibly and durably.
    ///
    /// Entries are sorted by path in byte order, folders have mode `0755` and files `0644`,
    /// owner and group are 0 with no names, every entry has `options.modificationTime`, and no
    /// other time stamps, extended attributes, ACLs or compressor time stamps are stored; so
    /// two writes of the same tree give the same bytes. File contents are streamed in 1 MiB
    /// chunks. The archive is written through `FileSystem.write(to:_:)`: a failure leaves any
    /// previous archive file unchanged.
    ///
    /// - Parameters:
    ///   - directory: The tree to archive. It may hold only regular files and folders.
    ///   - archive: The archive file to write.
    ///   - format: The format; `nil` chooses it from `archive`'s extension.
    ///   - options: The fixed time stamp, zstd level and paths to leave out.
    ///   - fileSystem: The file system to go through.
    /// - Throws: ``ArchiveError``: ``ArchiveError/Code-swift.struct/unsupportedSourceFile``
    ///   naming a symbolic link or special file in the tree; ``ArchiveError/Code-swift.struct/invalidName``
    ///   or ``ArchiveError/Code-swift.struct/nameCollision`` for names extraction would refuse;
    ///   ``ArchiveError/Code-swift.struct/fileSystem`` wrapping a `FileSystemError`.
    public static func write(
        directory: URL, to archive: URL, format: ArchiveFormat? = nil, options: ArchiveWriteOptions,
        fileSystem: FileSystem = FileSystem()
    ) throws {
        let format = try format ?? ArchiveFormat(inferringFrom: archive)
        try options.validate(archive: archive.path)
        let excluded = options.includesManifest ? options.excludedPaths.union([Manifest.fileName]) : options.excludedPaths
        let tree = try SourceTree(scanning: directory, excluding: excluded, fileSystem: fileSystem)
        do {
            try fileSystem.write(to: archive) { sink in
                try withUTF8Locale {
                    let writer = try LibArchiveWriter(format: format, options: options, sink: sink, archivePath: archive.path)
                    if options.includesManifest {
                        try writeWithManifest(
                            tree, from: directory, writer: writer, excluding: options.excludedPaths, fileSystem: fileSystem)
                    } else {
                        for item in tree.items {
                            try writer.add(item, fileSystem: fileSystem)
                        }
                    }
                    try writer.close()
                }
            }
        } catch let error as FileSystemError {
            throw ArchiveError(
                code: .fileSystem,
                message: "Could not write the archive '\(archive.path)': \(error.message)",
                archive: archive.path, cause: error)
        }
    }

    /// Writes the tree and its manifest in sorted order. When the manifest sorts after every
    /// other entry (as in a document, whose top-level names are capitalised) the files are
    /// hashed while they are archived (on another thread, beside the compression); otherwise
    /// the manifest is computed first.
    private static func writeWithManifest(
        _ tree: SourceTree, from directory: URL, writer: LibArchiveWriter,
        excluding: Set<String>, fileSystem: FileSystem
    ) throws {
        let name = Manifest.fileName
        let sortsLast = tree.items.allSatisfy { $0.path.string.utf8.lexicographicallyPrecedes(name.utf8) }
        guard sortsLast else {
            let manifest = try Manifest.compute(for: directory, excluding: excluding, fileSystem: fileSystem)
            var manifestWritten = false
            for item in tree.items {
                if !manifestWritten, name.utf8.lexicographicallyPrecedes(item.path.string.utf8) {
                    try writer.addFile(named: name, contents: manifest.serialized())
                    manifestWritten = true
                }
                try writer.add(item, fileSystem: fileSystem)
            }
            return
        }
        var entries: [Manifest.Entry] = []
        var total: Int64 = 0
        for item in tree.items {
            guard item.kind == .file else {
                try writer.add(item, fileSystem: fileSystem)
                continue
            }
            let hasher = BackgroundHasher()
            try writer.add(item, fileSystem: fileSystem) { hasher.update($0) }
            entries.append(Manifest.Entry(path: item.path.string, sha256: hasher.finish()))
            total += item.size
        }
        try writer.addFile(named: name, contents: Manifest(entries: entries, totalBytes: total).serialized())
    }
}
