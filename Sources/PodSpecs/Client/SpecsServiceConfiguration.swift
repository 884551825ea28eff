import Foundation

/// Where and how to reach a specs web service (`GET <base>?page=N`).
///
/// ```swift
/// let configuration = try SpecsServiceConfiguration(baseURL: URL(string: "http://127.0.0.1:8080/specs")!)
/// configuration.url(forPage: 3)   // http://127.0.0.1:8080/specs?page=3
/// ```
public struct SpecsServiceConfiguration: Sendable, Hashable {
    /// The URL of the page resource, without the page parameter.
    public var baseURL: URL
    /// The name of the query parameter carrying the page number.
    public var pageParameter: String
    /// The longest a single request may take, body included.
    public var requestTimeout: Duration
    /// How failed requests are retried.
    public var retry: RetryPolicy
    /// The largest page body accepted; a bigger one is an error (memory stays bounded).
    public var maximumPageBytes: Int
    /// How many pages are fetched at once, ahead of the page being imported (1: one at a
    /// time), fewer when pages are big (the window holds at most about 64 MiB of pages). A
    /// page waiting for a retry does not stop the others; pages are still handed out in
    /// order. While most requests fail, requests go one at a time.
    public var pagesInFlight: Int

    /// Makes a configuration.
    ///
    /// - Parameters:
    ///   - baseURL: The page resource, e.g. `http://host:8080/specs`; an `http` or `https` URL.
    ///   - pageParameter: The page number's query parameter (default `page`).
    ///   - requestTimeout: The longest one request may take (default 30 s).
    ///   - retry: How failed requests are retried.
    ///   - maximumPageBytes: The largest page accepted (default 64 MiB).
    ///   - pagesInFlight: How many pages are fetched at once (default 64, at least 1).
    /// - Throws: ``PodSpecsError`` (`.invalidArgument`) for a URL that is not http(s) with a host.
    public init(
        baseURL: URL, pageParameter: String = "page", requestTimeout: Duration = .seconds(30),
        retry: RetryPolicy = RetryPolicy(), maximumPageBytes: Int = 64 << 20, pagesInFlight: Int = 64
    ) throws {
        guard let scheme = baseURL.scheme?.lowercased(), scheme == "http" || scheme == "https",
            let host = baseURL.host, !host.isEmpty
        else {
            throw PodSpecsError(
                .invalidArgument,
                "\(baseURL.absoluteString) is not a web service address: give an http:// or https:// URL with a host, e.g. http://127.0.0.1:8080/specs.",
                location: baseURL.absoluteString)
        }
        guard !pageParameter.isEmpty else {
            throw PodSpecsError(.invalidArgument, "The page parameter name is empty; the reference service uses \"page\".")
        }
        self.baseURL = baseURL
        self.pageParameter = pageParameter
        self.requestTimeout = requestTimeout
        self.retry = retry
        self.maximumPageBytes = maximumPageBytes
        self.pagesInFlight = max(1, pagesInFlight)
    }

    /// The URL of one page: the base URL with the page parameter added to its query.
    public func url(forPage index: Int) -> URL {
        var components = URLComponents(url: baseURL, resolvingAgainstBaseURL: false)!
        var items = (components.queryItems ?? []).filter { $0.name != pageParameter }
        items.append(URLQueryItem(name: pageParameter, value: String(index)))
        components.queryItems = items
        return components.url!
    }

    /// The identity of the catalogue for checkpoints: the base URL and the page parameter.
    public var sourceIdentifier: String {
        "\(url(forPage: 0).absoluteString.dropLast(1))"
    }
}
