import Foundation
import PodDocStore
import PodDocTesting
import Synchronization
import XCTest

@testable import PodSpecs
@testable import PodSpecsServer

/// Importing over real HTTP on loopback: from poddoc's own server and from a server with the
/// reference service's quirks.
final class ServiceImportTests: SpecsTestCase {
    /// The fixture specs' JSON, in list order.
    static func fixtureTexts() async throws -> [String] {
        let catalog = try FolderSpecsCatalog(folder: SpecsFolder(url: SpecFixtures.flat))
        return try await catalog.json(in: 0..<catalog.count())
    }

    func testImportFromTheSpecServerAndExportBackGivesTheSameJSON() async throws {
        let catalog = try FolderSpecsCatalog(folder: SpecsFolder(url: SpecFixtures.flat))
        XCTAssertEqual(catalog.skipped.count, SpecFixtures.strayFiles)
        XCTAssertEqual(catalog.rejected.count, SpecFixtures.malformedSpecs)
        let server = SpecsServer(catalog: catalog, configuration: .init(pageSize: 7))
        try await server.start()
        let url = try XCTUnwrap(server.baseURL)
        XCTAssertEqual(url.host, "127.0.0.1")
        let store = try makeStore()
        let summary = try await SpecsImporter(root: ObjectContext(store: store)).importService(try client(url))
        await server.stop()
        XCTAssertEqual(summary.created, SpecFixtures.goodSpecs)
        XCTAssertEqual(summary.repeated, 0)
        XCTAssertEqual(summary.numberOfPages, (SpecFixtures.goodSpecs + 6) / 7)
        XCTAssertTrue(summary.isComplete)

        let exported = folder.appending(path: "pages")
        let export = try SpecsExporter(store: store).exportPages(to: exported, pageSize: 10)
        XCTAssertEqual(export.specs, SpecFixtures.goodSpecs)
        var specs: [NSDictionary] = []
        for page in 0..<export.files {
            let object =
                try JSONSerialization.jsonObject(with: Data(contentsOf: exported.appending(path: "page-\(page).json"))) as! NSDictionary
            XCTAssertEqual(object["number_of_pages"] as? Int, export.files)
            specs += object["result"] as! [NSDictionary]
        }
        let originals = try await ServiceImportTests.fixtureTexts().map {
            try JSONSerialization.jsonObject(with: Data($0.utf8)) as! NSDictionary
        }
        XCTAssertEqual(specs, originals)
    }

    func testServingAStoreToAnotherStore() async throws {
        let source = try makeStore("source")
        try await SpecsImporter(root: ObjectContext(store: source)).importFolder(SpecsFolder(url: SpecFixtures.sharded))
        let catalog = try StoreSpecsCatalog(store: source)
        let server = SpecsServer(catalog: catalog, configuration: .init(pageSize: 9))
        try await server.start()
        let copy = try makeStore("copy")
        let summary = try await SpecsImporter(root: ObjectContext(store: copy)).importService(try client(server.baseURL!))
        await server.stop()
        XCTAssertEqual(summary.created, SpecFixtures.goodSpecs)
        XCTAssertEqual(try savedKeys(copy), try savedKeys(source))
        // Served in list order, the same order as a folder of the same specs.
        let folderOrder = try await ServiceImportTests.fixtureTexts()
        let storeOrder = try await catalog.json(in: 0..<catalog.count())
        XCTAssertEqual(storeOrder, folderOrder)
    }

    func testTheReferenceQuirksGiveOneSpecPerNameAndVersion() async throws {
        let texts = try await ServiceImportTests.fixtureTexts()
        let server = ReferenceSpecsServer(specs: texts)
        let port = try await server.start()
        let store = try makeStore()
        let summary = try await SpecsImporter(root: ObjectContext(store: store))
            .importService(try client(URL(string: "http://127.0.0.1:\(port)/specs")!))
        await server.kill()
        let pages = (texts.count + 19) / 20
        XCTAssertEqual(summary.created, texts.count)
        XCTAssertEqual(summary.repeated, pages - 1)
        XCTAssertEqual(summary.pages, pages)
        XCTAssertEqual(try savedKeys(store).count, texts.count)
    }

    // MARK: - The main context while importing

