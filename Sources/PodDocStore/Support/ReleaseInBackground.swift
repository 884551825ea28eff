import Dispatch
import Glibc
import Synchronization

/// Takes `value` out of its storage, leaves `replacement` there, and frees the value on a
/// background queue rather than on the caller's: for the large arrays and tables a save
/// leaves behind (thousands of rows, references to thousands of objects), whose freeing
/// would otherwise keep the context's queue — often the main actor — busy.
///
/// The caller keeps no reference once this returns, not even to the closure's context (a
/// closure holding the value would be freed by whichever thread lets go of it last, often
/// the caller): the one reference left is an unmanaged one, which the background queue
/// releases. The value is only destroyed there, never read.
func releaseInBackground<Value>(taking value: inout Value, leaving replacement: Value) {
    var taken = replacement
    swap(&taken, &value)
    releaseInBackground(consume taken)
}

/// Frees `value`, which the caller gives up (`consume`), on a background queue; see
/// ``releaseInBackground(taking:leaving:)``.
func releaseInBackground<Value>(_ value: consuming Value) {
    // The box made here is released at the end of the statement; the unmanaged reference
    // is then the only one.
    let reference = Unmanaged.passRetained(ReleasedBox(value: value))
    BackgroundRelease.pending.add(1, ordering: .relaxed)
    DispatchQueue.global(qos: .utility).async {
        reference.release()
        BackgroundRelease.pending.subtract(1, ordering: .releasing)
    }
}

/// How many values wait to be freed in the background.
enum BackgroundRelease {
    static let pending = Atomic<Int>(0)

    /// From this many rows (or objects) on, freeing them goes to the background: a queue hop
    /// costs about what freeing a few hundred small rows does, so below it the caller frees
    /// them itself.
    static let worthwhileCount = 256

    /// Waits until every value handed to the background so far is freed, including what
    /// freeing them handed on in turn: for a test checking that nothing outlives its last
    /// use (a save's leftovers are freed after the save returns).
    static func drain() {
        while pending.load(ordering: .acquiring) > 0 { usleep(1_000) }
    }
}

// @unchecked Sendable: the box crosses to another thread only to be destroyed there; the
// closure never reads `value`. Destroying it only decrements reference counts, which Swift
// does atomically, and an object whose last reference it held is deinitialized there after
// every other thread has let go of it, so nothing else can be using that object. The
// managed objects it may hold have no deinit of their own (theirs frees their stored rows,
// which are values, and their flight); a `PushFlight`'s deinit only reads its own stored
// arrays, then hands them on here.
private final class ReleasedBox<Value>: @unchecked Sendable {
    let value: Value
    init(value: consuming Value) { self.value = value }
}
