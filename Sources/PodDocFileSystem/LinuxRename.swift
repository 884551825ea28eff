import Glibc

// MARK: - renameat2

/// Access to Linux `renameat2(2)`, which Swift's Glibc module does not import (it is declared
/// only under `_GNU_SOURCE`). The function is looked up once with `dlsym`.
enum LinuxRename {
    private typealias Function =
        @convention(c) (
            Int32, UnsafePointer<CChar>?, Int32, UnsafePointer<CChar>?, UInt32
        ) -> Int32

    /// `RENAME_NOREPLACE` from `<linux/fs.h>`.
    static let noReplace: UInt32 = 1
    /// `RENAME_EXCHANGE` from `<linux/fs.h>`.
    static let exchange: UInt32 = 2

    private static let function: Function? = dlsym(nil, "renameat2").map {
        unsafeBitCast($0, to: Function.self)
    }

    /// Calls `renameat2(AT_FDCWD, source, AT_FDCWD, target, flags)`; sets `errno` to `ENOSYS`
    /// and returns -1 when the C library lacks it.
    static func renameat2(_ source: String, _ target: String, flags: UInt32) -> Int32 {
        guard let function else {
            Glibc.errno = ENOSYS
            return -1
        }
        return function(AT_FDCWD, source, AT_FDCWD, target, flags)
    }

    /// Whether `errno` says the kernel or file system does not support the requested flags.
    static func isUnsupported(_ errno: Int32) -> Bool {
        errno == EINVAL || errno == ENOSYS || errno == EOPNOTSUPP
    }
}
