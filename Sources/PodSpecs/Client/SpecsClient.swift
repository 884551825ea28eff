public import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import Synchronization

/// A client of a specs web service: fetches and parses pages, retrying what can be retried.
///
/// Requests go through AsyncHTTPClient (see `docs/DESIGN.md`, "Dependencies, and why", for why not URLSession).
/// Each page is fetched with a timeout; network errors, timeouts and HTTP 5xx answers are
/// retried, each retry reported through `onRetry`; a connection refused before the server
/// ever answered fails at once ("nothing is listening"); any other status, a page over the
/// size limit, or a body that is not a page of specs is an error naming the page.
///
/// Retries follow the server's health, judged on its last answers (`ServiceHealth`): while
/// at least half succeed, a failure is a passing one and its page is asked again soon (20 ms,
/// doubling); while most fail, or before any has succeeded, the client backs
/// off as ``RetryPolicy`` says (4, 8, 16… s) and sends one request at a time, so a failing
/// server is never asked harder than by a client fetching one page at a time. Every wait
/// has jitter (up to a quarter more) and is at least the server's `Retry-After`.
///
/// ```swift
/// let client = SpecsClient(configuration: try SpecsServiceConfiguration(baseURL: url))
/// for try await page in client.pages() { print(page.index, page.specs.count) }
/// ```
public final class SpecsClient: Sendable {
    /// Where the service is and how it is reached.
    public let configuration: SpecsServiceConfiguration
    private let httpClient: HTTPClient
    private let onRetry: (@Sendable (RetryNotice) -> Void)?
    /// Whether the server has answered any request of this client: a refused connection then
    /// means it went away (and may come back), not that nothing ever listened there.
    private let hasAnswered = Atomic<Bool>(false)
    /// The server's recent answers, and the requests in flight they allow.
    let health: ServiceHealth
    private let waitingForRetry = Atomic<Int>(0)

    /// How many pages are waiting to be asked again after a failure, now (for a progress line).
    public var pagesWaitingForRetry: Int { waitingForRetry.load(ordering: .relaxed) }

    /// The bytes of the biggest page body received.
    private let biggestPage = Atomic<Int>(0)
    /// About how many bytes of pages the window ahead of the import holds at most.
    static let windowBytes = 64 << 20

    /// How many pages to fetch ahead: ``SpecsServiceConfiguration/pagesInFlight``, fewer when
    /// that many of the biggest page seen would pass ``windowBytes``; at least one.
    var pagesAhead: Int {
        let biggest = biggestPage.load(ordering: .relaxed)
        guard biggest > 0 else { return configuration.pagesInFlight }
        return max(1, min(configuration.pagesInFlight, Self.windowBytes / biggest))
    }

    /// The HTTP client specs clients share by default: like `HTTPClient.shared`, but a
    /// connection that cannot be made fails the attempt at once (5 s to connect at most)
    /// instead of being tried again until the request's deadline, so that nothing listening
    /// is said in a moment, and retries follow ``RetryPolicy`` alone.
    public static let sharedHTTPClient: HTTPClient = {
        var configuration = HTTPClient.Configuration()
        configuration.timeout.connect = .seconds(5)
        configuration.connectionPool.retryConnectionEstablishment = false
        return HTTPClient(eventLoopGroup: MultiThreadedEventLoopGroup.singleton, configuration: configuration)
    }()

    /// Makes a client.
    ///
    /// - Parameters:
    ///   - configuration: The service.
    ///   - httpClient: The HTTP client to send requests with (``sharedHTTPClient`` by default).
    ///   - onRetry: Called before each wait for another attempt (to tell the user).
    public init(
        configuration: SpecsServiceConfiguration, httpClient: HTTPClient = SpecsClient.sharedHTTPClient,
        onRetry: (@Sendable (RetryNotice) -> Void)? = nil
    ) {
        self.configuration = configuration
        self.httpClient = httpClient
        self.onRetry = onRetry
        self.health = ServiceHealth(pagesInFlight: configuration.pagesInFlight)
    }

