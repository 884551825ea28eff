/// How often and how patiently a request is retried after a network error, a timeout or an
/// HTTP 5xx answer: bounded exponential backoff.
///
/// The default budget follows time, as the CocoaPods CDN client's does (waits of 4·2ⁿ s): a
/// server that fails now and then, or restarts, gets about two minutes to come back, not a
/// few hundred milliseconds.
///
/// ```swift
/// let policy = RetryPolicy()   // 6 attempts, waiting 4, 8, 16, 32 and 64 s between them
/// policy.delay(beforeAttempt: 3)   // 8 s
/// ```
public struct RetryPolicy: Sendable, Hashable {
    /// How many times a request is sent at most (1: never retried).
    public var maximumAttempts: Int
    /// The wait before the second attempt.
    public var initialDelay: Duration
    /// The longest wait between two attempts.
    public var maximumDelay: Duration

    /// Makes a policy; the defaults retry five times, waiting 4, 8, 16, 32 and 64 s.
    ///
    /// - Precondition: `maximumAttempts` is at least 1; the delays are not negative.
    public init(maximumAttempts: Int = 6, initialDelay: Duration = .seconds(4), maximumDelay: Duration = .seconds(64)) {
        precondition(maximumAttempts >= 1, "a request is sent at least once")
        precondition(initialDelay >= .zero && maximumDelay >= .zero, "retry delays cannot be negative")
        self.maximumAttempts = maximumAttempts
        self.initialDelay = initialDelay
        self.maximumDelay = maximumDelay
    }

    /// The wait before attempt number `attempt` (2 or more): the initial delay, doubled for
    /// each attempt after the second, capped at the maximum.
    public func delay(beforeAttempt attempt: Int) -> Duration {
        guard attempt >= 2 else { return .zero }
        var delay = initialDelay
        for _ in 2..<attempt {
            delay *= 2
            if delay >= maximumDelay { return maximumDelay }
        }
        return min(delay, maximumDelay)
    }
}

/// A request that failed and will be sent again, as ``SpecsClient`` reports it before waiting.
public struct RetryNotice: Sendable, CustomStringConvertible {
    /// The page.
    public let page: Int
    /// What went wrong, in a few words ("HTTP 500", "no answer within 30 s").
    public let reason: String
    /// How long the client waits before the next attempt.
    public let delay: Duration
    /// The number of the next attempt (2 or more).
    public let attempt: Int
    /// The most attempts the policy allows.
    public let maximumAttempts: Int

    /// `page 38: HTTP 500, retrying in 4 s, attempt 2 of 6`.
    public var description: String {
        let seconds = Double(delay.components.seconds) + Double(delay.components.attoseconds) / 1e18
        let wait = seconds >= 1 ? "\(Int(seconds.rounded())) s" : "\(Int((seconds * 1000).rounded())) ms"
        return "page \(page): \(reason), retrying in \(wait), attempt \(attempt) of \(maximumAttempts)"
    }
}
