// MARK: - Code

extension ArchiveError {
    /// A classification of an ``ArchiveError``.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Wrapped: String, Hashable, Sendable {
            case unsupportedFormat = "Unsupported format"
            case invalidOption = "Invalid option"
            case unreadableArchive = "Unreadable archive"
            case writeFailed = "Write failed"
            case fileSystem = "File system"
            case destinationExists = "Destination exists"
            case unsupportedSourceFile = "Unsupported source file"
            case sourceChanged = "Source changed"
            case pathTraversal = "Path traversal"
            case absolutePath = "Absolute path"
            case invalidName = "Invalid name"
            case link = "Link"
            case specialFile = "Special file"
            case forbiddenPermissions = "Forbidden permissions"
            case duplicateEntry = "Duplicate entry"
            case nameCollision = "Name collision"
            case pathConflict = "Path conflict"
            case tooManyEntries = "Too many entries"
            case tooLarge = "Too large"
            case expansionRatioExceeded = "Expansion ratio exceeded"
            case invalidManifest = "Invalid manifest"
            case manifestMissing = "Manifest missing"
            case missingFile = "Missing file"
            case extraFile = "Extra file"
            case sizeMismatch = "Size mismatch"
            case hashMismatch = "Hash mismatch"
        }

        private let wrapped: Wrapped

        private init(_ wrapped: Wrapped) {
            self.wrapped = wrapped
        }

        /// The name does not map to a supported format, or the content is not one.
        public static let unsupportedFormat = Code(.unsupportedFormat)
        /// An option is out of range (compression level, timestamp, `SOURCE_DATE_EPOCH`).
        public static let invalidOption = Code(.invalidOption)
        /// The archive is damaged, truncated, or not an archive.
        public static let unreadableArchive = Code(.unreadableArchive)
        /// libarchive refused to write the archive.
        public static let writeFailed = Code(.writeFailed)
        /// A file operation failed; the ``ArchiveError/cause`` is a `FileSystemError`.
        public static let fileSystem = Code(.fileSystem)
        /// The extraction destination already exists.
        public static let destinationExists = Code(.destinationExists)
        /// The tree to archive holds a symbolic link, device, FIFO or socket.
        public static let unsupportedSourceFile = Code(.unsupportedSourceFile)
        /// A file changed size while it was being archived.
        public static let sourceChanged = Code(.sourceChanged)
        /// An entry name contains a `..` component.
        public static let pathTraversal = Code(.pathTraversal)
        /// An entry name is absolute.
        public static let absolutePath = Code(.absolutePath)
        /// An entry name is empty, not UTF-8, has control characters, a backslash, an empty
        /// component, or is too long.
        public static let invalidName = Code(.invalidName)
        /// An entry is a symbolic link or a hard link.
        public static let link = Code(.link)
        /// An entry is a device, FIFO or socket.
        public static let specialFile = Code(.specialFile)
        /// An entry has the set-user-ID, set-group-ID or sticky bit.
        public static let forbiddenPermissions = Code(.forbiddenPermissions)
        /// Two entries have the same name.
        public static let duplicateEntry = Code(.duplicateEntry)
        /// Two names differ only in case or Unicode normalisation.
        public static let nameCollision = Code(.nameCollision)
        /// A file and a folder claim the same name (e.g. `a` is a file and `a/b` exists).
        public static let pathConflict = Code(.pathConflict)
        /// The archive has more entries than allowed.
        public static let tooManyEntries = Code(.tooManyEntries)
        /// The uncompressed contents exceed the allowed total.
        public static let tooLarge = Code(.tooLarge)
        /// The contents expand more than allowed relative to the archive size.
        public static let expansionRatioExceeded = Code(.expansionRatioExceeded)
        /// A manifest file is malformed.
        public static let invalidManifest = Code(.invalidManifest)
        /// A manifest was required but the tree has none.
        public static let manifestMissing = Code(.manifestMissing)
        /// A file listed in the manifest is missing.
        public static let missingFile = Code(.missingFile)
        /// A file not listed in the manifest is present.
        public static let extraFile = Code(.extraFile)
        /// The files' total size differs from the manifest's; the named file changed.
        public static let sizeMismatch = Code(.sizeMismatch)
        /// A file's SHA-256 differs from the manifest's.
        public static let hashMismatch = Code(.hashMismatch)

        /// A short human-readable name of the code.
        public var description: String { wrapped.rawValue }
    }
}
