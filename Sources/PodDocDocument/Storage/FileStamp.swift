import Foundation
import Glibc

/// Identifies one version of a file on disk: inode, size and modification time. A save by
/// anyone replaces the file (new inode) or changes its size or time.
struct FileStamp: Sendable, Hashable, Codable {
    let inode: UInt64
    let size: Int64
    let modified: Int64  // nanoseconds

    /// The stamp of the file at `url`, or nil when there is none.
    static func of(_ url: URL) -> FileStamp? {
        var info = stat()
        guard lstat(url.path, &info) == 0 else { return nil }
        return FileStamp(
            inode: UInt64(info.st_ino), size: Int64(info.st_size),
            modified: Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec))
    }
}