    /// Fetches and parses one page, retrying failures: soon while the server mostly answers,
    /// with the configuration's ``RetryPolicy`` backoff while it mostly fails (see the type).
    ///
    /// - Parameter index: The page number (from 0).
    /// - Returns: The page; past the end its ``SpecsPage/isPastEnd`` is true.
    /// - Throws: ``PodSpecsError``: `.network`, `.timeout` or `.httpStatus` once retries are
    ///   spent (the message names the page and the last failure), `.malformedJSON` or
    ///   `.invalidPage` for a body that is not a page; `CancellationError` when cancelled.
    public func fetchPage(_ index: Int) async throws -> SpecsPage {
        await health.begin(index)
        do {
            let page = try await fetchWithRetries(index)
            await health.end(index)
            return page
        } catch {
            await health.end(index)
            throw error
        }
    }

    private func fetchWithRetries(_ index: Int) async throws -> SpecsPage {
        let url = configuration.url(forPage: index)
        let location = "page \(index) (\(url.absoluteString))"
        var attempt = 1
        while true {
            try await health.enter(index)
            let outcome: Result<SpecsPage, any Error>
            do {
                outcome = .success(try await fetchOnce(url, index: index, location: location))
            } catch {
                outcome = .failure(error)
            }
            let failure: RetryableFailure
            switch outcome {
            case .success(let page):
                await health.leave(answered: true)
                return page
            case .failure(let error as RetryableFailure):
                failure = error
                await health.leave(answered: false)
            case .failure(let error):
                await health.leave(answered: nil)
                throw error
            }
            guard attempt < configuration.retry.maximumAttempts else {
                throw failure.error(location: location, attempts: attempt)
            }
            attempt += 1
            let delay = await retryDelay(beforeAttempt: attempt, after: failure)
            onRetry?(
                RetryNotice(
                    page: index, reason: failure.reason(timeout: configuration.requestTimeout), delay: delay,
                    attempt: attempt, maximumAttempts: configuration.retry.maximumAttempts))
            waitingForRetry.add(1, ordering: .relaxed)
            defer { waitingForRetry.subtract(1, ordering: .relaxed) }
            try await Task.sleep(for: delay)
        }
    }

    /// The wait before another attempt: short while the server mostly answers, the policy's
    /// backoff while it mostly fails; with jitter (up to a quarter more), and never under
    /// `Retry-After`.
    private func retryDelay(beforeAttempt attempt: Int, after failure: RetryableFailure) async -> Duration {
        let policy = configuration.retry.delay(beforeAttempt: attempt)
        var delay = policy
        if await health.isMostlyAnswering {
            delay = min(policy, ServiceHealth.passingFailureDelay * (1 << min(attempt - 2, 16)))
        }
        delay = delay * Double.random(in: 1...1.25)
        if case .status(_, let retryAfter?) = failure { delay = max(delay, retryAfter) }
        return delay
    }

    /// The pages from `first` to the last, each fetched while the previous one is being used:
    /// at most two pages are held at once, whatever the catalogue's size.
    ///
    /// The sequence ends after page `number_of_pages - 1` or at a page whose `result` is null.
    public func pages(from first: Int = 0) -> SpecsPageSequence {
        SpecsPageSequence(client: self, first: first)
    }

    // MARK: - One request

