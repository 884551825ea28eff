import Foundation
import PodDocStore
import PodDocTesting
import Synchronization
import XCTest

@testable import PodSpecs
@testable import PodSpecsServer

/// A failing service: each import ends complete, or with a clear error and every page before
/// the failure saved; resuming then completes without duplicates.
final class FaultTests: SpecsTestCase {
    private var texts: [String] = []

    override func setUp() async throws {
        let catalog = try FolderSpecsCatalog(folder: SpecsFolder(url: SpecFixtures.flat))
        texts = try await catalog.json(in: 0..<catalog.count())
    }

    private func url(_ port: Int) -> URL { URL(string: "http://127.0.0.1:\(port)/specs")! }

    /// Specs saved after pages 0...`page` of the quirky service: 21 on the first, 20 after.
    private func savedAfter(page: Int) -> Int { min(texts.count, (page + 1) * 20 + 1) }

    func testOneRequestInFiveFailingStillCompletes() async throws {
        let server = ReferenceSpecsServer(specs: texts, pageSize: 2, faults: .init(failureRate: 0.2))
        let port = try await server.start()
        let store = try makeStore()
        let summary = try await SpecsImporter(root: ObjectContext(store: store), options: .init(specsPerSave: 1))
            .importService(
                try client(
                    url(port), retry: RetryPolicy(maximumAttempts: 10, initialDelay: .milliseconds(1), maximumDelay: .milliseconds(10))))
        await server.kill()
        XCTAssertGreaterThan(server.injectedFailures, 0, "the seeded faults should hit at least one request")
        XCTAssertEqual(server.requestCount, summary.pages + server.injectedFailures)
        XCTAssertTrue(summary.isComplete)
        XCTAssertEqual(try savedKeys(store).count, texts.count)
    }

    /// With a fifth of the requests failing, a page waiting for a retry does not stop the
    /// others: passing failures are asked again within a second (the default policy's 4 s
    /// backoff is for a server that mostly fails), pages are committed in order, and every
    /// request is a page or a retry.
    func testPassingFailuresAreAskedAgainSoonWhileOtherPagesArrive() async throws {
        let server = ReferenceSpecsServer(specs: texts, pageSize: 2, faults: .init(failureRate: 0.2))
        let port = try await server.start()
        let store = try makeStore()
        let notices = Mutex<[RetryNotice]>([])
        let importer = SpecsImporter(root: ObjectContext(store: store), options: .init(specsPerSave: 1))
        let summary = try await importer.importService(
            try client(url(port), retry: RetryPolicy()) { notice in notices.withLock { $0.append(notice) } })
        await server.kill()
        let retries = notices.withLock { $0 }
        XCTAssertGreaterThan(server.injectedFailures, 2, "the seeded faults hit several requests")
        XCTAssertEqual(server.requestCount, summary.pages + server.injectedFailures, "no request beyond the pages and their retries")
        XCTAssertEqual(retries.count, server.injectedFailures)
        let slow = retries.filter { $0.delay >= .seconds(1) }
        XCTAssertLessThanOrEqual(slow.count, 1, "only a failure before the server ever answered waits the policy's 4 s: \(slow)")
        XCTAssertTrue(summary.isComplete)
        XCTAssertEqual(try savedKeys(store).count, texts.count)
        let checkpoint = try await importer.checkpoint(for: try SpecsServiceConfiguration(baseURL: url(port)).sourceIdentifier)
        XCTAssertEqual(checkpoint?.lastCompletedPage, summary.pages - 1)
    }

