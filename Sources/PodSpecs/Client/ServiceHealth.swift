/// A specs server's recent answers, and the requests they allow in flight.
///
/// While at least half of the last ``weighed`` requests were answered, up to `pagesInFlight` requests
/// go at once and a failure counts as a passing one (its page is asked again after
/// ``passingFailureDelay``, doubling). While most failed, or before any was answered, one
/// request goes at a time, and only for the lowest page being fetched: the others wait for
/// the server to come back, so a failing server is asked exactly as hard as by a client
/// fetching one page at a time with ``RetryPolicy``'s backoff.
actor ServiceHealth {
    /// The first wait before asking a page again while the server mostly answers.
    static let passingFailureDelay: Duration = .milliseconds(20)
    /// How many of the last requests are weighed.
    static let weighed = 32

    private let pagesInFlight: Int
    /// The last requests' outcomes, oldest first: answered or not.
    private var recent: [Bool] = []
    private var inFlight = 0
    /// The pages being fetched (sending, or waiting to send again), by how many fetches.
    private var pages: [Int: Int] = [:]
    private var waiters: [CheckedContinuation<Void, Never>] = []

    init(pagesInFlight: Int) {
        self.pagesInFlight = max(1, pagesInFlight)
    }

    /// Whether at least half of the last requests were answered (and at least one was).
    var isMostlyAnswering: Bool {
        let answered = recent.count { $0 }
        return answered > 0 && answered * 2 >= recent.count
    }

    /// How many fetches are under way (sending, or waiting to send).
    var fetches: Int { pages.values.reduce(0, +) }

    /// A fetch of `page` starts.
    func begin(_ page: Int) {
        pages[page, default: 0] += 1
    }

    /// A fetch of `page` is over (done, failed or cancelled).
    func end(_ page: Int) {
        if let count = pages[page] { pages[page] = count > 1 ? count - 1 : nil }
        wake()
    }

    /// Waits until a request for `page` may be sent.
    ///
    /// - Throws: `CancellationError` when the task is cancelled while it waits.
    func enter(_ page: Int) async throws {
        while !mayEnter(page) {
            try Task.checkCancellation()
            // A cancelled wait ends at once (the fetches of an import that stopped), not at
            // the next request's end, which may never come.
            await withTaskCancellationHandler {
                await withCheckedContinuation { waiters.append($0) }
            } onCancel: {
                Task { await self.wake() }
            }
        }
        try Task.checkCancellation()
        inFlight += 1
    }

    /// A request is over: `answered` says whether the server answered it (nil: it says
    /// nothing of the server, as a cancelled request or a page refused for its content).
    func leave(answered: Bool?) {
        inFlight -= 1
        if let answered {
            recent.append(answered)
            if recent.count > Self.weighed { recent.removeFirst() }
        }
        wake()
    }

    private func mayEnter(_ page: Int) -> Bool {
        if isMostlyAnswering { return inFlight < pagesInFlight }
        return inFlight == 0 && page == pages.keys.min()
    }

    private func wake() {
        let waiting = waiters
        waiters = []
        for waiter in waiting { waiter.resume() }
    }
}
