import Synchronization

// MARK: - ManualClock

/// Time that moves only when a test moves it: give ``sleep(for:)`` to the code under test in
/// place of `Task.sleep(for:)`, then ``advance(by:)`` to wake what is due.
///
/// ```swift
/// let clock = ManualClock()
/// var options = ManagedDocument.OpenOptions()
/// options.autosaveInterval = .seconds(15)
/// options.sleep = clock.sleep(for:)
/// // … create the document, edit it …
/// await clock.waitForSleeps(1)       // the autosave loop is waiting
/// clock.advance(by: .seconds(15))    // and now it autosaves
/// ```
///
/// A sleep whose task is cancelled ends at once with `CancellationError`, as `Task.sleep`
/// does.
public final class ManualClock: Sendable {
    private struct Sleeper {
        let id: UInt64
        let deadline: Duration
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var now: Duration = .zero
        var sleepers: [Sleeper] = []
        var nextID: UInt64 = 0
        var sleepsBegun = 0
    }

    private let state = Mutex(State())

    /// A clock at time zero with nobody asleep.
    public init() {}

    /// How far the clock has been advanced.
    public var now: Duration { state.withLock { $0.now } }

    /// How many sleeps are waiting now.
    public var sleepers: Int { state.withLock { $0.sleepers.count } }

    /// How many sleeps have begun in all.
    public var sleepsBegun: Int { state.withLock { $0.sleepsBegun } }

    /// Waits until the clock is advanced by `duration` (at once when it is zero or less).
    ///
    /// - Throws: `CancellationError` when the task is cancelled before then.
    @Sendable
    public func sleep(for duration: Duration) async throws {
        let id = state.withLock { state -> UInt64 in
            state.nextID += 1
            state.sleepsBegun += 1
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let ready = state.withLock { state -> Bool in
                    guard duration > .zero, !Task.isCancelled else { return true }
                    state.sleepers.append(Sleeper(id: id, deadline: state.now + duration, continuation: continuation))
                    return false
                }
                guard ready else { return }
                if Task.isCancelled { continuation.resume(throwing: CancellationError()) } else { continuation.resume() }
            }
        } onCancel: {
            let sleeper = state.withLock { state -> Sleeper? in
                guard let index = state.sleepers.firstIndex(where: { $0.id == id }) else { return nil }
                return state.sleepers.remove(at: index)
            }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Moves the clock on by `duration` and wakes every sleep that is due, the earliest first.
    public func advance(by duration: Duration) {
        let due = state.withLock { state -> [Sleeper] in
            state.now += duration
            let now = state.now
            let due = state.sleepers.filter { $0.deadline <= now }.sorted { ($0.deadline, $0.id) < ($1.deadline, $1.id) }
            state.sleepers.removeAll { $0.deadline <= now }
            return due
        }
        for sleeper in due { sleeper.continuation.resume() }
    }

    /// Waits until `count` sleeps have begun in all (the code under test has come round to
    /// sleeping again), for at most `limit` of real time.
    ///
    /// - Returns: Whether they had begun before the limit.
    @discardableResult
    public func waitForSleeps(_ count: Int, limit: Duration = .seconds(10)) async -> Bool {
        let clock = ContinuousClock()
        let end = clock.now + limit
        while sleepsBegun < count {
            guard clock.now < end else { return false }
            try? await Task.sleep(for: .milliseconds(1))
        }
        return true
    }
}