    @MainActor
    func testMainContextFollowsTheImportWhileTheMainActorKeepsRunning() async throws {
        let store = try makeStore()
        let root = ObjectContext(store: store)
        let main = ObjectContext(.main, parent: root)
        main.automaticallyMergesChangesFromParent = true
        let controller = ResultsController(SpecsQueries.listRequest(), context: main)
        var reports: [Int] = []
        controller.onChange = { _ in reports.append(controller.count) }
        try controller.performFetch()
        XCTAssertEqual(controller.count, 0)

        let server = ReferenceSpecsServer(specs: try await ServiceImportTests.fixtureTexts())
        let port = try await server.start()
        let importer = SpecsImporter(root: root, options: .init(specsPerSave: 10))
        let service = try client(URL(string: "http://127.0.0.1:\(port)/specs")!)
        // The ticker runs on the main actor; the import waits at its first save until the
        // ticker has ticked, which it could not do if the import held the main actor.
        let ticked = DispatchSemaphore(value: 0)
        let tickedDuringImport = Mutex(false)
        let ticker = Task { @MainActor in
            var ticks = 0
            while !Task.isCancelled {
                ticks += 1
                ticked.signal()
                try? await Task.sleep(for: .milliseconds(1))
            }
            return ticks
        }
        let summary = try await Task.detached {
            try await importer.importService(service) { progress in
                if progress.pagesDone == 1 {
                    tickedDuringImport.withLock { $0 = ticked.wait(timeout: .now() + 30) == .success }
                }
            }
        }.value
        ticker.cancel()
        let ticks = await ticker.value
        await server.kill()
        await main.perform { _ in }  // let the last merge arrive
        XCTAssertTrue(tickedDuringImport.withLock { $0 }, "the main actor did not run while the import ran")
        XCTAssertGreaterThan(ticks, 0)
        XCTAssertEqual(summary.created, SpecFixtures.goodSpecs)
        XCTAssertEqual(controller.count, SpecFixtures.goodSpecs)
        XCTAssertGreaterThan(reports.count, 1, "the controller should update at several saves, not once")
        XCTAssertEqual(reports, reports.sorted(), "the list only grows during an import")
        XCTAssertEqual(controller.fetchedIDs, try main.fetchIDs(SpecsQueries.listRequest()))
    }

    // MARK: - Cancelling and resuming

    func testCancelKeepsWhatWasSavedAndResumeCompletesWithoutDuplicates() async throws {
        let texts = try await ServiceImportTests.fixtureTexts()
        let server = ReferenceSpecsServer(specs: texts)
        let port = try await server.start()
        let store = try makeStore()
        let importer = SpecsImporter(root: ObjectContext(store: store), options: .init(specsPerSave: 1))
        let service = try client(URL(string: "http://127.0.0.1:\(port)/specs")!)
        let canceller = Canceller()
        let task = Task {
            try await importer.importService(service) { progress in
                if progress.pagesDone == 1 { canceller.cancel() }
            }
        }
        canceller.hold(task)
        do {
            _ = try await task.value
            XCTFail("the import was not cancelled")
        } catch is CancellationError {}
        let saved = try await importer.checkpoint(for: service.configuration.sourceIdentifier)
        let checkpoint = try XCTUnwrap(saved)
        XCTAssertFalse(checkpoint.isComplete)
        XCTAssertLessThan(checkpoint.lastCompletedPage, checkpoint.numberOfPages - 1)
        // The checkpoint counts exactly the pages saved: 20 new specs a page, 21 on the first.
        XCTAssertEqual(try savedKeys(store).count, min(texts.count, (checkpoint.lastCompletedPage + 1) * 20 + 1))

        let resumed = try await importer.importService(service, resume: true)
        await server.kill()
        XCTAssertEqual(resumed.firstPage, checkpoint.nextPage)
        XCTAssertTrue(resumed.isComplete)
        XCTAssertEqual(try savedKeys(store).count, texts.count)
        XCTAssertEqual(Set(try savedKeys(store)).count, texts.count)
    }
}

/// Cancels a task once asked, even if asked before it holds the task.
final class Canceller: Sendable {
    private let state = Mutex<(task: Task<ImportSummary, any Error>?, requested: Bool)>((nil, false))

    func hold(_ task: Task<ImportSummary, any Error>) {
        if state.withLock({
            $0.task = task
            return $0.requested
        }) {
            task.cancel()
        }
    }

    func cancel() {
        state.withLock {
            $0.requested = true
            return $0.task
        }?.cancel()
    }
}
