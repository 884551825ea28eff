import Glibc

// MARK: - DirectoryEntry

/// One item found in a folder by ``FileSystem/contentsOfDirectory(at:)``.
public struct DirectoryEntry: Sendable, Hashable {
    /// What kind of item an entry is; symbolic links are not followed.
    public enum Kind: Sendable, Hashable {
        /// A regular file.
        case regularFile
        /// A folder.
        case directory
        /// A symbolic link (not followed).
        case symbolicLink
        /// A device, FIFO or socket.
        case special

        /// Classifies an `st_mode` value.
        init(mode: mode_t) {
            switch mode & S_IFMT {
            case S_IFREG: self = .regularFile
            case S_IFDIR: self = .directory
            case S_IFLNK: self = .symbolicLink
            default: self = .special
            }
        }
    }

    /// The item's name within its folder (valid UTF-8; never `.` or `..`).
    public var name: String
    /// What the item is.
    public var kind: Kind
    /// The item's size in bytes, as `lstat` reports it.
    public var size: Int64
}
