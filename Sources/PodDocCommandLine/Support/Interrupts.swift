import Dispatch
import Foundation

/// Ctrl-C handling: it cancels the command that is running, not the process. A second
/// Ctrl-C within two seconds, when no shell keeps edits open, ends the process at once
/// (exit status 130).
@MainActor
final class Interrupts {
    /// The one instance: signals are process-wide.
    static let shared = Interrupts()

    private var source: (any DispatchSourceSignal)?
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

    private func install() {
        guard source == nil else { return }
        signal(SIGINT, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .main)
        source.setEventHandler { MainActor.assumeIsolated { Interrupts.shared.interrupted() } }
        source.resume()
        self.source = source
    }

    private func interrupted() {
        let now = ContinuousClock.now
        defer { lastInterrupt = now }
        if allowsForcedExit, let last = lastInterrupt, now - last < .seconds(2) {
            Output.write("\npoddoc: interrupted twice; stopping now.\n", to: .standardError)
            exit(ExitStatus.interrupted.rawValue)
        }
        if let cancelRunning {
            cancelRunning()
        } else {
            whenIdle?()
        }
    }
}
