/// The exit statuses of `poddoc`, documented in `poddoc --help` and the README.
public enum ExitStatus: Int32, CaseIterable, Sendable {
    /// It worked.
    case success = 0
    /// Something unexpected failed; for `diff --exit-code`, the two compared differ.
    case failure = 1
    /// The command line was wrong: an unknown command or option, a missing argument.
    case usage = 64
    /// The input was wrong: a malformed file to import, a path to an item that is not there.
    case badInput = 65
    /// The document could not be opened, read or saved (missing, not a document, wrong kind).
    case document = 66
    /// A server could not be reached, or could not listen.
    case unavailable = 69
    /// The document is open in another process, changed on disk, or has work to recover.
    case locked = 75
    /// `check` found a problem, or the document is damaged.
    case integrity = 76
    /// Stopped by SIGHUP (the terminal went away); what was already saved stays saved.
    case hungUp = 129
    /// Interrupted (Ctrl-C); what was already saved stays saved.
    case interrupted = 130
    /// Stopped by SIGTERM; what was already saved stays saved.
    case terminated = 143

    /// One line per status, for `--help` and the README.
    static var table: String {
        let lines: [(ExitStatus, String)] = [
            (.success, "success"),
            (.failure, "unexpected failure; for `diff --exit-code`, the two differ"),
            (.usage, "usage error (unknown command or option, missing argument)"),
            (.badInput, "bad input (malformed file to import, no such item or spec)"),
            (.document, "document error (missing, not a document, wrong kind, cannot save)"),
            (.unavailable, "a server could not be reached or could not listen"),
            (.locked, "locked by another process, changed on disk, or work waiting for recovery"),
            (.integrity, "integrity failure (check found a problem; damaged document)"),
            (.hungUp, "stopped by SIGHUP; what was saved stays saved"),
            (.interrupted, "interrupted (Ctrl-C); what was saved stays saved"),
            (.terminated, "stopped by SIGTERM; what was saved stays saved"),
        ]
        return lines.map { "  \(String($0.0.rawValue).padding(toLength: 4, withPad: " ", startingAt: 0)) \($0.1)" }.joined(separator: "\n")
    }
}
