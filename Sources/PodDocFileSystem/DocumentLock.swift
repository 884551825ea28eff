import Foundation
import Glibc

// MARK: - LockMode

/// How a document is opened.
public enum LockMode: Sendable, Hashable {
    /// For editing: no other process may hold the lock in any mode.
    case exclusive
    /// Read-only: other readers may hold it too, but no editor.
    case shared
}

// MARK: - ReadingLock

/// What a reader found when it asked for a document's lock
/// (``DocumentLock/acquireForReading(_:fileSystem:)``).
public enum ReadingLock {
    /// Held in ``LockMode/shared`` mode: no editor has the document open, and none opens it
    /// until the lock is released.
    case held(DocumentLock)
    /// An editor has the document open: read alongside it.
    case editorPresent
    /// There is no lock file to take without making one, or it cannot be opened: whether an
    /// editor is at work is unknown.
    case unavailable
}

// MARK: - LockFileKind

/// Where a lock file lives, which decides its life cycle.
public enum LockFileKind: Sendable, Hashable {
    /// Inside a folder poddoc owns (a package, a working copy): kept forever, emptied on
    /// release.
    case owned
    /// Beside a document in the user's folder (an archive's `.NAME.poddoc-lock`), where every
    /// user and every machine sharing the folder sees it, as LibreOffice's `.~lock.NAME#`: it
    /// is made readable and writable by all, removed on release, and a record from another
    /// host (brought by a sync tool or a network folder) is respected, since whether that
    /// holder still runs cannot be checked from here.
    case besideDocument
}

// MARK: - LockTakeover

/// Reported when a lock file still named a holder that no longer held the lock (its process
/// died or its machine crashed), and that record was replaced.
public struct LockTakeover: Sendable, Hashable, CustomStringConvertible {
    /// The holder recorded in the lock file before it was taken over.
    public var previousHolder: LockHolder

    /// `took over a lock left by pid N on host H`.
    public var description: String {
        "took over a lock left by pid \(previousHolder.pid) on host \(previousHolder.host)"
    }
}

// MARK: - DocumentLock

/// An advisory lock on a document, held through `flock(2)` on a lock file (for example
/// `<package>/.poddoc-lock`), which records the holder as JSON (see ``LockHolder``).
///
/// `flock` locks belong to the open file and vanish when their process dies, so a crashed
/// editor never blocks a document: its record is recognised as stale and replaced
/// (see ``takeover``). The lock file itself is never renamed or deleted, since a lock held on
/// a replaced inode would no longer exclude anyone; it is emptied on release.
///
/// The lock is released by ``release()`` or when the object is deinitialised. Use it from one
/// isolation domain (for example the actor owning the document).
public final class DocumentLock {
    /// The lock file.
    public let lockFile: URL
    /// The mode the lock is held in.
    public let mode: LockMode
    /// Where the lock file lives (and so whether release removes it).
    public let kind: LockFileKind
    /// Set when a stale holder record was found and replaced; show it to the user.
    public let takeover: LockTakeover?

    private let fileSystem: FileSystem
    private var fileDescriptor: Int32?

    private init(
        lockFile: URL, mode: LockMode, kind: LockFileKind, takeover: LockTakeover?, fileSystem: FileSystem, fileDescriptor: Int32
    ) {
        self.lockFile = lockFile
        self.mode = mode
        self.kind = kind
        self.takeover = takeover
        self.fileSystem = fileSystem
        self.fileDescriptor = fileDescriptor
    }

    deinit {
        release()
    }

    // MARK: Acquiring

