import Foundation
import Glibc

// MARK: - Folders and plain files

extension FileSystem {
    /// Lists a folder without following symbolic links.
    ///
    /// - Parameter directory: The folder to list.
    /// - Returns: Its entries (without `.` and `..`), in no particular order.
    /// - Throws: ``FileSystemError`` if the folder cannot be opened, or
    ///   ``FileSystemError/Code-swift.struct/invalidName`` for a name that is not valid UTF-8.
    public func contentsOfDirectory(at directory: URL) throws -> [DirectoryEntry] {
        let path = directory.path
        var opened: OpaquePointer?
        try perform(.open, path, retryingInterrupts: true) { () -> Int32 in
            opened = opendir(path)
            return opened == nil ? -1 : 0
        }
        guard let handle = opened else { return [] }
        defer { closedir(handle) }
        var entries: [DirectoryEntry] = []
        while let raw = readdir(handle) {
            let bytes = withUnsafeBytes(of: raw.pointee.d_name) { Array($0.prefix { $0 != 0 }) }
            guard let name = String(validating: bytes, as: UTF8.self) else {
                throw FileSystemError(
                    code: .invalidName,
                    message:
                        "The folder '\(path)' holds a file whose name is not valid UTF-8 (\(String(decoding: bytes, as: UTF8.self))). Rename it with a UTF-8 name.",
                    path: path)
            }
            if name == "." || name == ".." { continue }
            var status = stat()
            let childPath = path.hasSuffix("/") ? path + name : path + "/" + name
            try perform(.stat, childPath) { lstat(childPath, &status) }
            entries.append(
                DirectoryEntry(name: name, kind: DirectoryEntry.Kind(mode: status.st_mode), size: Int64(status.st_size)))
        }
        return entries
    }

    /// Creates a folder with mode `0755` (less the umask). Its parent must exist.
    ///
    /// - Parameter directory: The folder to create.
    /// - Throws: ``FileSystemError`` if `mkdir(2)` fails, e.g. because it already exists.
    public func createDirectory(at directory: URL) throws {
        try makeDirectory(directory.path, mode: 0o755)
    }

    /// Creates a new file (which must not exist), lets `body` fill it, and closes it.
    ///
    /// The file is opened with `O_CREAT | O_EXCL | O_NOFOLLOW`, so neither an existing file nor
    /// a symbolic link at that name is ever written through. The file is not `fsync`ed: use it
    /// inside ``writeDirectory(at:replacingExisting:verifying:_:)``, which syncs everything it installs.
    /// When `body` throws, the partial file is removed.
    ///
    /// - Parameters:
    ///   - file: The file to create.
    ///   - body: Writes the contents through the sink.
    /// - Throws: ``FileSystemError``, or whatever `body` throws.
    public func createFile(at file: URL, _ body: (FileSink) throws -> Void) throws {
        let path = file.path
        let fd = try openFile(path, flags: O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, mode: 0o644)
        let sink = FileSink(fileDescriptor: fd, path: path, fileSystem: self)
        defer { sink.invalidate() }
        do {
            try body(sink)
        } catch {
            Glibc.close(fd)
            discard(path)
            throw error
        }
        try closeFile(fd, path: path)
    }

    /// Reads a file in chunks, handing each to `body`, without loading it whole.
    ///
    /// A symbolic link at `file` is refused (`O_NOFOLLOW`).
    ///
    /// - Parameters:
    ///   - file: The file to read.
    ///   - chunkSize: The size of the read buffer (1 MiB by default).
    ///   - body: Receives each chunk; the buffer is reused, so copy what you keep.
    /// - Returns: The number of bytes read.
    /// - Throws: ``FileSystemError`` if opening or reading fails, or whatever `body` throws.
    @discardableResult
    public func readFile(
        at file: URL, chunkSize: Int = 1 << 20, _ body: (UnsafeRawBufferPointer) throws -> Void
    ) throws -> Int64 {
        let path = file.path
        let fd = try openFile(path, flags: O_RDONLY | O_NOFOLLOW)
        defer { Glibc.close(fd) }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 16)
        defer { buffer.deallocate() }
        var total: Int64 = 0
        while true {
            let count = try readSome(fd, into: buffer, path: path)
            if count == 0 { return total }
            total += Int64(count)
            try body(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
        }
    }

    /// `fsync`s a folder, making the names created, renamed or removed in it durable.
    ///
    /// - Parameter directory: The folder to sync.
    /// - Throws: ``FileSystemError`` naming the failing step; a failed `fsync` is never retried.
    public func syncDirectory(at directory: URL) throws {
        try syncDirectory(directory.path)
    }

    func syncDirectory(_ path: String) throws {
        let fd = try openFile(path, flags: O_RDONLY | O_DIRECTORY)
        do {
            try sync(fd, path: path, as: .directoryFsync)
        } catch {
            Glibc.close(fd)
            throw error
        }
        try closeFile(fd, path: path)
    }

    /// `fsync`s every file and folder under `path` (folders after their contents), then `path`.
    func syncTree(_ path: String) throws {
        for entry in try contentsOfDirectory(at: URL(fileURLWithPath: path)) {
            let child = path + "/" + entry.name
            switch entry.kind {
            case .directory:
                try syncTree(child)
            case .regularFile:
                let fd = try openFile(child, flags: O_RDONLY | O_NOFOLLOW)
                do {
                    try sync(fd, path: child, as: .fsync)
                } catch {
                    Glibc.close(fd)
                    throw error
                }
                try closeFile(fd, path: child)
            case .symbolicLink, .special:
                continue  // Nothing to flush but the name, which the folder's fsync covers.
            }
        }
        try syncDirectory(path)
    }

    /// Removes `path` and, if it is a folder, everything in it.
    func removeTree(_ path: String) throws {
        if itemKind(atPath: path) == .directory {
            for entry in try contentsOfDirectory(at: URL(fileURLWithPath: path)) {
                try removeTree(path + "/" + entry.name)
            }
            try unlinkItem(path, isDirectory: true)
        } else {
            try unlinkItem(path, isDirectory: false)
        }
    }
}
