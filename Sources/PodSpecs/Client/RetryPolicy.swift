/// How often and how patiently a request is retried after a network error, a timeout or an
/// HTTP 5xx answer: bounded exponential backoff.
///
/// ```swift
/// let policy = RetryPolicy(maximumAttempts: 5, initialDelay: .milliseconds(100), maximumDelay: .seconds(5))
/// policy.delay(beforeAttempt: 3)   // 200 ms
/// ```
public struct RetryPolicy: Sendable, Hashable {
    /// How many times a request is sent at most (1: never retried).
    public var maximumAttempts: Int
    /// The wait before the second attempt.
    public var initialDelay: Duration
    /// The longest wait between two attempts.
    public var maximumDelay: Duration

    /// Makes a policy; the defaults retry four times, waiting 0.1, 0.2, 0.4 and 0.8 s.
    ///
    /// - Precondition: `maximumAttempts` is at least 1; the delays are not negative.
    public init(maximumAttempts: Int = 5, initialDelay: Duration = .milliseconds(100), maximumDelay: Duration = .seconds(5)) {
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
