// MARK: - ArchiveWriteOptions

/// How to write an archive. Everything that could vary between two writes of the same tree is
/// fixed here, so the same tree and options always give the same bytes.
public struct ArchiveWriteOptions: Sendable, Hashable {
    /// The modification time stamped on every entry, in seconds since 1970 (UTC). Derive it from
    /// ``SourceDateEpoch/value(in:)`` or from the document's modification time.
    public var modificationTime: Int64

    /// The zstd compression level for ``ArchiveFormat/tarZstd``, 1...19 (default 3, like
    /// `zstd` and `tar --zstd`).
    public var zstdLevel: Int

    /// Relative paths (as in the archive, e.g. `.poddoc-lock`) left out, with everything under
    /// them.
    public var excludedPaths: Set<String>

    /// Whether to add a ``Manifest`` (`manifest-sha256.txt`) covering every file of the
    /// archive. The files are hashed as they are archived, in the same read, so the manifest
    /// costs no second pass over the tree.
    public var includesManifest: Bool

    /// Creates options.
    ///
    /// - Parameters:
    ///   - modificationTime: The time stamped on every entry, in seconds since 1970 (UTC).
    ///   - zstdLevel: The zstd compression level, 1...19.
    ///   - excludedPaths: Relative paths left out of the archive.
    ///   - includesManifest: Whether to add `manifest-sha256.txt`.
    public init(modificationTime: Int64, zstdLevel: Int = 3, excludedPaths: Set<String> = [], includesManifest: Bool = false) {
        self.modificationTime = modificationTime
        self.zstdLevel = zstdLevel
        self.excludedPaths = excludedPaths
        self.includesManifest = includesManifest
    }

    /// The supported zstd levels.
    static let zstdLevels = 1...19

    /// The times a ustar header holds without a pax extension (11 octal digits). Zip's DOS
    /// field covers 1980...2107 only; libarchive clamps it, and the exact time is also stored in
    /// the zip's extended-timestamp field.
    static let modificationTimes: ClosedRange<Int64> = 0...0o77777777777

    /// Checks the options against what the formats can store.
    func validate(archive: String) throws {
        guard Self.zstdLevels.contains(zstdLevel) else {
            throw ArchiveError(
                code: .invalidOption,
                message:
                    "The zstd compression level \(zstdLevel) is out of range for '\(archive)'. Use a level from \(Self.zstdLevels.lowerBound) to \(Self.zstdLevels.upperBound) (3 is the default).",
                archive: archive)
        }
        guard Self.modificationTimes.contains(modificationTime) else {
            throw ArchiveError(
                code: .invalidOption,
                message:
                    "The modification time \(modificationTime) for '\(archive)' is outside \(Self.modificationTimes) (seconds since 1970). Pass a time in that range.",
                archive: archive)
        }
    }
}