    /// Takes the lock without waiting.
    ///
    /// In ``LockMode/exclusive`` mode this process's ``LockHolder`` record is written to the lock
    /// file (and `fsync`ed); in ``LockMode/shared`` mode the file is only read. A record found in
    /// a lock file whose lock was free is stale: it is reported in ``takeover``.
    ///
    /// - Parameters:
    ///   - lockFile: The lock file; created (empty) if missing. Its folder must exist.
    ///   - mode: ``LockMode/exclusive`` to edit, ``LockMode/shared`` to read.
    ///   - toolVersion: The version recorded in the holder record.
    ///   - fileSystem: The file system to go through (pass a fault plan down here).
    ///   - kind: Where the lock file lives: ``LockFileKind/owned`` (kept, emptied on release)
    ///     or ``LockFileKind/besideDocument`` (shared with other users and machines, removed
    ///     on release).
    ///   - readerWait: How long an exclusive lock on an ``LockFileKind/owned`` file waits for
    ///     readers (``acquireForReading(_:fileSystem:)``) to let it go.
    /// - Returns: The held lock.
    /// - Throws: ``FileSystemError/Code-swift.struct/locked`` naming the holder (pid, host) when
    ///   another process holds the lock in a conflicting mode, or (beside a document) when the
    ///   record names a holder on another host; other ``FileSystemError``s when the lock file
    ///   cannot be opened or written.
    public static func acquire(
        _ lockFile: URL, mode: LockMode, toolVersion: String, fileSystem: FileSystem = FileSystem(),
        kind: LockFileKind = .owned, readerWait: Duration = DocumentLock.readerWait
    ) throws -> DocumentLock {
        guard kind == .besideDocument else {
            return try acquireOnce(
                lockFile, mode: mode, toolVersion: toolVersion, fileSystem: fileSystem, kind: kind, readerWait: readerWait)!
        }
        // A lock file removed on release can be removed between this process's open and its
        // `flock`: the lock then holds a file no one else will open. Taken again until the
        // locked file is the one the name points to.
        for _ in 0..<100 {
            if let lock = try acquireOnce(
                lockFile, mode: mode, toolVersion: toolVersion, fileSystem: fileSystem, kind: kind, readerWait: readerWait)
            {
                return lock
            }
        }
        throw FileSystemError(
            code: .locked, message: "The lock file '\(lockFile.path)' keeps being replaced by another process; try again.",
            path: lockFile.path)
    }

    /// One attempt of ``acquire(_:mode:toolVersion:fileSystem:kind:readerWait:)``: nil when a lock file
    /// beside a document was removed or replaced while it was being locked.
    private static func acquireOnce(
        _ lockFile: URL, mode: LockMode, toolVersion: String, fileSystem: FileSystem, kind: LockFileKind,
        readerWait: Duration
    ) throws -> DocumentLock? {
        let path = lockFile.path
        let fd = try openLockFile(path, mode: mode, kind: kind, fileSystem: fileSystem)
        var writingRecord = false
        do {
            var status = stat()
            guard fstat(fd, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
                throw corruptLockFile(path, detail: "it is not a regular file")
            }
            do {
                try fileSystem.lockFile(fd, operation: (mode == .exclusive ? LOCK_EX : LOCK_SH) | LOCK_NB, path: path)
            } catch let error as FileSystemError where error.errno == EWOULDBLOCK {
                guard mode == .exclusive, kind == .owned else {
                    throw lockedError(path: path, mode: mode, cause: error, fileSystem: fileSystem)
                }
                try waitForReaders(fd, path: path, cause: error, fileSystem: fileSystem, upTo: readerWait)
            }
            if kind == .besideDocument && !namesLockedFile(fd, path: path) {
                Glibc.close(fd)
                return nil
            }
            let previous = (try? readHolder(path, fileSystem: fileSystem)).flatMap { $0 }
            if kind == .besideDocument, let previous, previous.isRunning == nil {
                throw heldElsewhere(path: path, holder: previous)
            }
            let takeover = previous.map(LockTakeover.init(previousHolder:))
            if mode == .exclusive && kind == .besideDocument && !isWritable(fd) {
                // Another user's lock file that this user may lock but not write: the lock
                // excludes as well; the record stays the previous holder's (or empty).
            } else if mode == .exclusive {
                writingRecord = true
                let record = try LockHolder.currentProcess(toolVersion: toolVersion).encoded()
                try fileSystem.truncateFile(fd, path: path)
                try record.withUnsafeBytes { try fileSystem.writeAll(fd, $0, path: path) }
                try fileSystem.sync(fd, path: path, as: .fsync)
            }
            return DocumentLock(
                lockFile: lockFile, mode: mode, kind: kind, takeover: takeover, fileSystem: fileSystem, fileDescriptor: fd)
        } catch {
            if writingRecord {
                Glibc.ftruncate(fd, 0)  // Best effort: do not leave a half-written record behind.
            }
            Glibc.close(fd)
            throw error
        }
    }

    /// Reads the holder record of a lock file without taking the lock (for an `info` command).
    ///
    /// The record may be stale: check ``LockHolder/isRunning``.
    ///
    /// - Parameters:
    ///   - lockFile: The lock file.
    ///   - fileSystem: The file system to go through.
    /// - Returns: The recorded holder, or `nil` when the file is missing or empty.
    /// - Throws: ``FileSystemError/Code-swift.struct/corruptLockFile`` when the file holds
    ///   something else than a holder record; other ``FileSystemError``s if it cannot be read.
    public static func currentHolder(of lockFile: URL, fileSystem: FileSystem = FileSystem()) throws -> LockHolder? {
        try readHolder(lockFile.path, fileSystem: fileSystem)
    }