    /// A server that stops answering after the first page: the client goes one request at a
    /// time, for the lowest page; when that page's attempts are spent the import stops, and
    /// every other page's fetch, waiting its turn, ends with it.
    func testPagesWaitingTheirTurnEndWhenTheImportStops() async throws {
        let server = ReferenceSpecsServer(specs: texts, pageSize: 2, faults: .init(failFromPage: 1))
        let port = try await server.start()
        let store = try makeStore()
        let client = try client(url(port), pagesInFlight: 4)
        do {
            try await SpecsImporter(root: ObjectContext(store: store)).importService(client)
            XCTFail("the import went on with a server that fails")
        } catch let error as PodSpecsError {
            XCTAssertTrue(error.message.contains("page 1 ("), error.message)
        }
        await server.kill()
        // Page 0, the window's first attempts, then (the server failing) page 1's alone: fewer
        // than each of the four pages retrying on its own would send.
        XCTAssertLessThan(server.requestCount, 1 + 4 * 6, "\(server.requestCount) requests")
        var left = await client.health.fetches
        for _ in 0..<200 where left > 0 {
            try await Task.sleep(for: .milliseconds(10))
            left = await client.health.fetches
        }
        XCTAssertEqual(left, 0, "no fetch is left waiting")
    }

    /// A failing answer's `Retry-After` is a floor for the wait.
    func testRetryAfterIsWaitedAtLeast() async throws {
        let server = ReferenceSpecsServer(specs: texts, pageSize: 40, faults: .init(failureRate: 0.3, retryAfter: 1))
        let port = try await server.start()
        let store = try makeStore()
        let notices = Mutex<[RetryNotice]>([])
        let summary = try await SpecsImporter(root: ObjectContext(store: store)).importService(
            try client(url(port), retry: RetryPolicy(maximumAttempts: 12, initialDelay: .milliseconds(10), maximumDelay: .milliseconds(50)))
            {
                notice in notices.withLock { $0.append(notice) }
            })
        await server.kill()
        let retries = notices.withLock { $0 }
        XCTAssertFalse(retries.isEmpty, "the seeded faults hit a request")
        XCTAssertTrue(retries.allSatisfy { $0.delay >= .seconds(1) }, "\(retries)")
        XCTAssertTrue(summary.isComplete)
        XCTAssertEqual(try savedKeys(store).count, texts.count)
    }

    func testAnInvalidJSONPageStopsWithAClearErrorAndResumeCompletes() async throws {
        let server = ReferenceSpecsServer(specs: texts, faults: .init(invalidJSONPage: 2))
        let port = try await server.start()
        let store = try makeStore()
        let importer = SpecsImporter(root: ObjectContext(store: store), options: .init(specsPerSave: 1))
        do {
            try await importer.importService(try client(url(port)))
            XCTFail("an invalid page was imported")
        } catch let error as PodSpecsError {
            XCTAssertEqual(error.code, .malformedJSON)
            XCTAssertTrue(error.message.contains("page 2 (http://127.0.0.1:\(port)/specs?page=2)"), error.message)
            XCTAssertTrue(error.message.contains("line 1, column"), error.message)
        }
        await server.kill()
        XCTAssertEqual(try savedKeys(store).count, savedAfter(page: 1))
        try await resume(importer, store, port: port, from: 2)
    }

    func testAResponseCutShortIsRetried() async throws {
        let server = ReferenceSpecsServer(specs: texts, faults: .init(cutShortPage: 1))
        let port = try await server.start()
        let store = try makeStore()
        let summary = try await SpecsImporter(root: ObjectContext(store: store)).importService(try client(url(port)))
        await server.kill()
        XCTAssertEqual(server.requestCount, summary.pages + 1, "the cut page is fetched twice")
        XCTAssertTrue(summary.isComplete)
        XCTAssertEqual(try savedKeys(store).count, texts.count)
    }

    func testAResponseCutShortEveryTimeIsANetworkErrorNamingThePage() async throws {
        let server = ReferenceSpecsServer(specs: texts, faults: .init(cutShortPage: 1))
        let port = try await server.start()
        let store = try makeStore()
        do {
            try await SpecsImporter(root: ObjectContext(store: store), options: .init(specsPerSave: 1))
                .importService(try client(url(port), retry: RetryPolicy(maximumAttempts: 1)))
            XCTFail("a cut page was imported")
        } catch let error as PodSpecsError {
            XCTAssertEqual(error.code, .network)
            XCTAssertTrue(error.message.contains("page 1 ("), error.message)
        }
        await server.kill()
        XCTAssertEqual(try savedKeys(store).count, savedAfter(page: 0))
    }

