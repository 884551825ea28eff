import Dispatch
import Foundation

/// Ctrl-C handling: it cancels the command that is running, not the process. A second
/// Ctrl-C within two seconds, when no shell keeps edits open, ends the process at once
/// (exit status 130). SIGTERM and SIGHUP cancel a one-shot command the same way, so that it
/// stops between saves and says what was saved (the shell saves and closes on them instead,
/// see ``TerminationSignals``).
@MainActor
final class Interrupts {
    /// The one instance: signals are process-wide.
    static let shared = Interrupts()

    private var sources: [any DispatchSourceSignal] = []
    private var listening: Set<Int32> = []
    /// The signal that cancelled the running command, if one did.
    private(set) var stoppedBy: Int32?
    private var cancelRunning: (() -> Void)?
    private var lastInterrupt: ContinuousClock.Instant?
    /// Called for a Ctrl-C while nothing runs (the shell prints a hint).
    var whenIdle: (() -> Void)?
    /// Whether a second quick Ctrl-C may end the process (not while a shell has a document).
    var allowsForcedExit = true

    /// Runs `work` as a task that Ctrl-C cancels.
    ///
    /// - Throws: what `work` throws; `CancellationError` when it was cancelled.
    func run<T: Sendable>(_ work: @escaping @MainActor () async throws -> T) async throws -> T {
        install()
        let task = Task { @MainActor in try await work() }
        cancelRunning = { task.cancel() }
        defer { cancelRunning = nil }
        let value = try await task.value
        return value
    }

    /// Cancels the running command, if any, on behalf of `number` (the shell stopping on
    /// SIGTERM or SIGHUP); ``stoppedBy`` then names the signal.
    func cancelRunning(by number: Int32) {
        guard let cancelRunning else { return }
        stoppedBy = number
        cancelRunning()
    }

    /// Makes Ctrl-C (SIGINT) cancel the running command, or call ``whenIdle`` when none
    /// runs, from now on (``run(_:)`` does it too); until then it ends the process.
    func install() {
        listen(to: SIGINT)
    }

    /// Makes SIGTERM and SIGHUP cancel the running command like Ctrl-C (one-shot commands;
    /// the shell and the server save and close on them instead).
    func stopOnTermination() {
        listen(to: SIGTERM)
        listen(to: SIGHUP)
    }

    private func listen(to number: Int32) {
        guard !listening.contains(number) else { return }
        listening.insert(number)
        signal(number, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: number, queue: .main)
        source.setEventHandler { MainActor.assumeIsolated { Interrupts.shared.interrupted(by: number) } }
        source.resume()
        sources.append(source)
    }

    private func interrupted(by number: Int32) {
        let now = ContinuousClock.now
        defer { lastInterrupt = now }
        if allowsForcedExit, let last = lastInterrupt, now - last < .seconds(2) {
            Output.write("\npoddoc: \(Self.name(of: number)) twice; stopping now.\n", to: .standardError)
            exit(Self.status(for: number).rawValue)
        }
        if cancelRunning != nil { stoppedBy = number }
        if let cancelRunning {
            cancelRunning()
        } else {
            whenIdle?()
        }
    }
}

extension Interrupts {
    /// The exit status for a command stopped by `number`.
    static func status(for number: Int32) -> ExitStatus {
        switch number {
        case SIGTERM: .terminated
        case SIGHUP: .hungUp
        default: .interrupted
        }
    }

    static func name(of number: Int32) -> String {
        switch number {
        case SIGTERM: "SIGTERM"
        case SIGHUP: "SIGHUP"
        default: "interrupted (Ctrl-C)"
        }
    }

    /// The one line for a command on `document` stopped by a signal, saying what was saved:
    /// `savedAtStart` and `savedAtEnd` are the document's save numbers before and after.
    func stoppedFailure(document: String, savedAtStart: Int, savedAtEnd: Int) -> CommandFailure {
        let number = stoppedBy ?? SIGINT
        let what =
            savedAtEnd == savedAtStart
            ? "nothing of this command was saved: \(document) is as it was before it"
            : "\(document) holds what this command saved up to save \(savedAtEnd); the rest was not saved"
        let stopped = number == SIGINT ? "Interrupted" : "Stopped by \(Self.name(of: number))"
        return CommandFailure(Self.status(for: number), code: number == SIGINT ? "interrupted" : "terminated", "\(stopped); \(what).")
    }
}
