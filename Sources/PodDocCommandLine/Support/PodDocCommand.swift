import ArgumentParser

/// A `poddoc` command: parsed by the argument parser, run on the main actor (where
/// documents live) by ``PodDoc/main()``.
protocol PodDocCommand: ParsableCommand {
    /// Does the command's work. Errors from poddoc's libraries are reported as one line with
    /// the right exit status.
    @MainActor func execute() async throws

    /// The command's `--json` flag, if it has one (errors are then reported as JSON too).
    var json: Bool { get }

    /// Whether Ctrl-C cancels the whole command (the shell instead cancels one of its
    /// commands at a time).
    var cancelsOnInterrupt: Bool { get }
}

extension PodDocCommand {
    var json: Bool { false }
    var cancelsOnInterrupt: Bool { true }
}