    func testTheServerDyingHalfWayStopsWithAClearErrorAndResumeCompletes() async throws {
        let server = ReferenceSpecsServer(specs: texts, faults: .init(dieAtPage: 3))
        let port = try await server.start()
        let store = try makeStore()
        let importer = SpecsImporter(root: ObjectContext(store: store), options: .init(specsPerSave: 1))
        do {
            try await importer.importService(try client(url(port), pagesInFlight: 1))
            XCTFail("the import went on after the server died")
        } catch let error as PodSpecsError {
            XCTAssertTrue([.network, .httpStatus].contains(error.code), "\(error.code): \(error.message)")
            XCTAssertTrue(error.message.contains("page 3 ("), error.message)
            XCTAssertTrue(error.message.contains("after 6 attempts"), error.message)
        }
        XCTAssertEqual(try savedKeys(store).count, savedAfter(page: 2))
        try await resume(importer, store, port: port, from: 3)
    }

    /// The server dies while a window of pages is in flight: the pages in flight with the one
    /// that killed it fail too, the import stops at the lowest of them with every page before
    /// it saved (pages are committed in order), and resuming completes.
    func testTheServerDyingInTheMiddleOfAWindowStopsAtAPageAndResumeCompletes() async throws {
        let server = ReferenceSpecsServer(specs: texts, pageSize: 2, faults: .init(dieAtPage: 6))
        let port = try await server.start()
        let store = try makeStore()
        let importer = SpecsImporter(root: ObjectContext(store: store), options: .init(specsPerSave: 1))
        var failed: Int?
        do {
            try await importer.importService(try client(url(port)))
            XCTFail("the import went on after the server died")
        } catch let error as PodSpecsError {
            XCTAssertTrue(error.message.contains("after 6 attempts"), error.message)
            failed = error.message.split(separator: "page ").dropFirst().first.flatMap { Int($0.prefix { $0.isNumber }) }
        }
        let page = try XCTUnwrap(failed, "the error names the page")
        XCTAssertTrue((1...6).contains(page), "a page of the window the server died in: \(page)")
        let checkpoint = try await importer.checkpoint(for: try SpecsServiceConfiguration(baseURL: url(port)).sourceIdentifier)
        XCTAssertEqual(checkpoint?.lastCompletedPage, page - 1, "every page before it, and none after")
        XCTAssertEqual(try savedKeys(store).count, min(texts.count, page * 2 + 1))
        try await resume(importer, store, port: port, from: page, pageSize: 2)
    }

    /// Resumes against a healthy server on the same address and checks the result.
    private func resume(
        _ importer: SpecsImporter, _ store: PersistentStore, port: Int, from page: Int, pageSize: Int = 20
    ) async throws {
        let before = try savedKeys(store).count
        let healthy = ReferenceSpecsServer(specs: texts, pageSize: pageSize)
        _ = try await healthy.start(port: port)
        let summary = try await importer.importService(try client(url(port)), resume: true)
        await healthy.kill()
        XCTAssertEqual(summary.firstPage, page)
        XCTAssertTrue(summary.isComplete)
        XCTAssertEqual(summary.created, texts.count - before)
        XCTAssertEqual(try savedKeys(store).count, texts.count)
    }
}

/// The default retry budget follows time, as the CocoaPods CDN client's does.
final class RetryPolicyDefaultsTests: XCTestCase {
    func testTheDefaultWaitsAre4Times2ToTheN() {
        let policy = RetryPolicy()
        XCTAssertEqual(policy.maximumAttempts, 6)
        XCTAssertEqual(
            (2...6).map { policy.delay(beforeAttempt: $0) }, [.seconds(4), .seconds(8), .seconds(16), .seconds(32), .seconds(64)])
        XCTAssertEqual(
            RetryNotice(page: 38, reason: "HTTP 500", delay: .seconds(4), attempt: 2, maximumAttempts: 6).description,
            "page 38: HTTP 500, retrying in 4 s, attempt 2 of 6")
    }
}
