import Foundation
import Glibc
import Synchronization

// MARK: - Safe save

extension FileSystem {
    /// Replaces the contents of a file durably and atomically.
    ///
    /// See ``write(to:replacingExisting:_:)`` for the steps and guarantees.
    ///
    /// - Parameters:
    ///   - data: The new contents.
    ///   - target: The file to write; its folder must exist.
    ///   - replacingExisting: When `false`, an existing `target` is an error.
    /// - Throws: ``FileSystemError`` naming the failing step; the previous version is unchanged.
    public func write(_ data: Data, to target: URL, replacingExisting: Bool = true) throws {
        try write(to: target, replacingExisting: replacingExisting) { try $0.write(data) }
    }

    /// Writes a file durably and atomically, streaming its contents through a sink.
    ///
    /// Steps: create `.name.tmp-XXXXXXXX` beside `target` (`O_EXCL | O_NOFOLLOW`, mode `0644`),
    /// let `body` write through the sink, `fsync` it, close it, swap it with `target`
    /// (`renameat2(RENAME_EXCHANGE)`; plain `rename(2)` when `target` does not exist or the file
    /// system cannot swap), `fsync` the folder, remove the previous version. Only then does the
    /// call return. A symbolic link at `target` is replaced, not followed.
    ///
    /// If any step fails (or `body` throws), the previous version of `target` is left in place,
    /// the temporary file is removed, and the error names the step. If the folder's `fsync`
    /// fails after the swap, the swap is undone first.
    ///
    /// - Parameters:
    ///   - target: The file to write; its folder must exist.
    ///   - replacingExisting: When `false`, an existing `target` is an error (checked before
    ///     `body` runs, and again atomically when moving into place).
    ///   - body: Writes the new contents; the sink is valid only during this call.
    /// - Throws: ``FileSystemError`` naming the failing step, or whatever `body` throws.
    ///   A ``FileSystemError/Code-swift.struct/cleanupFailed`` error means the new version was
    ///   saved (or the previous one could not be put back); its message says what is where.
    public func write(to target: URL, replacingExisting: Bool = true, _ body: (FileSink) throws -> Void) throws {
        let targetPath = target.path
        let existed = itemKind(atPath: targetPath) != nil
        if existed && !replacingExisting { throw alreadyExists(targetPath) }
        let staged = TemporarySibling.path(for: targetPath, kind: "tmp")
        do {
            let fd = try openFile(staged, flags: O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, mode: 0o644)
            let sink = FileSink(fileDescriptor: fd, path: staged, fileSystem: self)
            do {
                defer { sink.invalidate() }
                try body(sink)
                try sync(fd, path: staged, as: .fsync)
            } catch {
                Glibc.close(fd)
                discard(staged)
                throw error
            }
            do {
                try closeFile(fd, path: staged)
            } catch {
                discard(staged)
                throw error
            }
        } catch {
            throw saveFailed(error, target: targetPath, targetExisted: existed)
        }
        try install(staged, at: targetPath, replacingExisting: replacingExisting)
    }

    /// Copies a file durably: the copy is written with ``write(to:replacingExisting:_:)``, so when this returns
    /// the copy is complete and on disk, and a failure leaves any previous `target` unchanged.
    ///
    /// - Parameters:
    ///   - source: The file to copy (a symbolic link is refused).
    ///   - target: Where to put the copy; its folder must exist.
    /// - Throws: ``FileSystemError`` naming the failing step.
    public func copyFile(at source: URL, to target: URL) throws {
        try write(to: target) { sink in
            try readFile(at: source) { try sink.write($0) }
        }
    }

    /// Writes a folder tree durably and puts it in place of `target` in one step.
    ///
    /// Steps: create `.name.tmp-XXXXXXXX` beside `target`, let `body` fill it, `fsync` every file
    /// and folder in it, then move it into place: an atomic `renameat2(RENAME_EXCHANGE)` swap
    /// when `target` exists (where the file system cannot swap, `target` is renamed aside first),
    /// `renameat2(RENAME_NOREPLACE)` when it does not. Then `fsync` the parent folder and remove
    /// the previous version.
    ///
    /// If any step fails (or `body` throws), the previous `target` stays in place, the
    /// temporary folder is removed, and the error names the step.
    ///
    /// - Parameters:
    ///   - target: The folder to write; its parent must exist.
    ///   - replacingExisting: When `false`, an existing `target` is an error (checked before
    ///     `body` runs, and again atomically when moving into place).
    ///   - verifying: A check of the filled folder, run on another thread while it is being
    ///     synced (reading what was just written costs no disk time then). The folder goes
    ///     into place only when the check passes; it must create nothing in the folder.
    ///   - body: Fills the folder it is given (the temporary folder).
    /// - Throws: ``FileSystemError`` naming the failing step, or whatever `body` or
    ///   `verifying` throws.
    public func writeDirectory(
        at target: URL, replacingExisting: Bool = true, verifying: (@Sendable (URL) throws -> Void)? = nil,
        _ body: (URL) throws -> Void
    ) throws {
        let targetPath = target.path
        let existed = itemKind(atPath: targetPath) != nil
        if existed && !replacingExisting { throw alreadyExists(targetPath) }
        let staged = TemporarySibling.path(for: targetPath, kind: "tmp")
        do {
            try makeDirectory(staged, mode: 0o755)
        } catch {
            throw saveFailed(error, target: targetPath, targetExisted: existed)
        }
        do {
            let folder = URL(fileURLWithPath: staged, isDirectory: true)
            try body(folder)
            if let verifying {
                try Self.concurrently({ try verifying(folder) }, with: { try syncTree(staged) })
            } else {
                try syncTree(staged)
            }
        } catch {
            discard(staged)
            throw saveFailed(error, target: targetPath, targetExisted: existed)
        }
        try install(staged, at: targetPath, replacingExisting: replacingExisting)
    }

    private func alreadyExists(_ path: String) -> FileSystemError {
        FileSystemError(
            code: .alreadyExists,
            message: "Could not create '\(path)': something with that name already exists. Choose another name, or move it away first.",
            path: path)
    }

    /// Runs `background` on another thread while `body` runs on this one; rethrows the
    /// error of `body` first, then that of `background`.
    private static func concurrently(_ background: @escaping @Sendable () throws -> Void, with body: () throws -> Void) throws {
        let outcome = BackgroundOutcome()
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global(qos: .userInitiated).async {
            let result = Result { try background() }
            outcome.result.withLock { $0 = result }
            done.signal()
        }
        let bodyResult = Result { try body() }
        done.wait()
        try bodyResult.get()
        try outcome.result.withLock { $0 }?.get()
    }
}

/// What a block run on another thread by `concurrently` ended with.
private final class BackgroundOutcome: Sendable {
    let result = Mutex<Result<Void, any Error>?>(nil)
}
