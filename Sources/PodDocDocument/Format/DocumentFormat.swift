import Foundation
public import PodDocArchive

/// How a document is stored: a package folder, or one archive file of it.
public enum DocumentFormat: Sendable, Hashable, CustomStringConvertible {
    /// A `Name.poddoc/` folder.
    case package
    /// One archive file of the package.
    case archive(ArchiveFormat)

    /// The format a path names by its ending: `.tar.zst`, `.zip`, `.tar.gz` are archives;
    /// anything else (normally `.poddoc`) is a package.
    public init(inferringFrom url: URL) {
        if let format = try? ArchiveFormat(inferringFrom: url) {
            self = .archive(format)
        } else {
            self = .package
        }
    }

    /// Parses `package`, `tar.zst`, `zip` or `tar.gz`.
    public init?(name: String) {
        switch name {
        case "package": self = .package
        case "tar.zst", "zst": self = .archive(.tarZstd)
        case "zip": self = .archive(.zip)
        case "tar.gz", "tgz": self = .archive(.tarGzip)
        default: return nil
        }
    }

    public var description: String {
        switch self {
        case .package: return "package"
        case .archive(let format): return format.fileExtension.trimmingCharacters(in: CharacterSet(charactersIn: "."))
        }
    }

    /// Whether this is an archive format.
    public var isArchive: Bool {
        if case .archive = self { return true }
        return false
    }
}
