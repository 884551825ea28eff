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
/// retried with bounded exponential backoff (``RetryPolicy``), each retry reported through
/// `onRetry`; a connection refused before the server ever answered fails at once ("nothing
/// is listening"); any other status, a page over the size limit, or a body that is not a
/// page of specs is an error naming the page.
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
    }

    /// Fetches and parses one page, retrying per the configuration's policy.
    ///
    /// - Parameter index: The page number (from 0).
    /// - Returns: The page; past the end its ``SpecsPage/isPastEnd`` is true.
    /// - Throws: ``PodSpecsError``: `.network`, `.timeout` or `.httpStatus` once retries are
    ///   spent (the message names the page and the last failure), `.malformedJSON` or
    ///   `.invalidPage` for a body that is not a page; `CancellationError` when cancelled.
    public func fetchPage(_ index: Int) async throws -> SpecsPage {
        let url = configuration.url(forPage: index)
        let location = "page \(index) (\(url.absoluteString))"
        var attempt = 1
        while true {
            do {
                return try await fetchOnce(url, index: index, location: location)
            } catch let failure as RetryableFailure {
                guard attempt < configuration.retry.maximumAttempts else {
                    throw failure.error(location: location, attempts: attempt)
                }
                attempt += 1
                let delay = configuration.retry.delay(beforeAttempt: attempt)
                onRetry?(
                    RetryNotice(
                        page: index, reason: failure.reason(timeout: configuration.requestTimeout), delay: delay,
                        attempt: attempt, maximumAttempts: configuration.retry.maximumAttempts))
                try await Task.sleep(for: delay)
            }
        }
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
                if response.status.code >= 500 { throw RetryableFailure.status(response.status) }
                throw PodSpecsError(
                    .httpStatus,
                    "The server answered \(location) with HTTP \(response.status.code) \(response.status.reasonPhrase). Check the base URL and the page parameter.",
                    location: url.absoluteString)
            }
            body = try await response.body.collect(upTo: configuration.maximumPageBytes)
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
    case status(HTTPResponseStatus)
    case timeout(any Error)
    case network(any Error)

    /// A few words for a retry notice.
    func reason(timeout: Duration) -> String {
        switch self {
        case .status(let status): "HTTP \(status.code)"
        case .timeout: "no answer within \(timeout.components.seconds) s"
        case .network(let cause): "\(cause)"
        }
    }

    func error(location: String, attempts: Int) -> PodSpecsError {
        let tries = attempts == 1 ? "" : " after \(attempts) attempts"
        let advice = "Check that the server is up, then import again: the import resumes after the last saved page."
        switch self {
        case .status(let status):
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
