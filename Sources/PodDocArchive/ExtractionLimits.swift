// MARK: - ExtractionLimits

/// Caps that stop a hostile or broken archive from filling the disk.
public struct ExtractionLimits: Sendable, Hashable {
    /// The most uncompressed bytes extracted, over all files (default 8 GiB).
    public var maximumTotalBytes: Int64
    /// The most entries read, and the most files and folders created including folders implied
    /// by deeper paths (default 100,000).
    public var maximumEntryCount: Int
    /// The most uncompressed bytes per byte of archive file (default 200), counting only the
    /// bytes beyond those the archive's manifest declares (its `Payload-Oxum` total and the
    /// manifest itself): honest content, however compressible, is bounded by
    /// ``maximumTotalBytes`` and verified against the manifest instead.
    public var maximumExpansionRatio: Double
    /// The ratio is only enforced once this many bytes not declared by the manifest were
    /// extracted (default 1 MiB), so small archives of very compressible files are not refused.
    public var expansionRatioThreshold: Int64

    /// Creates limits.
    ///
    /// - Parameters:
    ///   - maximumTotalBytes: The most uncompressed bytes extracted, over all files.
    ///   - maximumEntryCount: The most entries read, and files and folders created.
    ///   - maximumExpansionRatio: The most uncompressed bytes per byte of archive file.
    ///   - expansionRatioThreshold: Bytes extracted before the ratio is enforced.
    public init(
        maximumTotalBytes: Int64 = 8 << 30,
        maximumEntryCount: Int = 100_000,
        maximumExpansionRatio: Double = 200,
        expansionRatioThreshold: Int64 = 1 << 20
    ) {
        self.maximumTotalBytes = maximumTotalBytes
        self.maximumEntryCount = maximumEntryCount
        self.maximumExpansionRatio = maximumExpansionRatio
        self.expansionRatioThreshold = expansionRatioThreshold
    }
}

// MARK: - ManifestPolicy

/// Whether extraction checks the tree against its `manifest-sha256.txt` before moving it into
/// place.
public enum ManifestPolicy: Sendable, Hashable {
    /// Verify the manifest when the archive has one at its root (the default).
    case verifyIfPresent
    /// Refuse archives without a manifest at their root, and verify it.
    case require
}
