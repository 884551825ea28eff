// MARK: - SystemCall

/// A step of a file operation that goes through a system call, as named in errors and as
/// targeted by a ``FaultPlan``.
public enum SystemCall: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// `open(2)` of a file or folder (also `opendir(3)`).
    case open
    /// `lstat(2)` of an item found in a folder.
    case stat = "lstat"
    /// `read(2)` from a file.
    case read
    /// `write(2)` to a file.
    case write
    /// `fsync(2)` of a file.
    case fsync
    /// `fsync(2)` of a folder, which makes renames and new names in it durable.
    case directoryFsync = "fsync(directory)"
    /// `close(2)` of a file or folder.
    case close
    /// `rename(2)`, or `renameat2(2)` with `RENAME_NOREPLACE`, moving an item to a free name.
    case rename
    /// `renameat2(2)` with `RENAME_EXCHANGE`, atomically swapping two items.
    case renameExchange = "renameat2(RENAME_EXCHANGE)"
    /// `unlink(2)` of a file or `unlinkat(2)` with `AT_REMOVEDIR` of an empty folder.
    case unlink
    /// `mkdir(2)`.
    case mkdir
    /// `flock(2)` on a lock file.
    case lock = "flock"
    /// `ftruncate(2)` of a lock file.
    case truncate = "ftruncate"

    /// The name used in error messages, e.g. `fsync(directory)`.
    public var description: String { rawValue }
}
