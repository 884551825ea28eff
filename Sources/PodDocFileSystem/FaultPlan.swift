import Glibc

// MARK: - FaultPlan

/// A list of system-call failures to inject, so tests can make each step of a save fail.
///
/// Pass a plan to ``FileSystem/init(faults:)``; every system call the file system makes first
/// asks the plan, and fails with the planned `errno` (without running the call) when a fault
/// matches. A plan is a plain value, so a higher layer can hold it and pass it down.
/// Removing the temporary item after a failed save does not consult the plan.
///
/// ```swift
/// let failing = FileSystem(faults: .failing(.fsync, with: EIO))
/// try failing.write(data, to: url)  // throws; the previous contents of url are unchanged
/// ```
public struct FaultPlan: Sendable, Hashable {
    /// Which paths a fault applies to.
    public enum PathMatch: Sendable, Hashable {
        /// Every path.
        case any
        /// Paths containing this text, e.g. a file name (temporary siblings contain it too).
        case containing(String)
        /// Exactly this path.
        case exactly(String)

        func matches(_ path: String) -> Bool {
            switch self {
            case .any: true
            case .containing(let text): path.contains(text)
            case .exactly(let expected): path == expected
            }
        }
    }

    /// One injected failure.
    public struct Fault: Sendable, Hashable {
        /// The step to fail.
        public var systemCall: SystemCall
        /// The `errno` to fail it with, e.g. `ENOSPC` or `EIO`.
        public var errno: Int32
        /// Which paths the fault applies to.
        public var path: PathMatch
        /// What the fault does when it fires: fail the call (the default) or kill the process.
        public var effect: Effect
        /// When the fault fires: on every matching call when `nil`, else when the trigger says
        /// (it is shared by every copy of the plan, so a test can arm and disarm it later).
        public var trigger: FaultTrigger?

        /// Creates a fault.
        ///
        /// - Parameters:
        ///   - systemCall: The step to fail.
        ///   - errno: The `errno` to fail it with (ignored by ``Effect/killProcess``).
        ///   - path: Which paths the fault applies to (all by default).
        ///   - effect: Fail the call (the default), or kill the process before it runs.
        ///   - trigger: Which matching calls the fault fires on; every one when `nil`.
        public init(
            _ systemCall: SystemCall, errno: Int32, path: PathMatch = .any,
            effect: Effect = .fail, trigger: FaultTrigger? = nil
        ) {
            self.systemCall = systemCall
            self.errno = errno
            self.path = path
            self.effect = effect
            self.trigger = trigger
        }
    }

    /// What a fault does when it fires.
    public enum Effect: Sendable, Hashable {
        /// The call fails with the fault's `errno`, without running.
        case fail
        /// The process kills itself with `SIGKILL` before the call runs, as a crash or power
        /// cut would stop it there: crash tests use it to stop a child at an exact step.
        case killProcess
    }

    /// The faults to inject; the first matching one wins.
    public var faults: [Fault]

    /// Creates a plan from a list of faults.
    ///
    /// - Parameter faults: The faults to inject; the first matching one wins.
    public init(_ faults: [Fault]) {
        self.faults = faults
    }

    /// A plan with a single fault.
    ///
    /// - Parameters:
    ///   - systemCall: The step to fail.
    ///   - errno: The `errno` to fail it with.
    ///   - path: Which paths the fault applies to (all by default).
    public static func failing(_ systemCall: SystemCall, with errno: Int32, path: PathMatch = .any) -> FaultPlan {
        FaultPlan([Fault(systemCall, errno: errno, path: path)])
    }

    /// The `errno` to fail a call with, or `nil` to let it run; kills the process for a
    /// fault whose effect is ``Effect/killProcess``.
    func injectedErrno(for systemCall: SystemCall, path: String) -> Int32? {
        let fault = faults.first {
            $0.systemCall == systemCall && $0.path.matches(path) && ($0.trigger?.fires() ?? true)
        }
        guard let fault else { return nil }
        switch fault.effect {
        case .fail:
            return fault.errno
        case .killProcess:
            Glibc.kill(getpid(), SIGKILL)
            while true { pause() }  // SIGKILL cannot be caught: the process ends here.
        }
    }
}
