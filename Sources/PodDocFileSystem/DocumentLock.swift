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
    /// Set when a stale holder record was found and replaced; show it to the user.
    public let takeover: LockTakeover?

    private let fileSystem: FileSystem
    private var fileDescriptor: Int32?

    private init(lockFile: URL, mode: LockMode, takeover: LockTakeover?, fileSystem: FileSystem, fileDescriptor: Int32) {
        self.lockFile = lockFile
        self.mode = mode
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
    /// - Returns: The held lock.
    /// - Throws: ``FileSystemError/Code-swift.struct/locked`` naming the holder (pid, host) when
    ///   another process holds the lock in a conflicting mode; other ``FileSystemError``s when
    ///   the lock file cannot be opened or written.
    public static func acquire(
        _ lockFile: URL, mode: LockMode, toolVersion: String, fileSystem: FileSystem = FileSystem()
    ) throws -> DocumentLock {
        let path = lockFile.path
        let flags = (mode == .shared && fileSystem.itemKind(atPath: path) != nil) ? O_RDONLY : O_RDWR | O_CREAT
        let fd = try fileSystem.openFile(path, flags: flags | O_NOFOLLOW, mode: 0o644)
        var holdsLock = false
        do {
            do {
                try fileSystem.lockFile(fd, operation: (mode == .exclusive ? LOCK_EX : LOCK_SH) | LOCK_NB, path: path)
                holdsLock = true
            } catch let error as FileSystemError where error.errno == EWOULDBLOCK {
                throw lockedError(path: path, mode: mode, cause: error, fileSystem: fileSystem)
            }
            let takeover = (try? readHolder(path, fileSystem: fileSystem)).flatMap { $0 }
                .map(LockTakeover.init(previousHolder:))
            if mode == .exclusive {
                let record = try LockHolder.currentProcess(toolVersion: toolVersion).encoded()
                try fileSystem.truncateFile(fd, path: path)
                try record.withUnsafeBytes { try fileSystem.writeAll(fd, $0, path: path) }
                try fileSystem.sync(fd, path: path, as: .fsync)
            }
            return DocumentLock(lockFile: lockFile, mode: mode, takeover: takeover, fileSystem: fileSystem, fileDescriptor: fd)
        } catch {
            if holdsLock && mode == .exclusive {
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

    // MARK: Releasing

    /// Empties the holder record (exclusive mode) and releases the lock. Calling it again does
    /// nothing.
    ///
    /// Emptying the record is best effort: if it fails, the next holder reports a takeover.
    public func release() {
        guard let fd = fileDescriptor else { return }
        fileDescriptor = nil
        if mode == .exclusive {
            try? fileSystem.truncateFile(fd, path: lockFile.path)
        }
        Glibc.close(fd)
    }

    // MARK: Helpers

    /// The largest lock file read; holder records are a few hundred bytes.
    private static let maximumRecordSize = 64 * 1024

    private static func readHolder(_ path: String, fileSystem: FileSystem) throws -> LockHolder? {
        guard fileSystem.itemKind(atPath: path) != nil else { return nil }
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
            ? "Close the document there, or read it with --read-only (reading takes no lock)."
            : "Wait until it is closed there."
        return FileSystemError(
            code: .locked,
            message: "The document is locked (lock file '\(path)') \(who). \(advice)",
            path: path, systemCall: .lock, errno: cause.errno, cause: cause)
    }
}
