import Foundation

// MARK: - ArchiveError

/// The one error type thrown by PodDocArchive.
///
/// Every error carries a ``Code`` to switch on, a ``message`` saying what went wrong and what to
/// do, the ``archive`` (archive file, or folder for manifest work) and, when one is involved, the
/// ``entry``: the offending path inside the archive or tree, exactly as found.
public struct ArchiveError: Error, Sendable {
    /// A classification of the failure, precise enough to tell which check refused an entry.
    public var code: Code

    /// What went wrong and what to do about it, naming the archive and entry involved.
    public var message: String

    /// The archive file (or, for manifest and source-tree errors, the folder) involved.
    public var archive: String

    /// The entry (path inside the archive or tree) involved, as found, if any.
    public var entry: String?

    /// The lower-level error this one wraps (for example a `FileSystemError`), if any.
    public var cause: (any Error)?

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - code: A classification of the failure.
    ///   - message: What went wrong and what to do about it.
    ///   - archive: The archive file or folder involved.
    ///   - entry: The entry involved, if any.
    ///   - cause: The lower-level error this one wraps, if any.
    public init(code: Code, message: String, archive: String, entry: String? = nil, cause: (any Error)? = nil) {
        self.code = code
        self.message = message
        self.archive = archive
        self.entry = entry
        self.cause = cause
    }
}

// MARK: - CustomStringConvertible, LocalizedError

extension ArchiveError: CustomStringConvertible {
    /// The code and the message, followed by the cause when there is one.
    public var description: String {
        if let cause {
            return "\(code): \(message) (cause: \(cause))"
        }
        return "\(code): \(message)"
    }
}

extension ArchiveError: LocalizedError {
    /// The message, which names the archive and entry involved and what to do.
    public var errorDescription: String? { message }
}

// MARK: - Display

/// `'name'` for messages, with control characters and invalid bytes made visible
/// (`'a\u{0A}b'`), so a hostile name cannot garble a terminal or a log.
func quoted(_ name: String) -> String {
    var text = "'"
    for scalar in name.unicodeScalars {
        if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) {
            text += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
        } else {
            text.unicodeScalars.append(scalar)
        }
    }
    return text + "'"
}
