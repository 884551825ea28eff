import Dispatch

/// Runs `first` on the calling thread and `second` on a global queue at the same time, and
/// returns both results once both are done: for two independent reads of two stores (a
/// merge reads mine and theirs), each of which has its own connection and queue.
///
/// Errors are thrown after both are done: `first`'s before `second`'s. Nothing is
/// cancelled: each read is short and reads only.
///
/// `second` runs on a queue of its own, not on a global one: the caller waits, and may be a
/// thread of Swift's cooperative pool, which on Linux is the global queues' own. Work sent
/// to a global queue could then wait for a free thread (while the caller holds one), and
/// the two reads would run one after the other, late; a queue of its own is given a
/// thread at once.
func bothAtOnce<First: Sendable, Second: Sendable>(
    _ first: () throws -> First, _ second: @escaping @Sendable () throws -> Second
) throws -> (First, Second) {
    let done = DispatchGroup()
    let secondResult = Locked<Result<Second, any Error>?>(nil)
    done.enter()
    DispatchQueue(label: "poddoc.both-at-once", qos: .userInitiated).async {
        let result = Result { try second() }
        secondResult.withLock { $0 = result }
        done.leave()
    }
    let firstResult = Result { try first() }
    done.wait()
    let firstValue = try firstResult.get()
    return (firstValue, try secondResult.withLock { $0! }.get())
}
