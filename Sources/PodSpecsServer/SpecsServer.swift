import Foundation
import Hummingbird
import Logging
import NIOCore
import PodSpecs
import ServiceLifecycle
import Synchronization

/// An HTTP server answering `GET /specs?page=N` in the reference format,
/// `{"number_of_pages": P, "result": [spec, ...]}`, from a store or a `Specs/` folder, so one
/// machine can import from another.
///
/// Pages hold ``Configuration/pageSize`` specs (no repeated spec between pages); a page past
/// the end answers `"result": null`, as the reference service does; a page number that is
/// missing, not a whole number or negative answers 400 with a JSON error. The server binds
/// 127.0.0.1 unless told otherwise.
///
/// ```swift
/// let server = SpecsServer(catalog: try StoreSpecsCatalog(store: store))
/// let port = try await server.start()
/// // … GET http://127.0.0.1:\(port)/specs?page=0 …
/// await server.stop()
/// ```
public final class SpecsServer: Sendable {
    /// Where the server listens and how it pages.
    public struct Configuration: Sendable, Hashable {
        /// The address to bind: 127.0.0.1 (this machine only) unless told otherwise.
        public var host: String
        /// The port; 0 picks a free one (``SpecsServer/start()`` returns it).
        public var port: Int
        /// Specs per page.
        public var pageSize: Int
        /// The path of the page resource.
        public var path: String
        /// The name of the page number's query parameter.
        public var pageParameter: String

        /// Makes a configuration.
        ///
        /// - Precondition: `pageSize` is at least 1; `port` is 0…65535.
        public init(host: String = "127.0.0.1", port: Int = 0, pageSize: Int = 20, path: String = "/specs", pageParameter: String = "page")
        {
            precondition(pageSize >= 1, "a page holds at least one spec")
            precondition((0...65_535).contains(port), "a port is 0…65535")
            self.host = host
            self.port = port
            self.pageSize = pageSize
            self.path = path
            self.pageParameter = pageParameter
        }
    }

    /// What is served.
    public let catalog: any SpecsCatalog
    /// Where and how.
    public let configuration: Configuration
    private let state = Mutex<State>(.idle)

    private enum State {
        case idle
        case running(group: ServiceGroup, task: Task<Void, any Error>, port: Int)
        case stopped
    }

    /// Makes a server; ``start()`` starts it.
    public init(catalog: any SpecsCatalog, configuration: Configuration = Configuration()) {
        self.catalog = catalog
        self.configuration = configuration
    }

    /// The port the server listens on, while it runs.
    public var port: Int? {
        state.withLock { if case .running(_, _, let port) = $0 { return port } else { return nil } }
    }

    /// The base URL clients use (`http://host:port/specs`), while the server runs.
    public var baseURL: URL? {
        port.map { URL(string: "http://\(configuration.host):\($0)\(configuration.path)")! }
    }

    // MARK: - Starting and stopping

    /// Starts listening and returns once the server accepts connections.
    ///
    /// - Returns: The bound port.
    /// - Throws: `PodSpecsError` (`.server`) when the address cannot be bound (in use, not
    ///   an address of this machine…) or the server was started before.
    @discardableResult
    public func start() async throws -> Int {
        let started = StartSignal()
        let quiet = Logger(label: "poddoc.specs-server", factory: { _ in SwiftLogNoOpLogHandler() })
        let app = Application(
            router: makeRouter(),
            configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: nil),
            onServerRunning: { channel in started.resolve(.success(channel.localAddress?.port ?? 0)) },
            logger: quiet)
        let group = ServiceGroup(configuration: .init(services: [app], logger: quiet))
        try state.withLock { state in
            guard case .idle = state else {
                throw PodSpecsError(.server, "The spec server was already started; make a new SpecsServer to serve again.")
            }
            let task = Task {
                do {
                    try await group.run()
                    started.resolve(.failure(PodSpecsError(.server, "the server stopped at once")))
                } catch {
                    started.resolve(.failure(error))
                    throw error
                }
            }
            state = .running(group: group, task: task, port: 0)
        }
        switch await started.value() {
        case .success(let port):
            state.withLock { state in
                if case .running(let group, let task, _) = state { state = .running(group: group, task: task, port: port) }
            }
            return port
        case .failure(let error):
            state.withLock { $0 = .stopped }
            throw PodSpecsError(
                .server, "Could not serve specs on \(configuration.host):\(configuration.port): \(Self.describe(error, configuration))",
                cause: error)
        }
    }

    /// Why listening failed, in words a user can act on (not NIO's `bind(descriptor:ptr:bytes:)`).
    private static func describe(_ error: any Error, _ configuration: Configuration) -> String {
        if let error = error as? IOError {
            switch error.errnoCode {
            case EADDRINUSE: return "port \(configuration.port) is already in use. Choose another port, or 0 for a free one."
            case EACCES: return "this user may not listen on port \(configuration.port). Choose a port above 1023, or 0 for a free one."
            case EADDRNOTAVAIL:
                return "\(configuration.host) is not an address of this machine. Use 127.0.0.1, or one of this machine's addresses."
            default: return "\(String(cString: strerror(error.errnoCode))) (errno \(error.errnoCode)). Choose another port or address."
            }
        }
        if error is SocketAddressError.UnknownHost || error is SocketAddressError {
            return "no host named \(configuration.host) is known. Use 127.0.0.1, or one of this machine's addresses."
        }
        return "\(error). Choose another port, or check the address belongs to this machine."
    }

    /// Stops accepting connections, finishes the requests in progress, and returns when the
    /// server is down. Stopping a server that is not running does nothing.
    public func stop() async {
        let running = state.withLock { state -> (ServiceGroup, Task<Void, any Error>)? in
            guard case .running(let group, let task, _) = state else { return nil }
            state = .stopped
            return (group, task)
        }
        guard let (group, task) = running else { return }
        await group.triggerGracefulShutdown()
        _ = await task.result
    }

}

/// The outcome of starting: the bound port, or why the server could not start. The first
/// report wins; whoever waits gets it, however early or late they ask.
final class StartSignal: Sendable {
    private let state = Mutex<(result: Result<Int, any Error>?, waiter: CheckedContinuation<Result<Int, any Error>, Never>?)>((nil, nil))

    func resolve(_ result: Result<Int, any Error>) {
        let waiter = state.withLock { state -> CheckedContinuation<Result<Int, any Error>, Never>? in
            guard state.result == nil else { return nil }
            state.result = result
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(returning: result)
    }

    func value() async -> Result<Int, any Error> {
        await withCheckedContinuation { continuation in
            let ready = state.withLock { state -> Result<Int, any Error>? in
                if state.result == nil { state.waiter = continuation }
                return state.result
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }
}
