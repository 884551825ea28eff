import CArchive
import Foundation
import Glibc
import PodDocFileSystem

// MARK: - LibArchiveWriter

/// A libarchive write handle configured for reproducible output, writing through a `FileSink`.
final class LibArchiveWriter {
    /// Where libarchive's output goes; shared with the C write callback.
    private final class Output {
        let sink: FileSink
        /// The first error the sink threw; libarchive only sees `-1`.
        var error: (any Error)?

        init(sink: FileSink) {
            self.sink = sink
        }
    }

    /// libarchive's output block size: the sink sees 1 MiB writes.
    private static let blockSize: Int32 = 1 << 20

    private let handle: OpaquePointer
    private let entry: OpaquePointer
    private let output: Output
    private let archivePath: String
    private let modificationTime: Int64
    private var isClosed = false

    /// Configures a handle for `format` and opens it on `sink`.
    ///
    /// - Throws: ``ArchiveError/Code-swift.struct/writeFailed`` if libarchive refuses an option.
    init(format: ArchiveFormat, options: ArchiveWriteOptions, sink: FileSink, archivePath: String) throws {
        handle = archive_write_new()
        entry = archive_entry_new()
        output = Output(sink: sink)
        self.archivePath = archivePath
        modificationTime = options.modificationTime
        switch format {
        case .tarZstd:
            try check(archive_write_set_format_pax_restricted(handle), "select the pax tar format")
            try check(archive_write_add_filter_zstd(handle), "enable zstd compression")
            try check(
                archive_write_set_filter_option(handle, "zstd", "compression-level", String(options.zstdLevel)),
                "set the zstd level")
        case .tarGzip:
            try check(archive_write_set_format_pax_restricted(handle), "select the pax tar format")
            try check(archive_write_add_filter_gzip(handle), "enable gzip compression")
            // No time stamp in the gzip header (the `-n` of gzip).
            try check(archive_write_set_filter_option(handle, "gzip", "timestamp", nil), "turn off the gzip time stamp")
        case .zip:
            try check(archive_write_set_format_zip(handle), "select the zip format")
            try check(archive_write_set_format_option(handle, "zip", "compression", "deflate"), "select deflate")
        }
        // Names are handed over as UTF-8 and stored as UTF-8, whatever the process locale.
        try check(archive_write_set_options(handle, "hdrcharset=UTF-8"), "store names as UTF-8")
        try check(archive_write_set_bytes_per_block(handle, Self.blockSize), "set the block size")
        try check(archive_write_set_bytes_in_last_block(handle, 1), "turn off padding")
        let context = Unmanaged.passUnretained(output).toOpaque()
        try check(
            archive_write_open(
                handle, context, nil,
                { _, context, buffer, length in
                    let output = Unmanaged<Output>.fromOpaque(context!).takeUnretainedValue()
                    do {
                        try output.sink.write(UnsafeRawBufferPointer(start: buffer, count: length))
                        return length
                    } catch {
                        output.error = output.error ?? error
                        return -1
                    }
                }, nil),
            "open the output")
    }

    deinit {
        if !isClosed {
            archive_write_fail(handle)  // Do not flush a half-written archive.
        }
        archive_entry_free(entry)
        archive_write_free(handle)
    }

    // MARK: Entries

    /// Adds a file (streaming its contents in 1 MiB chunks) or a folder, with fixed metadata:
    /// mode `0644`/`0755`, uid and gid 0, no user or group names, the fixed modification time,
    /// and no other time stamps, extended attributes or ACLs.
    ///
    /// - Throws: ``ArchiveError`` naming the entry; ``ArchiveError/Code-swift.struct/sourceChanged``
    ///   if the file's size changed since the tree was scanned.
    func add(_ item: SourceTree.Item, fileSystem: FileSystem, observing observe: ((UnsafeRawBufferPointer) -> Void)? = nil) throws {
        let name = item.path.string
        try writeHeader(name, isDirectory: item.kind == .directory, size: item.size)
        if item.kind == .file {
            var written: Int64 = 0
            try fileSystem.readFile(at: item.url) { chunk in
                written += Int64(chunk.count)
                guard written <= item.size else { throw sourceChanged(item) }
                observe?(chunk)
                try writeData(chunk, entry: name)
            }
            guard written == item.size else { throw sourceChanged(item) }
        }
        try check(archive_write_finish_entry(handle), "finish \(quoted(name))", entry: name)
    }

    /// Flushes and closes the archive; the sink has received every byte when this returns.
    /// Adds a regular file at the top of the tree with `contents` from memory.
    func addFile(named name: String, contents: Data) throws {
        try writeHeader(name, isDirectory: false, size: Int64(contents.count))
        try contents.withUnsafeBytes { try writeData($0, entry: name) }
        try check(archive_write_finish_entry(handle), "finish \(quoted(name))", entry: name)
    }

    func close() throws {
        isClosed = true
        try check(archive_write_close(handle), "finish the archive")
    }

    // MARK: Helpers

    /// Writes an entry's header with the fixed metadata.
    private func writeHeader(_ name: String, isDirectory: Bool, size: Int64) throws {
        archive_entry_clear(entry)
        archive_entry_set_pathname_utf8(entry, name)
        archive_entry_set_filetype(entry, UInt32(isDirectory ? Glibc.S_IFDIR : Glibc.S_IFREG))
        archive_entry_set_perm(entry, isDirectory ? 0o755 : 0o644)
        archive_entry_set_uid(entry, 0)
        archive_entry_set_gid(entry, 0)
        archive_entry_set_mtime(entry, time_t(modificationTime), 0)
        if !isDirectory {
            archive_entry_set_size(entry, size)
        }
        try check(archive_write_header(handle, entry), "write the header of \(quoted(name))", entry: name)
    }

    private func writeData(_ chunk: UnsafeRawBufferPointer, entry name: String) throws {
        var offset = 0
        while offset < chunk.count {
            let written = archive_write_data(handle, chunk.baseAddress! + offset, chunk.count - offset)
            guard written > 0 else { throw failure("write the contents of \(quoted(name))", entry: name) }
            offset += written
        }
    }

    /// Throws unless libarchive reported `ARCHIVE_OK`.
    private func check(_ result: Int32, _ action: String, entry: String? = nil) throws {
        guard result != ARCHIVE_OK else { return }
        throw failure(action, entry: entry)
    }

    /// The error for a failed libarchive call: the sink's own error if it caused the failure.
    private func failure(_ action: String, entry: String? = nil) -> any Error {
        if let error = output.error {
            return error
        }
        let detail = archive_error_string(handle).map { String(cString: $0) } ?? "unknown libarchive error"
        return ArchiveError(
            code: .writeFailed,
            message: "Could not write the archive '\(archivePath)': libarchive could not \(action): \(detail). Nothing was written.",
            archive: archivePath, entry: entry)
    }

    private func sourceChanged(_ item: SourceTree.Item) -> ArchiveError {
        ArchiveError(
            code: .sourceChanged,
            message:
                "Could not write the archive '\(archivePath)': \(quoted(item.path.string)) changed size while it was being archived. Make sure nothing writes to the document during export, then export again. Nothing was written.",
            archive: archivePath, entry: item.path.string)
    }
}
