import Glibc

// MARK: - errno names

/// The symbolic name and text of an `errno` value, e.g. `No space left on device (ENOSPC)`.
///
/// - Parameter errno: The value a system call reported.
func describeErrno(_ errno: Int32) -> String {
    let names: [Int32: String] = [
        EPERM: "EPERM", ENOENT: "ENOENT", EINTR: "EINTR", EIO: "EIO", EBADF: "EBADF",
        EAGAIN: "EAGAIN", ENOMEM: "ENOMEM", EACCES: "EACCES", EBUSY: "EBUSY", EEXIST: "EEXIST",
        EXDEV: "EXDEV", ENOTDIR: "ENOTDIR", EISDIR: "EISDIR", EINVAL: "EINVAL", EMFILE: "EMFILE",
        EFBIG: "EFBIG", ENOSPC: "ENOSPC", EROFS: "EROFS", ENAMETOOLONG: "ENAMETOOLONG",
        ENOSYS: "ENOSYS", ENOTEMPTY: "ENOTEMPTY", ELOOP: "ELOOP", EOPNOTSUPP: "EOPNOTSUPP",
        EDQUOT: "EDQUOT",
    ]
    let text = String(cString: strerror(errno))
    return "\(text) (\(names[errno] ?? "errno \(errno)"))"
}
