import Glibc

// MARK: - System calls

/// Thin wrappers around the system calls, each of which first consults the fault plan.
///
/// They retry `EINTR` where that is safe (`open`, `read`, `write`, `flock`) and never retry
/// `fsync` or `close`. They throw a ``FileSystemError`` naming the step and the path.
extension FileSystem {
    /// The error for a failed `call` on `path`.
    func failure(_ call: SystemCall, _ path: String, errno: Int32) -> FileSystemError {
        let code = FileSystemError.Code(errno: errno)
        return FileSystemError(
            code: code,
            message: "\(call) failed on '\(path)': \(describeErrno(errno)). \(code.advice)",
            path: path, systemCall: call, errno: errno)
    }

    /// Runs `body` unless the fault plan fails `call` on `path`; turns `-1` into an error.
    @discardableResult
    func perform<Result: BinaryInteger>(
        _ call: SystemCall, _ path: String, retryingInterrupts: Bool = false, _ body: () -> Result
    ) throws -> Result {
        if let injected = faults?.injectedErrno(for: call, path: path) {
            throw failure(call, path, errno: injected)
        }
        while true {
            let result = body()
            if result != -1 { return result }
            let error = Glibc.errno
            if retryingInterrupts && error == EINTR { continue }
            throw failure(call, path, errno: error)
        }
    }

    // MARK: Files

    func openFile(_ path: String, flags: Int32, mode: mode_t = 0) throws -> Int32 {
        try perform(.open, path, retryingInterrupts: true) { Glibc.open(path, flags | O_CLOEXEC, mode) }
    }

    func readSome(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer, path: String) throws -> Int {
        try perform(.read, path, retryingInterrupts: true) { Glibc.read(fd, buffer.baseAddress, buffer.count) }
    }

    func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, path: String) throws {
        var offset = 0
        while offset < bytes.count {
            let written = try perform(.write, path, retryingInterrupts: true) {
                Glibc.write(fd, bytes.baseAddress! + offset, bytes.count - offset)
            }
            guard written > 0 else { throw failure(.write, path, errno: EIO) }  // No progress.
            offset += written
        }
    }

    /// `fsync`s a file (`.fsync`) or a folder (`.directoryFsync`). Never retried.
    func sync(_ fd: Int32, path: String, as call: SystemCall) throws {
        try perform(call, path) { Glibc.fsync(fd) }
    }

    /// Closes `fd`. Never retried: on Linux the descriptor is gone even when `close` fails.
    func closeFile(_ fd: Int32, path: String) throws {
        try perform(.close, path) { Glibc.close(fd) }
    }

    func truncateFile(_ fd: Int32, path: String) throws {
        try perform(.truncate, path) { Glibc.ftruncate(fd, 0) }
    }

    func lockFile(_ fd: Int32, operation: Int32, path: String) throws {
        try perform(.lock, path, retryingInterrupts: true) { flock(fd, operation) }
    }

    // MARK: Names

    func makeDirectory(_ path: String, mode: mode_t) throws {
        try perform(.mkdir, path) { Glibc.mkdir(path, mode) }
    }

    func unlinkItem(_ path: String, isDirectory: Bool) throws {
        try perform(.unlink, path) { Glibc.unlinkat(AT_FDCWD, path, isDirectory ? AT_REMOVEDIR : 0) }
    }

    /// `rename(2)`: moves `source` to `target`, replacing a file there.
    func renameItem(_ source: String, to target: String) throws {
        try perform(.rename, target) { Glibc.rename(source, target) }
    }

    /// Moves `source` to `target`, failing with `EEXIST` if `target` exists.
    ///
    /// Uses `renameat2(RENAME_NOREPLACE)`; where the file system does not support it, falls
    /// back to checking for `target` and then `rename(2)`.
    func renameNoReplace(_ source: String, to target: String) throws {
        try perform(.rename, target) { () -> Int32 in
            let result = LinuxRename.renameat2(source, target, flags: LinuxRename.noReplace)
            guard result == -1, LinuxRename.isUnsupported(Glibc.errno) else { return result }
            if itemKind(atPath: target) != nil {
                Glibc.errno = EEXIST
                return -1
            }
            return Glibc.rename(source, target)
        }
    }

    /// Atomically swaps `first` and `second`.
    ///
    /// - Returns: `false`, without changing anything, when the file system cannot swap.
    func exchange(_ first: String, _ second: String) throws -> Bool {
        do {
            try perform(.renameExchange, second) {
                LinuxRename.renameat2(first, second, flags: LinuxRename.exchange)
            }
            return true
        } catch let error as FileSystemError where error.errno.map(LinuxRename.isUnsupported) == true {
            return false
        }
    }

    // MARK: Metadata

    /// The kind of item at `path` (not following a final symbolic link), or `nil` if none.
    func itemKind(atPath path: String) -> DirectoryEntry.Kind? {
        var status = stat()
        guard lstat(path, &status) == 0 else { return nil }
        return DirectoryEntry.Kind(mode: status.st_mode)
    }
}
