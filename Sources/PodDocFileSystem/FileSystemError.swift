import Foundation

// MARK: - FileSystemError

/// The one error type thrown by PodDocFileSystem.
///
/// Every error carries a high-level ``Code``, a ``message`` that says what went wrong and what
/// the user can do about it, and the ``path`` of the file or folder involved. Errors raised by a
/// failing system call also record the ``systemCall`` (the step that failed) and its ``errno``.
/// An error that wraps another keeps it as its ``cause``.
public struct FileSystemError: Error, Sendable {
    /// A broad classification of the failure.
    public var code: Code

    /// What went wrong and what to do about it, naming the path involved.
    public var message: String

    /// The file or folder the failing operation was about.
    public var path: String

    /// The system call that failed, when the failure came from one.
    public var systemCall: SystemCall?

    /// The `errno` value the failing system call reported (or that a ``FaultPlan`` injected).
    public var errno: Int32?

    /// The lower-level error this one wraps, if any.
    public var cause: (any Error)?

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - code: A broad classification of the failure.
    ///   - message: What went wrong and what to do about it.
    ///   - path: The file or folder involved.
    ///   - systemCall: The system call that failed, if any.
    ///   - errno: The `errno` that system call reported, if any.
    ///   - cause: The lower-level error this one wraps, if any.
    public init(
        code: Code,
        message: String,
        path: String,
        systemCall: SystemCall? = nil,
        errno: Int32? = nil,
        cause: (any Error)? = nil
    ) {
        self.code = code
        self.message = message
        self.path = path
        self.systemCall = systemCall
        self.errno = errno
        self.cause = cause
    }
}

// MARK: - Wrapping

extension FileSystemError {
    /// Returns a copy that describes the failure from the point of view of a higher-level
    /// operation on `path`, keeping the failing step and `errno`, with `self` as the cause.
    ///
    /// - Parameters:
    ///   - prefix: What the higher-level operation was, e.g. `Could not save '/a/b'`.
    ///   - path: The path the higher-level operation was about.
    ///   - suffix: What the user should know about the state left behind, if anything.
    func rephrased(_ prefix: String, path: String, suffix: String? = nil) -> FileSystemError {
        var text = "\(prefix): \(message)"
        if let suffix { text += " \(suffix)" }
        return FileSystemError(
            code: code, message: text, path: path, systemCall: systemCall, errno: errno, cause: self)
    }
}

// MARK: - CustomStringConvertible, LocalizedError

extension FileSystemError: CustomStringConvertible {
    /// The code and the message, followed by the cause when there is one.
    public var description: String {
        if let cause, !(cause is FileSystemError) {
            return "\(code): \(message) (cause: \(cause))"
        }
        return "\(code): \(message)"
    }
}

extension FileSystemError: LocalizedError {
    /// The message, which names the path involved and what to do.
    public var errorDescription: String? { message }
}
