import Glibc

// MARK: - Code

extension FileSystemError {
    /// A broad classification of a ``FileSystemError``, stable enough to switch on.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Wrapped: Hashable, Sendable {
            case noSpace
            case io
            case permissionDenied
            case notFound
            case alreadyExists
            case notADirectory
            case invalidName
            case locked
            case corruptLockFile
            case cleanupFailed
            case unknown
        }

        private let wrapped: Wrapped

        private init(_ wrapped: Wrapped) {
            self.wrapped = wrapped
        }

        /// The disk or the user's quota is full (`ENOSPC`, `EDQUOT`).
        public static let noSpace = Code(.noSpace)
        /// The storage device reported an I/O error (`EIO`).
        public static let io = Code(.io)
        /// The operation is not allowed (`EACCES`, `EPERM`, `EROFS`).
        public static let permissionDenied = Code(.permissionDenied)
        /// A file or folder that should exist does not (`ENOENT`).
        public static let notFound = Code(.notFound)
        /// A file or folder that should not exist does (`EEXIST`, `ENOTEMPTY`).
        public static let alreadyExists = Code(.alreadyExists)
        /// A folder was expected but something else was found (`ENOTDIR`).
        public static let notADirectory = Code(.notADirectory)
        /// A file name in a folder is not valid UTF-8.
        public static let invalidName = Code(.invalidName)
        /// Another process holds the document lock.
        public static let locked = Code(.locked)
        /// The lock file holds data that is not a lock holder record.
        public static let corruptLockFile = Code(.corruptLockFile)
        /// The new version was saved, but the previous version could not be removed
        /// (or could not be put back after a failure).
        public static let cleanupFailed = Code(.cleanupFailed)
        /// Any other failure; see ``FileSystemError/errno`` and ``FileSystemError/message``.
        public static let unknown = Code(.unknown)

        /// Classifies an `errno` value.
        ///
        /// - Parameter errno: The value a system call reported.
        public init(errno: Int32) {
            switch errno {
            case ENOSPC, EDQUOT: self = .noSpace
            case EIO: self = .io
            case EACCES, EPERM, EROFS: self = .permissionDenied
            case ENOENT: self = .notFound
            case EEXIST, ENOTEMPTY: self = .alreadyExists
            case ENOTDIR: self = .notADirectory
            default: self = .unknown
            }
        }

        /// A short human-readable name of the code.
        public var description: String {
            switch wrapped {
            case .noSpace: "No space"
            case .io: "I/O error"
            case .permissionDenied: "Permission denied"
            case .notFound: "Not found"
            case .alreadyExists: "Already exists"
            case .notADirectory: "Not a directory"
            case .invalidName: "Invalid name"
            case .locked: "Locked"
            case .corruptLockFile: "Corrupt lock file"
            case .cleanupFailed: "Cleanup failed"
            case .unknown: "Unknown"
            }
        }

        /// What the user can do about a failure of this kind.
        var advice: String {
            switch wrapped {
            case .noSpace: "Free some disk space (or raise the quota) and try again."
            case .io:
                "The storage device reported an I/O error: check the disk (for example with `dmesg`) and save to another location if it happens again."
            case .permissionDenied:
                "Check that you may write to this folder and that the disk is not mounted read-only."
            case .notFound: "Check that the folder exists."
            case .alreadyExists: "Choose another name, or move the existing item away first."
            case .notADirectory: "Check the path: one of its parts is a file, not a folder."
            case .invalidName, .locked, .corruptLockFile, .cleanupFailed, .unknown:
                "Try again; if it keeps failing, report this message."
            }
        }
    }
}
