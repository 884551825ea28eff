import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Facts about the terminal poddoc runs in.
enum Terminal {
    /// Whether standard input is a terminal (the shell then edits lines and keeps history).
    static var inputIsTerminal: Bool { isatty(STDIN_FILENO) == 1 }
    /// Whether standard error is a terminal (progress is then a bar redrawn in place).
    static var errorIsTerminal: Bool { isatty(STDERR_FILENO) == 1 }
    /// Whether colour is allowed: on a terminal, and `NO_COLOR` unset or empty.
    static var colorAllowed: Bool {
        errorIsTerminal && (ProcessInfo.processInfo.environment["NO_COLOR"] ?? "").isEmpty
    }
}
