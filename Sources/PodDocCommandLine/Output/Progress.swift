import Foundation
import Synchronization

/// Shows long work on standard error: on a terminal a bar redrawn in place (coloured unless
/// `NO_COLOR` is set) and erased when the work ends; otherwise a plain line at most every few
/// seconds, so logs stay short. `--quiet` turns it off (``silenced``).
final class Progress: Sendable {
    /// Set by `-q`/`--quiet` for the whole run: no progress is shown (messages still are).
    static let silenced = Atomic<Bool>(false)

    private struct State {
        var lastDraw: ContinuousClock.Instant?
        var drewBar = false
    }

    private let label: String
    private let terminal: Bool
    private let color: Bool
    private let interval: Duration
    private let state = Mutex(State())

    /// Makes a progress display for work called `label` (`import`, `export` …).
    init(_ label: String, terminal: Bool = Terminal.errorIsTerminal, color: Bool = Terminal.colorAllowed, interval: Duration = .seconds(2))
    {
        self.label = label
        self.terminal = terminal
        self.color = color
        self.interval = interval
    }

    /// Reports how far the work is: `fraction` from 0 to 1 when known, and a detail such as
    /// `3/10 pages, 1,500 specs`.
    func update(fraction: Double?, detail: String) {
        guard !Self.silenced.load(ordering: .relaxed) else { return }
        let now = ContinuousClock.now
        let text: String? = state.withLock { state in
            let every = terminal ? Duration.milliseconds(100) : interval
            if let last = state.lastDraw, now - last < every { return nil }
            state.lastDraw = now
            state.drewBar = state.drewBar || terminal
            return terminal ? bar(fraction: fraction, detail: detail) : plain(fraction: fraction, detail: detail)
        }
        if let text { Output.write(text, to: .standardError) }
    }

    /// Prints a message line on standard error without breaking the display: a bar drawn in
    /// place is erased first, and drawn again below at the next update.
    func note(_ message: String) {
        let drew = state.withLock { state in
            defer {
                state.drewBar = false
                state.lastDraw = nil
            }
            return state.drewBar
        }
        Output.write((drew ? Self.eraseLine : "") + TerminalText.safe(message) + "\n", to: .standardError)
    }

    /// Ends the display: a bar drawn in place is erased, so the result prints where it was.
    func finish() {
        let drew = state.withLock { state in
            defer { state.drewBar = false }
            return state.drewBar
        }
        if drew { Output.write(Self.eraseLine, to: .standardError) }
    }

    /// Back to the start of the line, and the line cleared.
    private static let eraseLine = "\r\u{1B}[2K"

    /// Runs work whose length is unknown: after a second without finishing it says so, then
    /// every few seconds, until the work ends.
    @MainActor
    static func watching<T>(_ label: String, _ work: () async throws -> T) async rethrows -> T {
        let progress = Progress(label)
        let started = ContinuousClock.now
        let ticker = Task {
            try await Task.sleep(for: .seconds(1))
            while !Task.isCancelled {
                let seconds = Int((ContinuousClock.now - started).components.seconds)
                progress.update(fraction: nil, detail: "working (\(seconds) s)")
                try await Task.sleep(for: .milliseconds(500))
            }
        }
        defer {
            ticker.cancel()
            progress.finish()
        }
        return try await work()
    }

    private func bar(fraction: Double?, detail: String) -> String {
        let width = 24
        var text = Self.eraseLine + "\(label) "
        if let fraction {
            let filled = Int((min(max(fraction, 0), 1) * Double(width)).rounded())
            let done = String(repeating: "#", count: filled)
            text += "[" + (color ? "\u{1B}[32m\(done)\u{1B}[0m" : done) + String(repeating: ".", count: width - filled) + "] "
            text += "\(Int((fraction * 100).rounded()))% "
        }
        return text + detail
    }

    private func plain(fraction: Double?, detail: String) -> String {
        let percent = fraction.map { " \(Int(($0 * 100).rounded()))%" } ?? ""
        return "\(label):\(percent) \(detail)\n"
    }
}
