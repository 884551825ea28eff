// MARK: - FileSystem

/// The door through which poddoc touches the disk: durable saves, folder swaps, durable copies,
/// and the few primitives the archive layer needs.
///
/// Every system call goes through this value, so a ``FaultPlan`` can make any step fail.
/// `FileSystem()` is the real thing; `FileSystem(faults:)` is the same code with failures
/// injected. The value is `Sendable` and cheap to copy: pass it down to every layer that writes.
///
/// The rules every write follows:
/// - a file is written to a temporary sibling, `fsync`ed (result checked), moved over the
///   target, and the folder is `fsync`ed before the call returns;
/// - a failed `fsync` fails the operation; it is never retried;
/// - on failure the previous version stays in place and no temporary item is left behind.
public struct FileSystem: Sendable {
    /// Failures to inject, or `nil` for none.
    public var faults: FaultPlan?

    /// Creates a file system.
    ///
    /// - Parameter faults: Failures to inject, or `nil` (the default) for the real behaviour.
    public init(faults: FaultPlan? = nil) {
        self.faults = faults
    }
}
