import Foundation
import Hummingbird
import Logging
import NIOCore
import PodDocRandom
import ServiceLifecycle
import Synchronization

// MARK: - ReferenceSpecsServer

/// A pod specs service with the quirks of the reference service, and faults to inject, over
/// real HTTP on loopback: what a test of a specs import talks to.
///
/// It answers `GET /specs?page=N` as the reference service does: 20 specs meant per page and
/// 21 served (each page's last spec is the next page's first), `number_of_pages` on every
/// page, and `"result": null` past the end.
///
/// ```swift
/// let server = ReferenceSpecsServer(specs: texts, faults: .init(failureRate: 0.2))
/// let port = try await server.start()
/// // … import from http://127.0.0.1:\(port)/specs …
/// await server.kill()
/// XCTAssertGreaterThan(server.injectedFailures, 0)
/// ```
public final class ReferenceSpecsServer: Sendable {
    /// Faults to inject.
    public struct Faults: Sendable {
        /// This fraction of requests answer HTTP 500 (a seeded, repeatable choice).
        public var failureRate = 0.0
        /// This page answers 200 with a body that is not valid JSON, every time.
        public var invalidJSONPage: Int?
        /// This page's first response stops half way through its body.
        public var cutShortPage: Int?
        /// The server dies when this page is asked for, without answering.
        public var dieAtPage: Int?
        /// A failing answer says `Retry-After: <seconds>`.
        public var retryAfter: Int?
        /// Every request for this page or a later one answers HTTP 500.
        public var failFromPage: Int?

        /// Faults as given; by default, none.
        public init(
            failureRate: Double = 0, invalidJSONPage: Int? = nil, cutShortPage: Int? = nil, dieAtPage: Int? = nil,
            retryAfter: Int? = nil, failFromPage: Int? = nil
        ) {
            self.failureRate = failureRate
            self.invalidJSONPage = invalidJSONPage
            self.cutShortPage = cutShortPage
            self.dieAtPage = dieAtPage
            self.retryAfter = retryAfter
            self.failFromPage = failFromPage
        }
    }

    /// The specs served, as JSON texts, in list order.
    public let specs: [String]
    /// The faults injected.
    public let faults: Faults
    /// The specs meant per page (one more is served).
    public let pageSize: Int
    private let state = Mutex(State())
    private struct State {
        var random = SeededRandom(seed: 42)
        var cutShortDone = false
        var requests = 0
        var failures = 0
        var running: (group: ServiceGroup, task: Task<Void, any Error>)?
    }

    /// A server of `specs` (JSON texts), `pageSize` meant per page (one more served).
    public init(specs: [String], pageSize: Int = 20, faults: Faults = Faults()) {
        self.specs = specs
        self.pageSize = pageSize
        self.faults = faults
    }

    /// The requests answered (or dropped) so far.
    public var requestCount: Int { state.withLock { $0.requests } }
    /// The requests answered with an injected HTTP 500 so far.
    public var injectedFailures: Int { state.withLock { $0.failures } }

    /// Starts on `port` (0: a free one) and returns the port.
    ///
    /// - Throws: Hummingbird's error when the port cannot be bound; `CancellationError` when
    ///   the server stopped before it listened.
    public func start(port: Int = 0) async throws -> Int {
        let router = Router(context: ChannelContext.self)
        router.get("specs") { request, context in try await self.answer(request, context) }
        let (ports, continuation) = AsyncStream<Int>.makeStream()
        let quiet = Logger(label: "reference-specs-server", factory: { _ in SwiftLogNoOpLogHandler() })
        let app = Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: port)),
            onServerRunning: { continuation.yield($0.localAddress?.port ?? 0) }, logger: quiet)
        let group = ServiceGroup(configuration: .init(services: [app], logger: quiet))
        let task = Task {
            defer { continuation.finish() }
            try await group.run()
        }
        state.withLock { $0.running = (group, task) }
        for await port in ports { return port }
        throw CancellationError()
    }

    /// Stops the server: the listening socket closes, so new connections are refused.
    public func kill() async {
        guard let (group, task) = state.withLock({ $0.running }) else { return }
        await group.triggerGracefulShutdown()
        _ = await task.result
    }

    private func answer(_ request: Request, _ context: ChannelContext) async throws -> Response {
        let page = request.uri.queryParameters["page"].flatMap { Int($0) } ?? 0
        let (fail, cutShort) = state.withLock { state -> (Bool, Bool) in
            state.requests += 1
            let fail =
                (faults.failFromPage.map { page >= $0 } ?? false)
                || (faults.failureRate > 0 && Double(state.random.next() % 1000) / 1000 < faults.failureRate)
            if fail { state.failures += 1 }
            let cut = page == faults.cutShortPage && !state.cutShortDone
            if cut { state.cutShortDone = true }
            return (fail, cut)
        }
        if page == faults.dieAtPage {
            // The connection drops without an answer, and the server goes away.
            try await context.channel.close()
            Task { await self.kill() }
            throw CancellationError()
        }
        if fail {
            return Response(status: .internalServerError, headers: faults.retryAfter.map { [.retryAfter: String($0)] } ?? [:])
        }
        let pages = (specs.count + pageSize - 1) / pageSize
        var text = "{\"number_of_pages\": \(pages), \"result\": "
        if page == faults.invalidJSONPage {
            text += "[{\"name\": \"Broken\", \"version\": 1.0.0}]}"
        } else if page >= pages {
            text += "null}"
        } else {
            // The reference server's inclusive range: 21 specs, the last repeated next page.
            let slice = specs[(page * pageSize)...min(specs.count - 1, page * pageSize + pageSize)]
            text += "[" + slice.joined(separator: ",") + "]}"
        }
        let body = ByteBuffer(string: text)
        guard cutShort else {
            return Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: body))
        }
        let half = body.getSlice(at: 0, length: body.readableBytes / 2)!
        return Response(
            status: .ok, headers: [.contentType: "application/json"],
            body: .init(contentLength: body.readableBytes) { writer in
                try await writer.write(half)
                throw CancellationError()
            })
    }
}

/// A request context that knows its connection (to drop it).
struct ChannelContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    let channel: any Channel

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        channel = source.channel
    }
}
