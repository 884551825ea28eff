import Foundation
import PodDocFileSystem

// MARK: - Verification

extension Manifest {
    /// Reads `manifest-sha256.txt` at the root of a tree.
    ///
    /// - Parameters:
    ///   - directory: The tree's root.
    ///   - fileSystem: The file system to read through.
    /// - Returns: The parsed manifest.
    /// - Throws: ``ArchiveError/Code-swift.struct/manifestMissing`` when there is none;
    ///   ``ArchiveError/Code-swift.struct/invalidManifest`` when it is malformed.
    public static func read(from directory: URL, fileSystem: FileSystem = FileSystem()) throws -> Manifest {
        let file = directory.appendingPathComponent(fileName)
        var data = Data()
        do {
            try fileSystem.readFile(at: file) { chunk in
                guard data.count + chunk.count <= maximumSize else {
                    throw ArchiveError(
                        code: .invalidManifest,
                        message:
                            "The manifest '\(file.path)' is invalid: it is larger than \(maximumSize) bytes. Create the manifest again.",
                        archive: file.path, entry: fileName)
                }
                data.append(contentsOf: chunk)
            }
        } catch let error as FileSystemError {
            throw ArchiveError(
                code: error.code == .notFound ? .manifestMissing : .fileSystem,
                message: "Cannot read the manifest of '\(directory.path)': \(error.message)",
                archive: directory.path, entry: fileName, cause: error)
        }
        return try Manifest(parsing: data, source: file.path)
    }

    /// Checks a tree against its `manifest-sha256.txt`.
    ///
    /// Checks, in order: every listed file exists, no unlisted file exists, the total size
    /// matches `Payload-Oxum`, and every file's SHA-256 matches.
    ///
    /// - Parameters:
    ///   - directory: The tree's root.
    ///   - excluding: Relative paths to ignore (as when the manifest was created).
    ///   - fileSystem: The file system to read through.
    /// - Returns: The verified manifest.
    /// - Throws: ``ArchiveError`` naming the file: ``ArchiveError/Code-swift.struct/missingFile``,
    ///   ``ArchiveError/Code-swift.struct/extraFile``, ``ArchiveError/Code-swift.struct/sizeMismatch``
    ///   (the first file whose contents differ, when the total size differs), or
    ///   ``ArchiveError/Code-swift.struct/hashMismatch``; or the errors of ``read(from:fileSystem:)``.
    @discardableResult
    public static func verify(
        directory: URL, excluding: Set<String> = [], fileSystem: FileSystem = FileSystem()
    ) throws -> Manifest {
        try verify(directory: directory, describedAs: "'\(directory.path)'", excluding: excluding, fileSystem: fileSystem)
    }

    /// ``verify(directory:excluding:fileSystem:)``, naming the tree `description` in messages.
    /// Files whose digest is in `digests` (hashed while they were written) are not read again.
    static func verify(
        directory: URL, describedAs description: String, excluding: Set<String> = [],
        digests: [String: FileDigest.Result] = [:], fileSystem: FileSystem
    ) throws -> Manifest {
        let manifest = try read(from: directory, fileSystem: fileSystem)
        let files = try files(of: directory, excluding: excluding, fileSystem: fileSystem)
        func mismatch(_ code: ArchiveError.Code, _ path: String, _ problem: String) -> ArchiveError {
            ArchiveError(
                code: code,
                message:
                    "The contents of \(description) do not match its manifest: \(quoted(path)) \(problem). The document is incomplete or was modified; use another copy.",
                archive: directory.path, entry: path)
        }
        let present = Set(files.map(\.path.string))
        if let missing = manifest.entries.first(where: { !present.contains($0.path) }) {
            throw mismatch(.missingFile, missing.path, "is listed in the manifest but missing")
        }
        let listed = Dictionary(uniqueKeysWithValues: manifest.entries.map { ($0.path, $0.sha256) })
        if let extra = files.first(where: { listed[$0.path.string] == nil }) {
            throw mismatch(.extraFile, extra.path.string, "is present but not listed in the manifest")
        }
        let sizesMatch = files.reduce(Int64(0)) { $0 + $1.size } == manifest.totalBytes
        var hashedBytes: Int64 = 0
        for file in files {
            let digest = try digests[file.path.string] ?? hash(file, in: directory.path, fileSystem: fileSystem)
            hashedBytes += digest.size
            guard digest.hex == listed[file.path.string] else {
                if sizesMatch {
                    throw mismatch(.hashMismatch, file.path.string, "has a different SHA-256 than the manifest records")
                }
                throw mismatch(
                    .sizeMismatch, file.path.string,
                    "has changed: the files total a different size than the manifest's \(manifest.totalBytes) bytes")
            }
        }
        guard hashedBytes == manifest.totalBytes else {
            throw ArchiveError(
                code: .invalidManifest,
                message:
                    "The manifest of \(description) is invalid: every file matches its hash, but they total \(hashedBytes) bytes, not the \(manifest.totalBytes) of its Payload-Oxum. Create the manifest again.",
                archive: directory.path, entry: fileName)
        }
        return manifest
    }
}
