import CArchive
import Foundation
import Glibc
import PodDocArchive

/// An entry written verbatim by ``writeRawArchive(_:to:format:)``: any name, type and mode,
/// which poddoc's own writer would never produce.
struct RawEntry {
    var path: String
    var type: mode_t = Glibc.S_IFREG
    var permissions: mode_t = 0o644
    var contents = Data()
    var symlinkTarget: String?
    var hardlinkTarget: String?
}

/// Writes entries exactly as given with libarchive's writer (pax tar, or zip), to build
/// hostile archives. Throws if libarchive itself refuses an entry.
func writeRawArchive(_ entries: [RawEntry], to url: URL, format: ArchiveFormat) throws {
    // Non-ASCII names need a UTF-8 character locale for libarchive (this thread only).
    let utf8 = newlocale(LC_CTYPE_MASK, "C.UTF-8", nil)
    let previous = uselocale(utf8)
    defer {
        uselocale(previous)
        freelocale(utf8)
    }
    guard let handle = archive_write_new() else { throw RawArchiveError(message: "archive_write_new failed") }
    defer { archive_write_free(handle) }
    switch format {
    case .tarZstd:
        archive_write_set_format_pax_restricted(handle)
        archive_write_add_filter_zstd(handle)
    case .tarGzip:
        archive_write_set_format_pax_restricted(handle)
        archive_write_add_filter_gzip(handle)
    case .zip:
        archive_write_set_format_zip(handle)
    }
    try check(handle, archive_write_open_filename(handle, url.path))
    let entry = archive_entry_new()
    defer { archive_entry_free(entry) }
    for raw in entries {
        archive_entry_clear(entry)
        archive_entry_copy_pathname(entry, raw.path)
        archive_entry_set_filetype(entry, UInt32(raw.type))
        archive_entry_set_perm(entry, raw.permissions)
        archive_entry_set_mtime(entry, 1_700_000_000, 0)
        if let target = raw.symlinkTarget { archive_entry_copy_symlink(entry, target) }
        if let target = raw.hardlinkTarget { archive_entry_copy_hardlink(entry, target) }
        if raw.type == Glibc.S_IFCHR || raw.type == Glibc.S_IFBLK {
            archive_entry_set_rdevmajor(entry, 1)
            archive_entry_set_rdevminor(entry, 3)
        }
        archive_entry_set_size(entry, raw.type == Glibc.S_IFREG && raw.hardlinkTarget == nil ? Int64(raw.contents.count) : 0)
        try check(handle, archive_write_header(handle, entry))
        if !raw.contents.isEmpty {
            let written = raw.contents.withUnsafeBytes { archive_write_data(handle, $0.baseAddress, $0.count) }
            guard written == raw.contents.count else { throw RawArchiveError(message: "short write") }
        }
    }
    try check(handle, archive_write_close(handle))
}

/// Builds a ustar header by hand, for names libarchive's writer refuses (such as an empty one).
func ustarHeader(name: String, size: Int) -> Data {
    ustarHeader(nameBytes: Array(name.utf8), size: size)
}

/// Builds a ustar header for a regular file whose name is the given raw bytes.
func ustarHeader(nameBytes: [UInt8], size: Int) -> Data {
    var header = [UInt8](repeating: 0, count: 512)
    func put(_ text: String, at offset: Int) {
        for (index, byte) in text.utf8.enumerated() { header[offset + index] = byte }
    }
    for (index, byte) in nameBytes.enumerated() { header[index] = byte }
    put("0000644", at: 100)
    put("0000000", at: 108)
    put("0000000", at: 116)
    put(String(format: "%011o", size), at: 124)
    put(String(format: "%011o", 1_700_000_000), at: 136)
    put("        ", at: 148)
    header[156] = UInt8(ascii: "0")
    put("ustar", at: 257)
    put("00", at: 263)
    let checksum = header.reduce(0) { $0 + Int($1) }
    put(String(format: "%06o", checksum), at: 148)
    header[154] = 0
    return Data(header)
}

/// Compresses bytes with zstd through libarchive's raw writer.
func zstdCompress(_ data: Data, to url: URL) throws {
    guard let handle = archive_write_new() else { throw RawArchiveError(message: "archive_write_new failed") }
    defer { archive_write_free(handle) }
    archive_write_set_format_raw(handle)
    archive_write_add_filter_zstd(handle)
    try check(handle, archive_write_open_filename(handle, url.path))
    let entry = archive_entry_new()
    defer { archive_entry_free(entry) }
    archive_entry_set_filetype(entry, UInt32(Glibc.S_IFREG))
    try check(handle, archive_write_header(handle, entry))
    _ = data.withUnsafeBytes { archive_write_data(handle, $0.baseAddress, $0.count) }
    try check(handle, archive_write_close(handle))
}

struct RawArchiveError: Error {
    var message: String
}

private func check(_ handle: OpaquePointer, _ result: Int32) throws {
    guard result == ARCHIVE_OK else {
        throw RawArchiveError(message: archive_error_string(handle).map { String(cString: $0) } ?? "error \(result)")
    }
}
