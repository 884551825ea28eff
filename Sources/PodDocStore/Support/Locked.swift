import Foundation

// MARK: - Locked

/// A value shared between threads, reached only while holding a lock: `Mutex` with a
/// `pthread_mutex` (`NSLock`) inside.
///
/// Why not `Synchronization.Mutex`: on Linux it waits on a futex inside the Swift runtime,
/// which ThreadSanitizer does not see, so every contended section is reported as a race and
/// the sanitizer run of the store becomes flaky. `NSLock` is intercepted, and it costs the
/// same for the short sections here.
final class Locked<Value>: @unchecked Sendable {
    // @unchecked Sendable: `value` is only read or written inside `withLock`, while `lock`
    // is held, so no two threads ever touch it at the same time.
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with the value, holding the lock.
    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
