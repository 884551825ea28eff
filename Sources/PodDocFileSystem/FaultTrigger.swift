import Synchronization

// MARK: - FaultTrigger

/// Decides which of the calls matching a ``FaultPlan/Fault`` it fires on, and counts them.
///
/// A trigger is shared by every copy of the plan that holds it (a file system passed down to
/// every layer is a copy), so a test can create a document with the trigger disarmed, arm it
/// just before the save it wants to fail, read how many faults fired, and disarm it to let a
/// retry succeed.
///
/// ```swift
/// let trigger = FaultTrigger(armed: false)
/// let plan = FaultPlan([.init(.fsync, errno: EIO, trigger: trigger)])
/// // … open a document with FileSystem(faults: plan) …
/// trigger.arm()       // the next save fails at its first fsync
/// trigger.disarm()    // and the retry succeeds
/// ```
public final class FaultTrigger: Sendable, Hashable {
    private struct State {
        var armed: Bool
        var skipping: Int
        var fired = 0
    }

    private let state: Mutex<State>

    /// Creates a trigger.
    ///
    /// - Parameters:
    ///   - armed: Whether the fault may fire now; disarmed, matching calls run normally.
    ///   - skipping: How many matching calls to let through, once armed, before firing.
    public init(armed: Bool = true, skipping: Int = 0) {
        state = Mutex(State(armed: armed, skipping: skipping))
    }

    /// Lets the fault fire (after the calls still to be skipped).
    public func arm() { state.withLock { $0.armed = true } }

    /// Stops the fault from firing: matching calls run normally.
    public func disarm() { state.withLock { $0.armed = false } }

    /// How many times the fault fired.
    public var fired: Int { state.withLock { $0.fired } }

    /// Whether the fault fires on this matching call; counts it when it does.
    func fires() -> Bool {
        state.withLock { state in
            guard state.armed else { return false }
            guard state.skipping == 0 else {
                state.skipping -= 1
                return false
            }
            state.fired += 1
            return true
        }
    }

    /// Two triggers are equal when they are the same object (a plan holding it is then the same plan).
    public static func == (lhs: FaultTrigger, rhs: FaultTrigger) -> Bool { lhs === rhs }

    /// Hashes the object's identity.
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}
