import CArchive
import Foundation
import Glibc

// MARK: - LibArchiveReader

/// A libarchive read handle that recognises the supported formats from the content only.
///
/// Only the tar and zip readers and the gzip and zstd decompressors are enabled, so no other
/// parser (and no external decompression program) ever sees hostile input.
final class LibArchiveReader {
    /// One archive entry's header, as far as extraction needs it.
    struct Header {
        /// The name's bytes as stored (a folder's name may end with `/`); `nil` when libarchive
        /// cannot decode it.
        var nameBytes: [UInt8]?
        /// `S_IFREG`, `S_IFDIR`, `S_IFLNK`, ... (the `S_IFMT` bits).
        var fileType: mode_t
        /// The permission bits including set-uid, set-gid and sticky.
        var permissions: mode_t
        /// Whether the entry is a hard link to another entry.
        var isHardLink: Bool
        /// Whether the entry is a symbolic link.
        var isSymbolicLink: Bool
        /// The declared size, when the archive declares one.
        var declaredSize: Int64?

        /// The name for messages: invalid UTF-8 shows as U+FFFD.
        var displayName: String {
            String(decoding: nameBytes ?? [], as: UTF8.self)
        }
    }

    private let handle: OpaquePointer
    private let path: String
    private var formatChecked = false

    /// Opens an archive file and recognises its compression.
    ///
    /// - Parameter path: The archive file.
    /// - Throws: ``ArchiveError/Code-swift.struct/unreadableArchive`` if it cannot be opened or
    ///   its compression is not gzip, zstd or none.
    init(path: String) throws {
        handle = archive_read_new()
        self.path = path
        archive_read_support_format_tar(handle)
        archive_read_support_format_zip(handle)
        archive_read_support_filter_gzip(handle)
        archive_read_support_filter_zstd(handle)
        guard archive_read_open_filename(handle, path, 1 << 20) == ARCHIVE_OK else {
            throw unreadable(entry: nil)
        }
    }

    deinit {
        archive_read_free(handle)
    }

    // MARK: Reading

    /// Reads the next header.
    ///
    /// - Parameter previous: The previous entry's name, for errors.
    /// - Returns: The header, or `nil` at the end of the archive.
    /// - Throws: ``ArchiveError/Code-swift.struct/unreadableArchive`` for damaged input,
    ///   ``ArchiveError/Code-swift.struct/unsupportedFormat`` when the content is not one of the
    ///   ``ArchiveFormat``s (checked at the first header).
    func nextHeader(after previous: String?) throws -> Header? {
        var entry: OpaquePointer?
        let result = archive_read_next_header(handle, &entry)
        if !formatChecked {
            _ = try recognisedFormat()
            formatChecked = true
        }
        if result == ARCHIVE_EOF { return nil }
        guard result >= ARCHIVE_WARN, let entry else {
            throw unreadable(entry: previous, place: "after")
        }
        // In the UTF-8 locale this is the stored bytes for tar and zip names, and the UTF-8
        // (NFC-normalised by libarchive) of pax and zip Unicode names.
        let name = archive_entry_pathname(entry).map { raw in
            Array(UnsafeBufferPointer(start: raw, count: strlen(raw))).map { UInt8(bitPattern: $0) }
        }
        return Header(
            nameBytes: name,
            fileType: archive_entry_filetype(entry),
            permissions: archive_entry_perm(entry),
            isHardLink: archive_entry_hardlink(entry) != nil,
            isSymbolicLink: archive_entry_symlink(entry) != nil,
            declaredSize: archive_entry_size_is_set(entry) != 0 ? archive_entry_size(entry) : nil)
    }

    /// Reads the current entry's next chunk of contents.
    ///
    /// - Returns: The number of bytes read into `buffer`; 0 at the end of the entry.
    /// - Throws: ``ArchiveError/Code-swift.struct/unreadableArchive`` naming `entry`.
    func readData(into buffer: UnsafeMutableRawBufferPointer, entry: String) throws -> Int {
        let count = archive_read_data(handle, buffer.baseAddress, buffer.count)
        guard count >= 0 else { throw unreadable(entry: entry, place: "at") }
        return count
    }

    // MARK: Helpers

    /// The format libarchive recognised (known once the first header was read).
    ///
    /// - Throws: ``ArchiveError/Code-swift.struct/unsupportedFormat`` when it is not one of the
    ///   ``ArchiveFormat``s.
    func recognisedFormat() throws -> ArchiveFormat {
        let base = archive_format(handle) & ARCHIVE_FORMAT_BASE_MASK
        let filter = archive_filter_count(handle) > 1 ? archive_filter_code(handle, 0) : ARCHIVE_FILTER_NONE
        switch (base, filter) {
        case (ARCHIVE_FORMAT_TAR, ARCHIVE_FILTER_ZSTD): return .tarZstd
        case (ARCHIVE_FORMAT_TAR, ARCHIVE_FILTER_GZIP): return .tarGzip
        case (ARCHIVE_FORMAT_ZIP, ARCHIVE_FILTER_NONE): return .zip
        case (0, _): throw unreadable(entry: nil)
        default:
            let name = archive_format_name(handle).map { String(cString: $0) } ?? "unknown"
            let compression = archive_filter_name(handle, 0).map { String(cString: $0) } ?? "unknown"
            throw ArchiveError(
                code: .unsupportedFormat,
                message:
                    "The archive '\(path)' is a \(name) archive with \(compression) compression, which poddoc does not read. Use a .tar.zst, .zip or .tar.gz archive.",
                archive: path)
        }
    }

    /// The error for damaged input, `at` or `after` an entry when one is known.
    private func unreadable(entry: String?, place: String = "at") -> ArchiveError {
        let detail = archive_error_string(handle).map { String(cString: $0) } ?? "unknown error"
        let location = entry.map { " \(place) the entry \(quoted($0))" } ?? ""
        return ArchiveError(
            code: .unreadableArchive,
            message:
                "Cannot read the archive '\(path)'\(location): \(detail). It is damaged, truncated, or not a .tar.zst, .zip or .tar.gz archive; get a new copy.",
            archive: path, entry: entry)
    }
}
