import Foundation
import Glibc
import Synchronization

// MARK: - Running one child

/// One life of a crash-test child: started, left to edit for a while, killed (or dead by its
/// own hand at its crash point).
struct ChildRun: Sendable {
    /// What the child printed.
    var lines: [ChildLine] = []
    /// The child killed itself at its crash point, inside a save, before the parent's kill.
    var diedAtCrashPoint = false
    /// Why the run is not usable (the child failed on its own), or nil.
    var failure: String?

    /// The saves the child reported complete (its opening state included), by save number.
    var reportedSaves: [Int: String] {
        var saves: [Int: String] = [:]
        for line in lines {
            switch line {
            case .opened(let sequence, let hash, _), .saved(let sequence, let hash): saves[sequence] = hash
            case .edits: continue
            }
        }
        return saves
    }

    /// The child's edit count when it died.
    var editsAtDeath: Int {
        for line in lines.reversed() {
            switch line {
            case .edits(let count), .opened(_, _, let count): return count
            case .saved: continue
            }
        }
        return 0
    }

    /// Starts the child, waits for it to open the document, lets it run for `lifetime`, then
    /// kills it with `SIGKILL`, and reaps it. `stop` kills it at once from another thread.
    /// Blocks the calling thread: run it off the main actor.
    static func run(
        executable: URL, arguments: [String], environment: [String: String],
        hasCrashPoint: Bool, lifetime: Duration, stop: ChildStop = ChildStop()
    ) -> ChildRun {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = environment
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        var run = ChildRun()
        do {
            try process.run()
        } catch {
            run.failure = "could not start \(executable.path): \(error)"
            return run
        }
        stop.started(process.processIdentifier)
        let lines = OutputLines(output.fileHandleForReading)
        let opened = lines.waitForOpen(timeout: 60)
        let endedEarly = opened && lines.waitForEnd(timeout: lifetime)
        stop.finishing()
        if process.isRunning && !endedEarly { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        run.lines = lines.all()
        let selfKilled = process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGKILL
        if !opened || (endedEarly && !(hasCrashPoint && selfKilled)) {
            let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            run.failure =
                "the child \(opened ? "stopped on its own" : "never opened the document") (status \(process.terminationStatus)): \(message.trimmingCharacters(in: .whitespacesAndNewlines))"
        }
        run.diedAtCrashPoint = endedEarly && selfKilled && run.failure == nil
        return run
    }
}

/// Kills a crash-test child from another thread (the parent was interrupted), even before
/// it started: it is then killed as soon as it starts.
final class ChildStop: Sendable {
    private let state = Mutex<(pid: pid_t?, stopped: Bool)>((nil, false))

    /// Records the started child, killing it when a stop came first.
    func started(_ pid: pid_t) {
        let stopped = state.withLock { state in
            state.pid = pid
            return state.stopped
        }
        if stopped { kill(pid, SIGKILL) }
    }

    /// The run kills and reaps the child itself from here on; a later ``stop()`` does
    /// nothing (so it never signals a process that took a reaped child's number).
    func finishing() {
        state.withLock { $0.pid = nil }
    }

    /// Kills the child, if it runs.
    func stop() {
        let pid = state.withLock { state in
            state.stopped = true
            return state.pid
        }
        if let pid { kill(pid, SIGKILL) }
    }
}

/// Collects the lines a child prints, on a thread of its own.
final class OutputLines: @unchecked Sendable {
    // @unchecked: `lines` and `finished` are only read or written while holding `condition`.
    private let condition = NSCondition()
    private var lines: [ChildLine] = []
    private var finished = false

    init(_ handle: FileHandle) {
        Thread.detachNewThread { [self] in
            var buffer = Data()
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                buffer.append(chunk)
                var parsed: [ChildLine] = []
                while let newline = buffer.firstIndex(of: 0x0A) {
                    if let line = ChildLine(String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self)) { parsed.append(line) }
                    buffer.removeSubrange(buffer.startIndex...newline)
                }
                condition.lock()
                lines += parsed
                condition.broadcast()
                condition.unlock()
            }
            condition.lock()
            finished = true
            condition.broadcast()
            condition.unlock()
        }
    }

    /// Waits for the `OPEN` line; false if the child ended or the time ran out first.
    func waitForOpen(timeout: TimeInterval) -> Bool {
        wait(until: Date().addingTimeInterval(timeout)) { lines, _ in
            lines.contains { if case .opened = $0 { true } else { false } }
        }
    }

    /// Waits for the child's output to end (it died); false if `timeout` passed first.
    func waitForEnd(timeout: Duration) -> Bool {
        let seconds = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18
        return wait(until: Date().addingTimeInterval(seconds)) { _, finished in finished }
    }

    /// Every line, once the output has ended (the child is dead).
    func all() -> [ChildLine] {
        _ = wait(until: Date().addingTimeInterval(10)) { _, finished in finished }
        condition.lock()
        defer { condition.unlock() }
        return lines
    }

    private func wait(until deadline: Date, for done: ([ChildLine], Bool) -> Bool) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while true {
            if done(lines, finished) { return true }
            if finished || !condition.wait(until: deadline) { return done(lines, finished) }
        }
    }
}