    private func fetchOnce(_ url: URL, index: Int, location: String) async throws -> SpecsPage {
        var request = HTTPClientRequest(url: url.absoluteString)
        request.method = .GET
        request.headers.add(name: "Accept", value: "application/json")
        let body: ByteBuffer
        do {
            let response = try await httpClient.execute(request, timeout: .nanoseconds(configuration.requestTimeout.nanoseconds))
            hasAnswered.store(true, ordering: .relaxed)
            guard response.status == .ok else {
                if response.status.code >= 500 {
                    // `Retry-After: <seconds>` (an HTTP date is taken as no hint), at most 10 min.
                    let retryAfter = response.headers.first(name: "Retry-After").flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
                        .map { Duration.seconds(min(max($0, 0), 600)) }
                    throw RetryableFailure.status(response.status, retryAfter: retryAfter)
                }
                throw PodSpecsError(
                    .httpStatus,
                    "The server answered \(location) with HTTP \(response.status.code) \(response.status.reasonPhrase). Check the base URL and the page parameter.",
                    location: url.absoluteString)
            }
            body = try await response.body.collect(upTo: configuration.maximumPageBytes)
            biggestPage.max(body.readableBytes, ordering: .relaxed)
        } catch is CancellationError {
            throw CancellationError()
        } catch let error as PodSpecsError {
            throw error
        } catch let error as RetryableFailure {
            throw error
        } catch is NIOTooManyBytesError {
            throw PodSpecsError(
                .invalidPage,
                "\(location) is larger than \(configuration.maximumPageBytes) bytes; raise the page size limit if the server's pages really are that big.",
                location: url.absoluteString)
        } catch let error as HTTPClientError where [.deadlineExceeded, .readTimeout, .connectTimeout].contains(error) {
            throw RetryableFailure.timeout(error)
        } catch {
            try Task.checkCancellation()
            if Self.isConnectionRefused(error) && !hasAnswered.load(ordering: .relaxed) {
                // Nothing has ever listened there (a wrong address, a server not started):
                // say so at once. A server that answered before and now refuses is retried.
                let port = url.port.map { ":\($0)" } ?? ""
                throw PodSpecsError(
                    .network,
                    "Nothing is listening at \(url.host ?? "the server")\(port) (connection refused), so \(location) cannot be fetched. Start the server, or check the address.",
                    location: url.absoluteString, cause: error)
            }
            throw RetryableFailure.network(error)
        }
        return try body.withUnsafeReadableBytes { bytes in
            try PodSpecParser.parsePage(bytes, index: index, location: location)
        }
    }
}

extension SpecsClient {
    /// Whether connecting was refused (no process listens on the port), however NIO wraps it.
    static func isConnectionRefused(_ error: any Error) -> Bool {
        switch error {
        case let error as IOError:
            return error.errnoCode == ECONNREFUSED
        case let error as NIOConnectionError:
            return !error.connectionErrors.isEmpty && error.connectionErrors.allSatisfy { isConnectionRefused($0.error) }
        default:
            return false
        }
    }
}

// MARK: - Retryable failures

/// A failure worth another attempt.
private enum RetryableFailure: Error {
    case status(HTTPResponseStatus, retryAfter: Duration?)
    case timeout(any Error)
    case network(any Error)

    /// A few words for a retry notice.
    func reason(timeout: Duration) -> String {
        switch self {
        case .status(let status, _): "HTTP \(status.code)"
        case .timeout: "no answer within \(timeout.components.seconds) s"
        case .network(let cause): "\(cause)"
        }
    }

    func error(location: String, attempts: Int) -> PodSpecsError {
        let tries = attempts == 1 ? "" : " after \(attempts) attempts"
        let advice = "Check that the server is up, then import again: the import resumes after the last saved page."
        switch self {
        case .status(let status, _):
            return PodSpecsError(
                .httpStatus, "The server answered \(location) with HTTP \(status.code) \(status.reasonPhrase)\(tries). \(advice)",
                location: location)
        case .timeout(let cause):
            return PodSpecsError(.timeout, "Fetching \(location) timed out\(tries). \(advice)", location: location, cause: cause)
        case .network(let cause):
            return PodSpecsError(.network, "Could not fetch \(location)\(tries): \(cause). \(advice)", location: location, cause: cause)
        }
    }
}

// MARK: - Durations

extension Duration {
    /// The duration in whole nanoseconds (saturating).
    var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        let (scaled, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        return overflow ? .max : scaled + attoseconds / 1_000_000_000
    }
}
