import Foundation
import Glibc

// MARK: - MappedFile

/// A private, copy-on-write memory mapping of a file just extracted, for a check that would
/// otherwise read it back with a system call per page (``ExtractedFileCheck``).
///
/// The file's pages are still in the page cache, so mapping them costs page-table updates
/// only (the kernel maps a page's neighbours with each fault): no disk reads, no copy. Changes
/// made through the mapping stay in this process (`MAP_PRIVATE`, copy-on-write); the file keeps
/// the bytes that were extracted.
///
/// A mapped file that another process truncates faults when read. The mapped files are those
/// of a staging folder this extraction created under a unique name, so only the user's own
/// processes could do that.
final class MappedFile: @unchecked Sendable {
    // @unchecked Sendable: the mapping is made in `init` and unmapped in `deinit`; in between
    // only the one check that owns it reads or writes its bytes.

    /// The file's bytes.
    let bytes: UnsafeMutableRawBufferPointer

    /// Maps the whole file at `url`, or returns nil when it is empty or cannot be mapped
    /// (the check then reads the file instead).
    init?(_ url: URL) {
        let fd = open(url.path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0, status.st_mode & S_IFMT == S_IFREG, status.st_size > 0 else { return nil }
        let size = Int(status.st_size)
        // No MAP_POPULATE: on a writable private mapping it would copy every page.
        let mapped = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0)
        guard let mapped, mapped != MAP_FAILED else { return nil }
        bytes = UnsafeMutableRawBufferPointer(start: mapped, count: size)
    }

    deinit {
        munmap(bytes.baseAddress, bytes.count)
    }
}