    /// Takes a document's lock for a read that ends soon (a command), without making or
    /// writing any file: the lock file is opened read-only, and a missing one is not created.
    ///
    /// While the returned lock is held no editor has the document open and none opens it
    /// (an editor waits for readers, see ``acquire(_:mode:toolVersion:fileSystem:kind:readerWait:)``), so
    /// the reader may take the store for an unchanging file.
    ///
    /// - Parameters:
    ///   - lockFile: The document's lock file (a package's `.poddoc-lock`).
    ///   - fileSystem: The file system to go through.
    /// - Returns: What was found: the lock held, an editor at work, or no lock to take.
    public static func acquireForReading(_ lockFile: URL, fileSystem: FileSystem = FileSystem()) -> ReadingLock {
        let path = lockFile.path
        // Non-blocking, so a FIFO put in the lock file's place cannot hang the reader; only a
        // regular file is a lock.
        guard let fd = try? fileSystem.openFile(path, flags: O_RDONLY | O_NOFOLLOW | O_NONBLOCK) else { return .unavailable }
        var status = stat()
        guard fstat(fd, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            Glibc.close(fd)
            return .unavailable
        }
        do {
            try fileSystem.lockFile(fd, operation: LOCK_SH | LOCK_NB, path: path)
        } catch {
            Glibc.close(fd)
            return (error as? FileSystemError)?.errno == EWOULDBLOCK ? .editorPresent : .unavailable
        }
        return .held(
            DocumentLock(lockFile: lockFile, mode: .shared, kind: .owned, takeover: nil, fileSystem: fileSystem, fileDescriptor: fd))
    }

    /// How long an editor waits by default for readers to finish (see
    /// ``acquireForReading(_:fileSystem:)``) before it gives up.
    public static let readerWait: Duration = .seconds(30)

    /// Waits until the readers holding the lock let it go, taking it exclusively then. While
    /// the lock can be had in shared mode it is held by readers alone, and this tries again,
    /// up to `wait`; an exclusive holder (an editor) is reported at once.
    ///
    /// - Throws: ``FileSystemError/Code-swift.struct/locked`` naming the editor, or saying
    ///   that readers still hold the lock after `wait`.
    private static func waitForReaders(
        _ fd: Int32, path: String, cause: FileSystemError, fileSystem: FileSystem, upTo wait: Duration
    ) throws {
        let deadline = ContinuousClock.now + wait
        var pause: UInt32 = 2_000
        while true {
            guard heldByReadersAlone(path) else {
                throw lockedError(path: path, mode: .exclusive, cause: cause, fileSystem: fileSystem)
            }
            guard ContinuousClock.now < deadline else {
                throw FileSystemError(
                    code: .locked,
                    message:
                        "The document is being read by other poddoc commands (lock file '\(path)'), still after \(wait.components.seconds) s. Try again when they end.",
                    path: path, systemCall: .lock, errno: cause.errno, cause: cause)
            }
            usleep(pause)
            pause = min(pause * 2, 100_000)
            do {
                try fileSystem.lockFile(fd, operation: LOCK_EX | LOCK_NB, path: path)
                return
            } catch let error as FileSystemError where error.errno == EWOULDBLOCK {
                continue
            }
        }
    }

    /// Whether the lock file can be locked in shared mode now: no one holds it exclusively.
    private static func heldByReadersAlone(_ path: String) -> Bool {
        let probe = Glibc.open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard probe >= 0 else { return false }
        defer { Glibc.close(probe) }
        return flock(probe, LOCK_SH | LOCK_NB) == 0
    }

    // MARK: Releasing

    /// Empties the holder record (exclusive mode) and releases the lock; a lock file beside a
    /// document is removed first, while still locked. Calling it again does nothing.
    ///
    /// Emptying the record is best effort: if it fails, the next holder reports a takeover.
    public func release() {
        guard let fd = fileDescriptor else { return }
        fileDescriptor = nil
        if kind == .besideDocument && mode == .exclusive && Self.namesLockedFile(fd, path: lockFile.path) {
            // Best effort: a lock file left behind (a read-only folder) is empty, and free.
            try? fileSystem.truncateFile(fd, path: lockFile.path)
            try? fileSystem.unlinkItem(lockFile.path, isDirectory: false)
        } else if mode == .exclusive {
            try? fileSystem.truncateFile(fd, path: lockFile.path)
        }
        Glibc.close(fd)
    }

    /// Lets the lock go as the death of this process would: the file and its holder record
    /// stay as they are (for tests of what a crash leaves). Calling it again, or
    /// ``release()`` afterwards, does nothing.
    public func abandon() {
        guard let fd = fileDescriptor else { return }
        fileDescriptor = nil
        Glibc.close(fd)
    }

    // MARK: Helpers

