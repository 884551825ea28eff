import Foundation

// MARK: - ArchiveFormat

/// The archive formats poddoc writes and reads.
public enum ArchiveFormat: String, Sendable, Hashable, CaseIterable {
    /// A POSIX (pax) tar stream compressed with zstd: `.tar.zst`. The default.
    case tarZstd
    /// A zip file with deflate compression: `.zip`.
    case zip
    /// A POSIX (pax) tar stream compressed with gzip: `.tar.gz`.
    case tarGzip

    /// The usual file name extension, without the leading dot.
    public var fileExtension: String {
        switch self {
        case .tarZstd: "tar.zst"
        case .zip: "zip"
        case .tarGzip: "tar.gz"
        }
    }

    /// Chooses the format from a file name's extension (`.tar.zst`/`.tzst`, `.zip`,
    /// `.tar.gz`/`.tgz`, case-insensitive). Used when writing only: reading looks at the content.
    ///
    /// - Parameter url: The archive file to be written.
    /// - Throws: ``ArchiveError/Code-swift.struct/unsupportedFormat`` for any other name.
    public init(inferringFrom url: URL) throws {
        let name = url.lastPathComponent.lowercased()
        if name.hasSuffix(".tar.zst") || name.hasSuffix(".tzst") {
            self = .tarZstd
        } else if name.hasSuffix(".zip") {
            self = .zip
        } else if name.hasSuffix(".tar.gz") || name.hasSuffix(".tgz") {
            self = .tarGzip
        } else {
            throw ArchiveError(
                code: .unsupportedFormat,
                message:
                    "Cannot tell which archive format to write from the name '\(url.path)'. Name it .tar.zst, .zip or .tar.gz, or pass a format explicitly.",
                archive: url.path)
        }
    }
}
