import Crypto
import Foundation
import Glibc
import PodDocFileSystem

// MARK: - Extraction

/// One extraction run: reads every entry, checks it, and writes it into the staging folder.
///
/// Every entry is checked before anything is written for it: name rules (``EntryPath``), type
/// (regular files and folders only), permission bits, collisions (``NameRegistry``), and the
/// caps of ``ExtractionLimits``. Files are created with `O_CREAT | O_EXCL | O_NOFOLLOW` inside
/// the staging folder, which only ever holds regular files and folders created here.
struct Extraction {
    private let reader: LibArchiveReader
    private let staging: URL
    private let archivePath: String
    private let limits: ExtractionLimits
    private let archiveSize: Int64
    private let fileSystem: FileSystem
    private let fileCheck: ConcurrentFileCheck?
    private(set) var registry = NameRegistry()
    /// The SHA-256 of every file extracted, by path, taken as it was written (so verifying the
    /// manifest reads nothing again).
    private(set) var digests: [String: FileDigest.Result] = [:]
    private var entryCount = 0
    private var createdCount = 0
    private var totalBytes: Int64 = 0
    /// The bytes the archive's manifest vouches for (its `Payload-Oxum` total and the manifest
    /// itself), looked up the first time the expansion ratio is exceeded; 0 when the archive
    /// has no usable manifest.
    private var manifestDeclaredBytes: Int64?

    init(
        reader: LibArchiveReader, staging: URL, archivePath: String, archiveSize: Int64, limits: ExtractionLimits,
        fileCheck: ConcurrentFileCheck?, fileSystem: FileSystem
    ) {
        self.reader = reader
        self.staging = staging
        self.archivePath = archivePath
        self.archiveSize = archiveSize
        self.limits = limits
        self.fileSystem = fileSystem
        self.fileCheck = fileCheck
    }

    /// Extracts every entry.
    ///
    /// - Throws: ``ArchiveError`` naming the first offending entry and the reason.
    mutating func run() throws {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
        defer { buffer.deallocate() }
        var previous: String?
        while let header = try reader.nextHeader(after: previous) {
            let name = header.displayName
            previous = name
            do {
                try extract(header, named: name, buffer: buffer)
            } catch let rejection as EntryRejection {
                throw ArchiveError(
                    code: rejection.code,
                    message: "Refused the archive '\(archivePath)': the entry \(quoted(name)) \(rejection.reason). Nothing was extracted.",
                    archive: archivePath, entry: name)
            } catch let error as FileSystemError {
                throw ArchiveError(
                    code: .fileSystem,
                    message: "Could not extract the entry \(quoted(name)) of '\(archivePath)': \(error.message) Nothing was extracted.",
                    archive: archivePath, entry: name, cause: error)
            }
        }
    }

    // MARK: One entry

    private mutating func extract(
        _ header: LibArchiveReader.Header, named name: String, buffer: UnsafeMutableRawBufferPointer
    ) throws {
        entryCount += 1
        try checkCount(entryCount)
        let path = try checkedPath(header)
        let kind = try checkedKind(header)
        if path.components.isEmpty {
            guard kind == .directory else {
                throw EntryRejection(code: .invalidName, reason: "names the destination itself but is not a folder")
            }
            return  // `./`: the destination itself.
        }
        let newFolders = try registry.register(path, as: kind)
        createdCount += newFolders.count + (kind == .file ? 1 : 0)
        try checkCount(createdCount)
        if let declared = header.declaredSize, kind == .file {
            try checkBudget(after: declared)
        }
        for folder in newFolders {
            try fileSystem.createDirectory(at: url(of: folder))
        }
        guard kind == .file else { return }
        // Hashing runs on its own queue while this one decompresses and writes.
        let hasher = BackgroundHasher()
        var size: Int64 = 0
        let file = url(of: path)
        try fileSystem.createFile(at: file) { sink in
            while true {
                let count = try reader.readData(into: buffer, entry: name)
                if count == 0 { break }
                totalBytes += Int64(count)
                size += Int64(count)
                try checkBudget(after: 0)
                let chunk = UnsafeRawBufferPointer(rebasing: buffer[..<count])
                hasher.update(chunk)
                try sink.write(chunk)
            }
        }
        // The file is written and closed: its check runs beside the rest of the extraction.
        if let fileCheck, fileCheck.check.path == path.string { fileCheck.start(at: file) }
        digests[path.string] = (hasher.finish(), size)
    }

    private func checkedPath(_ header: LibArchiveReader.Header) throws -> EntryPath {
        guard let bytes = header.nameBytes, let valid = String(validating: bytes, as: UTF8.self) else {
            throw EntryRejection(code: .invalidName, reason: "has a name that is not valid UTF-8")
        }
        var raw = Substring(valid)
        if header.fileType == S_IFDIR, raw.count > 1, raw.hasSuffix("/") {
            raw = raw.dropLast()
        }
        return try EntryPath.validating(String(raw))
    }

