// MARK: - CrashTestError

/// An error that stops a crash test or its child from running at all (as opposed to a
/// failed cycle, which the report lists).
public struct CrashTestError: Error, Sendable, CustomStringConvertible {
    /// The kind of failure.
    public enum Code: String, Sendable {
        /// The child was started with arguments it does not understand.
        case usage
        /// The child executable could not be started, or exited without opening the document.
        case childFailed
        /// The test's own files (work folder, spec batches) could not be prepared.
        case setup
    }

    /// The kind of failure.
    public let code: Code
    /// What happened and what to do next.
    public let message: String

    init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// The message.
    public var description: String { message }
}
