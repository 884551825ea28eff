import Foundation
import Glibc

// MARK: - FileSink

/// A file being written, handed to the closure of a streaming write.
///
/// Writes go through the ``FileSystem`` that created the sink, so fault plans apply. The sink is
/// valid only inside the closure it was handed to; writing after that throws.
///
/// Every 8 MiB the sink asks the kernel to start writing what it has
/// to disk (`sync_file_range(SYNC_FILE_RANGE_WRITE)`, which does not wait): the disk then
/// works while the writer goes on, and the `fsync` that makes the file durable has little
/// left to wait for. The request is only a hint; durability still comes from that `fsync`.
public final class FileSink {
    private let fileDescriptor: Int32
    private let path: String
    private let fileSystem: FileSystem
    private var isOpen = true
    private var written: Int64 = 0
    private var writebackStarted: Int64 = 0

    /// How many bytes are written between two requests to start writing back.
    static let writebackInterval: Int64 = 8 << 20

    init(fileDescriptor: Int32, path: String, fileSystem: FileSystem) {
        self.fileDescriptor = fileDescriptor
        self.path = path
        self.fileSystem = fileSystem
    }

    /// Appends bytes to the file, all of them or none (partial writes are continued).
    ///
    /// - Parameter bytes: The bytes to append.
    /// - Throws: ``FileSystemError`` if `write(2)` fails (e.g. `ENOSPC`), or if the sink is
    ///   used after its closure returned.
    public func write(_ bytes: UnsafeRawBufferPointer) throws {
        guard isOpen else {
            throw FileSystemError(
                code: .unknown,
                message: "The file '\(path)' was written after its save finished. Write only inside the closure that received the sink.",
                path: path)
        }
        try fileSystem.writeAll(fileDescriptor, bytes, path: path)
        written += Int64(bytes.count)
        if written - writebackStarted >= Self.writebackInterval {
            _ = startWriteback?(fileDescriptor, writebackStarted, written - writebackStarted, syncFileRangeWrite)
            writebackStarted = written
        }
    }

    /// Appends `data` to the file.
    ///
    /// - Parameter data: The bytes to append.
    /// - Throws: ``FileSystemError`` if `write(2)` fails.
    public func write(_ data: Data) throws {
        try data.withUnsafeBytes { try write($0) }
    }

    /// Ends the sink's life; later writes throw.
    func invalidate() {
        isOpen = false
    }
}

/// `sync_file_range(2)`, which Glibc's Swift module does not export (it is a GNU extension);
/// nil where the C library lacks it, and the sink then leaves writeback to the kernel.
private let startWriteback: (@convention(c) (Int32, Int64, Int64, UInt32) -> Int32)? = {
    guard let symbol = dlsym(nil, "sync_file_range") else { return nil }
    return unsafeBitCast(symbol, to: (@convention(c) (Int32, Int64, Int64, UInt32) -> Int32).self)
}()

/// `SYNC_FILE_RANGE_WRITE`: start writing back dirty pages of the range, without waiting.
private let syncFileRangeWrite: UInt32 = 2