    private func checkedKind(_ header: LibArchiveReader.Header) throws -> NameRegistry.Kind {
        if header.isHardLink {
            throw EntryRejection(code: .link, reason: "is a hard link; only regular files and folders are accepted")
        }
        if header.isSymbolicLink || header.fileType == S_IFLNK {
            throw EntryRejection(code: .link, reason: "is a symbolic link; only regular files and folders are accepted")
        }
        let kind: NameRegistry.Kind
        switch header.fileType {
        case S_IFREG: kind = .file
        case S_IFDIR: kind = .directory
        case S_IFCHR: throw EntryRejection(code: .specialFile, reason: "is a character device")
        case S_IFBLK: throw EntryRejection(code: .specialFile, reason: "is a block device")
        case S_IFIFO: throw EntryRejection(code: .specialFile, reason: "is a FIFO (named pipe)")
        case S_IFSOCK: throw EntryRejection(code: .specialFile, reason: "is a socket")
        default: throw EntryRejection(code: .specialFile, reason: "has an unknown file type")
        }
        let special = header.permissions & (S_ISUID | S_ISGID | S_ISVTX)
        if special != 0 {
            let bits = [(S_ISUID, "set-user-ID"), (S_ISGID, "set-group-ID"), (S_ISVTX, "sticky")]
                .filter { special & $0.0 != 0 }.map(\.1).joined(separator: " and ")
            throw EntryRejection(code: .forbiddenPermissions, reason: "has the \(bits) bit set")
        }
        return kind
    }

    /// Checks a count of entries read, or of files and folders created (including folders
    /// implied by deeper paths), against the entry cap.
    private func checkCount(_ count: Int) throws {
        if count > limits.maximumEntryCount {
            throw EntryRejection(
                code: .tooManyEntries,
                reason:
                    "takes the archive over the limit of \(limits.maximumEntryCount) entries (files and folders, including implied parent folders)"
            )
        }
    }

    /// Checks the caps with `additional` more bytes on top of those already extracted: the
    /// absolute cap on all bytes, and the expansion ratio on the bytes beyond those the
    /// archive's manifest declares (honest content as compressible as a page of `====` is
    /// vouched for by its manifest, which the extraction then verifies byte for byte).
    private mutating func checkBudget(after additional: Int64) throws {
        let (total, overflow) = totalBytes.addingReportingOverflow(max(0, additional))
        if overflow || total > limits.maximumTotalBytes {
            throw EntryRejection(
                code: .tooLarge,
                reason: "takes the contents over the limit of \(limits.maximumTotalBytes) uncompressed bytes")
        }
        guard exceedsExpansionRatio(total - (manifestDeclaredBytes ?? 0)) else { return }
        if manifestDeclaredBytes == nil {
            manifestDeclaredBytes = lookUpManifestDeclaredBytes()
            guard exceedsExpansionRatio(total - manifestDeclaredBytes!) else { return }
        }
        let declared = manifestDeclaredBytes ?? 0
        let beyond = declared > 0 ? ", \(total - declared) bytes beyond the \(declared) its manifest declares," : ""
        throw EntryRejection(
            code: .expansionRatioExceeded,
            reason:
                "expands the \(archiveSize)-byte archive to more than \(total) bytes\(beyond) over the limit of \(limits.maximumExpansionRatio)× (a compression bomb?)"
        )
    }

    /// Whether `unbacked` bytes (extracted, and not declared by the manifest) exceed the ratio.
    private func exceedsExpansionRatio(_ unbacked: Int64) -> Bool {
        unbacked > limits.expansionRatioThreshold && Double(unbacked) > limits.maximumExpansionRatio * Double(max(archiveSize, 1))
    }

    /// The bytes the manifest at the archive's root declares (its `Payload-Oxum` total plus its
    /// own size), read ahead with a second reader that passes over at most the absolute cap;
    /// 0 when there is no manifest, it cannot be reached within the cap, or it is not valid.
    /// Extraction verifies the manifest at the end, so a lying one only lets bytes in up to
    /// the absolute cap before the archive is refused.
    private func lookUpManifestDeclaredBytes() -> Int64 {
        guard
            let data = try? Archive.readFile(
                named: Manifest.fileName, in: URL(fileURLWithPath: archivePath), limit: Manifest.maximumSize,
                skippingAtMost: limits.maximumTotalBytes),
            let manifest = try? Manifest(parsing: data, source: archivePath)
        else { return 0 }
        let (declared, overflow) = manifest.totalBytes.addingReportingOverflow(Int64(data.count))
        return overflow ? 0 : declared
    }

    private func url(of path: EntryPath) -> URL {
        path.components.reduce(staging) { $0.appendingPathComponent($1) }
    }
}
