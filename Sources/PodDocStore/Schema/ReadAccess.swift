import Foundation
import Glibc

// MARK: - How a read-only store is opened

/// How a store opened read-only is reached, so that reading never writes and works where
/// writing cannot (a read-only mount, an immutable file, another user's document).
///
/// SQLite reads a WAL-mode database through its `-wal` and `-shm` files, creating them when
/// they are missing; a connection opened read-only can never delete them again, so a plain
/// read-only open leaves them behind. So:
///
/// - a store whose `-wal` holds commits (a writer is at work, or died before it
///   checkpointed), or one an editor has open, is opened read-only through the log: a
///   connection that could write would checkpoint those commits into the main file when it
///   closes, and a read writes nothing;
/// - a store no one writes while it is read (its reader holds the document's lock, see
///   ``PersistentStore/Options/Editors/excluded``), or one this process may not write (a
///   read-only disk, an immutable file, another user's document): opened `immutable`, SQLite
///   reads the main file alone and makes no file, so not even a folder's modification time
///   changes;
/// - otherwise (no log waiting, editors unknown, the file writable): the connection is opened
///   for writing but never writes (the store refuses every save), so the last connection to
///   close removes the `-wal` and `-shm` files it made, and the main file is not touched.
enum ReadAccess: Equatable {
    case writableFile
    case immutable
    case readOnly

    /// The access for a store file opened read-only.
    static func choose(for file: URL, editors: PersistentStore.Options.Editors) -> ReadAccess {
        var status = stat()
        let logWaiting = stat(file.path + "-wal", &status) == 0 && status.st_size > 0
        if logWaiting || editors == .present { return .readOnly }
        return editors == .excluded || !canWrite(file) ? .immutable : .writableFile
    }

    /// Whether this process may write the store file and create files beside it.
    static func canWrite(_ file: URL) -> Bool {
        let path = file.path
        return access(path, W_OK) == 0 && access(file.deletingLastPathComponent().path, W_OK) == 0 && !isImmutable(path)
    }

    /// The file name SQLite opens: a `file:` URI with `immutable=1` for ``immutable``
    /// (Debian's SQLite is built with `SQLITE_USE_URI`), the plain path otherwise.
    func sqlitePath(for file: URL) -> String {
        guard self == .immutable else { return file.path }
        var escaped = ""
        for character in file.path.unicodeScalars {
            switch character {
            case "%": escaped += "%25"
            case "?": escaped += "%3f"
            case "#": escaped += "%23"
            case " ": escaped += "%20"
            default: escaped.unicodeScalars.append(character)
            }
        }
        return "file:\(escaped)?immutable=1"
    }

    /// Whether the file carries the `immutable` attribute (`chattr +i`), which `access(2)`
    /// does not report to root.
    private static func isImmutable(_ path: String) -> Bool {
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return true }
        defer { close(fd) }
        var flags: CInt = 0
        // FS_IOC_GETFLAGS; FS_IMMUTABLE_FL = 0x10, FS_APPEND_FL = 0x20.
        guard ioctl(fd, 0x8008_6601, &flags) == 0 else { return false }
        return flags & 0x30 != 0
    }
}