    /// Opens (creating it if needed) the lock file, without blocking (a FIFO put in its
    /// place would wait for a writer; `acquireOnce` refuses what is not a regular file). A lock file beside a document is made
    /// readable and writable by everyone who shares the folder (`0666`, whatever the umask),
    /// and opened read-only when it is another user's that this one may not write (`flock`
    /// needs no write access); an existing file is opened without `O_CREAT`, which a sticky
    /// shared folder refuses for another user's file (`protected_regular`).
    private static func openLockFile(_ path: String, mode: LockMode, kind: LockFileKind, fileSystem: FileSystem) throws -> Int32 {
        guard kind == .besideDocument else {
            let flags = (mode == .shared && fileSystem.itemKind(atPath: path) != nil) ? O_RDONLY : O_RDWR | O_CREAT
            return try fileSystem.openFile(path, flags: flags | O_NOFOLLOW | O_NONBLOCK, mode: 0o644)
        }
        while true {
            do {
                return try fileSystem.openFile(path, flags: O_RDWR | O_NOFOLLOW | O_NONBLOCK)
            } catch let error as FileSystemError where error.errno == EACCES {
                return try fileSystem.openFile(path, flags: O_RDONLY | O_NOFOLLOW | O_NONBLOCK)
            } catch let error as FileSystemError where error.errno == ENOENT {
                do {
                    let fd = try fileSystem.openFile(path, flags: O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_NONBLOCK, mode: 0o666)
                    Glibc.fchmod(fd, 0o666)
                    return fd
                } catch let error as FileSystemError where error.errno == EEXIST {
                    continue  // Made by another process meanwhile: open that one.
                }
            }
        }
    }

    /// Whether `path` still names the file open as `fd` (a lock file beside a document may be
    /// removed by its holder's release, or replaced by a sync tool).
    private static func namesLockedFile(_ fd: Int32, path: String) -> Bool {
        var open = stat()
        var named = stat()
        guard fstat(fd, &open) == 0, lstat(path, &named) == 0 else { return false }
        return open.st_dev == named.st_dev && open.st_ino == named.st_ino
    }

    private static func isWritable(_ fd: Int32) -> Bool {
        let flags = fcntl(fd, F_GETFL)
        return flags >= 0 && (flags & O_ACCMODE) != O_RDONLY
    }

    /// A record beside a document naming a holder on another machine.
    private static func heldElsewhere(path: String, holder: LockHolder) -> FileSystemError {
        FileSystemError(
            code: .locked,
            message:
                "The document is locked (lock file '\(path)') by \(holder.summary), another machine: it may be open there. If it is not (that machine crashed or went away while editing), remove '\(path)' and try again.",
            path: path)
    }

    /// The largest lock file read; holder records are a few hundred bytes.
    private static let maximumRecordSize = 64 * 1024

    private static func readHolder(_ path: String, fileSystem: FileSystem) throws -> LockHolder? {
        guard let kind = fileSystem.itemKind(atPath: path) else { return nil }
        // A FIFO or a device read here would wait for ever, or read without end.
        guard kind == .regularFile else { throw corruptLockFile(path, detail: "it is not a regular file") }
        var data = Data()
        try fileSystem.readFile(at: URL(fileURLWithPath: path), chunkSize: 4096) { chunk in
            guard data.count + chunk.count <= maximumRecordSize else {
                throw corruptLockFile(path, detail: "it is larger than \(maximumRecordSize) bytes")
            }
            data.append(contentsOf: chunk)
        }
        if data.isEmpty { return nil }
        do {
            return try LockHolder.decode(data)
        } catch {
            throw corruptLockFile(path, detail: "it does not hold a lock holder record (\(error))")
        }
    }

    private static func corruptLockFile(_ path: String, detail: String) -> FileSystemError {
        FileSystemError(
            code: .corruptLockFile,
            message: "The lock file '\(path)' is damaged: \(detail). If no one has the document open, delete the lock file.",
            path: path)
    }

    private static func lockedError(
        path: String, mode: LockMode, cause: FileSystemError, fileSystem: FileSystem
    ) -> FileSystemError {
        let holder = (try? readHolder(path, fileSystem: fileSystem)).flatMap { $0 }
        let who = holder.map { "by \($0.summary)" } ?? "by another process (it has not recorded its details yet)"
        let advice =
            mode == .exclusive
            ? "Close it there first; commands that only read it (and `open --read-only`) work meanwhile."
            : "Wait until it is closed there."
        return FileSystemError(
            code: .locked,
            message: "The document is locked (lock file '\(path)') \(who). \(advice)",
            path: path, systemCall: .lock, errno: cause.errno, cause: cause)
    }
}
