import Foundation
import PodDocTesting
import PodSpecs
import PodSpecsServer
import Synchronization
import XCTest

/// Importing from a specs service that refuses, fails or hangs, through the real binary: a
/// refused connection fails at once with what to do, and every retry is said on its own line.
final class ServiceFailureTests: CommandLineTestCase {
    /// A port on loopback with nothing listening (bound, then closed).
    private func closedPort() throws -> Int {
        let socket = try LoopbackSocket(listening: false)
        socket.close()
        return socket.port
    }

    /// A failure of the catalog, which the server answers with HTTP 500.
    private struct InjectedFailure: Error {}

    /// The specs of a page file, whose first `failures` reads fail (the server answers 500).
    private final class FailingCatalog: SpecsCatalog {
        private let specs: PageFileSpecsCatalog
        private let failuresLeft: Mutex<Int>

        init(_ specs: PageFileSpecsCatalog, failures: Int) {
            self.specs = specs
            failuresLeft = Mutex(failures)
        }

        func count() async throws -> Int {
            let fails = failuresLeft.withLock { left in
                defer { left = max(0, left - 1) }
                return left > 0
            }
            if fails { throw InjectedFailure() }
            return try await specs.count()
        }

        func json(in range: Range<Int>) async throws -> [String] {
            try await specs.json(in: range)
        }
    }

    func testNothingListeningFailsAtOnceWithWhatToDo() throws {
        try succeed("new", path("S.poddoc"), "--kind", "pods")
        let port = try closedPort()
        let started = Date()
        let result = try fail(69, "import", path("S.poddoc"), "--from", "http://127.0.0.1:\(port)/specs")
        XCTAssertLessThan(Date().timeIntervalSince(started), 10, "a refused connection is not retried until a deadline")
        XCTAssertTrue(result.stderr.contains("Nothing is listening at 127.0.0.1:\(port)"), result.stderr)
    }

    func testEachRetryIsReportedAndTheImportGoesOn() async throws {
        try succeed("new", path("S.poddoc"), "--kind", "pods")
        // Page 0 fails once with HTTP 500, then the server answers with the sample page.
        let catalog = FailingCatalog(
            try PageFileSpecsCatalog(file: SpecsPageFile(url: URL(fileURLWithPath: Self.sampleSpecs))), failures: 1)
        let server = SpecsServer(catalog: catalog, configuration: .init(pageSize: 300))
        let port = try await server.start()
        defer { Task { await server.stop() } }
        let result = try succeed("import", path("S.poddoc"), "--from", "http://127.0.0.1:\(port)/specs")
        // Before the server ever answered: the policy's 4 s, with up to a quarter more jitter.
        XCTAssertTrue(
            ["4", "5"].contains { result.stderr.contains("import: page 0: HTTP 500, retrying in \($0) s, attempt 2 of 6") }, result.stderr)
        XCTAssertTrue(result.stdout.contains("Imported 300 specs"), result.stdout)
    }
}
