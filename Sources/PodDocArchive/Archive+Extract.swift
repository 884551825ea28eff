import Foundation
import Glibc
import PodDocFileSystem

// MARK: - Extracting

extension Archive {
    /// Extracts an archive from another machine into a new folder, treating it as hostile.
    ///
    /// The format is recognised from the content (``detectFormat(of:)``), never the name.
    /// Entries are written into a hidden staging folder beside `destination`
    /// (`FileSystem.writeDirectory(at:replacingExisting:_:)`), each checked before anything
    /// is written for it. Only regular files (mode `0644`) and folders (`0755`) are created;
    /// refused are `..` components, absolute paths, symbolic and hard links, devices, FIFOs,
    /// sockets, set-uid/set-gid/sticky bits, duplicate names, names that differ only in case or
    /// Unicode normalisation, empty names, control characters and backslashes, and archives over
    /// the ``ExtractionLimits``. A `manifest-sha256.txt` at the root is verified per
    /// `manifestPolicy`. Then every file and folder is `fsync`ed and the staging folder is
    /// renamed to `destination`.
    ///
    /// On any error nothing is written outside the staging folder, the staging folder is
    /// removed, and `destination` does not exist.
    ///
    /// - Parameters:
    ///   - archive: The archive file.
    ///   - destination: The folder to create; it must not exist, its parent must.
    ///   - limits: Caps on total size, entry count and expansion ratio.
    ///   - manifestPolicy: Whether a manifest is verified or required.
    ///   - checking: A check of one extracted file, run on another thread beside the
    ///     extraction (``ExtractedFileCheck``); what it throws is thrown as it is, and nothing
    ///     is put in place.
    ///   - fileSystem: The file system to go through.
    /// - Throws: ``ArchiveError`` whose ``ArchiveError/entry`` names the offending entry and
    ///   whose code and message say why; ``ArchiveError/Code-swift.struct/destinationExists``
    ///   when `destination` exists.
    public static func extract(
        archive: URL, into destination: URL, limits: ExtractionLimits = ExtractionLimits(),
        manifestPolicy: ManifestPolicy = .verifyIfPresent, checking: ExtractedFileCheck? = nil,
        fileSystem: FileSystem = FileSystem()
    ) throws {
        let archivePath = archive.path
        var status = stat()
        if lstat(destination.path, &status) == 0 {
            throw ArchiveError(
                code: .destinationExists,
                message:
                    "Cannot extract '\(archivePath)' into '\(destination.path)': it already exists. Choose a new name, or move the existing item away first.",
                archive: archivePath, entry: nil)
        }
        guard stat(archivePath, &status) == 0 else {
            throw ArchiveError(
                code: .unreadableArchive,
                message: "Cannot read the archive '\(archivePath)': \(String(cString: strerror(errno))). Check the path.",
                archive: archivePath)
        }
        guard status.st_mode & S_IFMT == S_IFREG else {
            throw ArchiveError(
                code: .unreadableArchive,
                message: "Cannot read the archive '\(archivePath)': it is not a regular file. Pass the archive file itself.",
                archive: archivePath)
        }
        let archiveSize = Int64(status.st_size)
        let fileCheck = checking.map(ConcurrentFileCheck.init)
        do {
            try withUTF8Locale {
                let reader = try LibArchiveReader(path: archivePath)
                try fileSystem.writeDirectory(at: destination, replacingExisting: false, verifying: fileCheck?.finishWhileSyncing) {
                    staging in
                    var extraction = Extraction(
                        reader: reader, staging: staging, archivePath: archivePath, archiveSize: archiveSize,
                        limits: limits, fileCheck: fileCheck, fileSystem: fileSystem)
                    try extraction.run()
                    try verifyManifest(
                        in: staging, present: extraction.registry.containsFile(Manifest.fileName), digests: extraction.digests,
                        policy: manifestPolicy, archivePath: archivePath, fileSystem: fileSystem)
                }
            }
        } catch {
            // A check still running when the extraction failed is waited for, not left behind.
            fileCheck?.waitUntilDone()
            guard let error = error as? FileSystemError else { throw error }
            throw ArchiveError(
                code: .fileSystem,
                message: "Could not extract '\(archivePath)': \(error.message)",
                archive: archivePath, cause: error)
        }
    }

    /// Recognises an archive's format from its content.
    ///
    /// - Parameter archive: The archive file.
    /// - Returns: The format.
    /// - Throws: ``ArchiveError/Code-swift.struct/unreadableArchive`` or
    ///   ``ArchiveError/Code-swift.struct/unsupportedFormat``.
    public static func detectFormat(of archive: URL) throws -> ArchiveFormat {
        try withUTF8Locale {
            let reader = try LibArchiveReader(path: archive.path)
            _ = try reader.nextHeader(after: nil)
            return try reader.recognisedFormat()
        }
    }

    private static func verifyManifest(
        in staging: URL, present: Bool, digests: [String: FileDigest.Result], policy: ManifestPolicy, archivePath: String,
        fileSystem: FileSystem
    ) throws {
        guard present else {
            guard policy == .require else { return }
            throw ArchiveError(
                code: .manifestMissing,
                message:
                    "Refused the archive '\(archivePath)': it has no \(Manifest.fileName) at its root, and one is required. Export it again with a manifest.",
                archive: archivePath, entry: Manifest.fileName)
        }
        do {
            _ = try Manifest.verify(
                directory: staging, describedAs: "the archive '\(archivePath)'", digests: digests, fileSystem: fileSystem)
        } catch var error as ArchiveError {
            error.archive = archivePath
            throw error
        }
    }
}
