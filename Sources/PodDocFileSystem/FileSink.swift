import Foundation

// MARK: - FileSink

/// A file being written, handed to the closure of a streaming write.
///
/// Writes go through the ``FileSystem`` that created the sink, so fault plans apply. The sink is
/// valid only inside the closure it was handed to; writing after that throws.
public final class FileSink {
    private let fileDescriptor: Int32
    private let path: String
    private let fileSystem: FileSystem
    private var isOpen = true

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
