import AsyncHTTPClient
import Foundation
import PodDocDocument
import PodDocFileSystem
import PodDocStore
import PodDocTesting
import XCTest

/// What an app's tests get from PodDocTesting, used as an app would use it.
@MainActor
final class PodDocTestingTests: XCTestCase {
    private enum Task_ {
        static let title = Attribute<String>("title", default: "")
        static let entity = EntityDescription("Task", members: [title])
        static let type = DocumentType(
            kind: DocumentKind("org.poddoc.tests.tasks"), displayName: "Task list",
            model: {
                do { return try ObjectModel(entities: [entity]) } catch { fatalError("\(error)") }
            }())
    }

    private func titles(_ document: ManagedDocument) throws -> [String] {
        try document.mainContext.fetch(FetchRequest("Task", sortBy: [FetchSort(Task_.title)])).map { $0[Task_.title] }
    }

    private func add(_ title: String, to document: ManagedDocument) {
        document.mainContext.insert("Task")[Task_.title] = title
    }

    // MARK: - TestDocument

    func testATestDocumentKeepsEverythingInItsFolderAndIsGoneAfterRemove() async throws {
        for name in ["Tasks.poddoc", "Tasks.tar.zst"] {
            let test = try await TestDocument.create(type: Task_.type, name: name)
            XCTAssertTrue(test.url.path.hasPrefix(test.folder.path))
            XCTAssertEqual(test.options.environment["XDG_STATE_HOME"], test.folder.appending(path: "state").path)
            add("write tests", to: test.document)
            try await test.document.save()
            add("unsaved at reopen", to: test.document)
            let again = try await test.reopen()
            XCTAssertEqual(try titles(again), ["unsaved at reopen", "write tests"], "\(name): a close saves, a reopen reads the disk")
            try await test.remove()
            XCTAssertFalse(FileManager.default.fileExists(atPath: test.folder.path), "\(name): the folder and working copies are gone")
        }
    }

    func testAFaultInjectedIntoTheTestDocumentsFileSystemFailsTheSaveAndLosesNothing() async throws {
        let trigger = FaultTrigger(armed: false)
        let faults = FaultPlan([.init(.fsync, errno: EIO, trigger: trigger)])
        let test = try await TestDocument.create(type: Task_.type, fileSystem: FileSystem(faults: faults))
        add("kept", to: test.document)
        trigger.arm()
        do {
            try await test.document.save()
            XCTFail("a save whose fsync fails must fail")
        } catch let error as DocumentError {
            XCTAssertTrue(error.message.contains("EIO") || error.message.contains("I/O"), error.message)
        }
        XCTAssertEqual(trigger.fired, 1)
        XCTAssertTrue(test.document.state.contains(.savingError))
        XCTAssertEqual(try titles(test.document), ["kept"], "the edit is still there")
        trigger.disarm()
        try await test.document.save()
        let reopened = try await test.reopen()
        XCTAssertEqual(try titles(reopened), ["kept"])
        try await test.remove()
    }

    // MARK: - ManualClock

    func testAManualClockDrivesAutosave() async throws {
        let clock = ManualClock()
        let test = try await TestDocument.create(type: Task_.type, clock: clock, autosaveInterval: .seconds(15))
        var events: [AutosaveEvent] = []
        test.document.onAutosave = { events.append($0) }
        let waiting = await clock.waitForSleeps(1)
        XCTAssertTrue(waiting, "the autosave loop waits on the clock")
        add("autosaved", to: test.document)
        clock.advance(by: .seconds(14))
        XCTAssertEqual(clock.sleepers, 1, "not due yet")
        XCTAssertTrue(events.isEmpty)
        clock.advance(by: .seconds(1))
        let again = await clock.waitForSleeps(2)
        XCTAssertTrue(again, "the loop came round again")
        guard case .saved? = events.last else { return XCTFail("expected an autosave, got \(events)") }
        XCTAssertFalse(test.document.hasUnsavedChanges)
        test.document.stopAutosave()
        for _ in 0..<1000 where clock.sleepers > 0 { await Task.yield() }
        XCTAssertEqual(clock.sleepers, 0, "stopping autosave cancels its sleep")
        try await test.remove()
    }

    func testSleepsWakeWhenDueEarliestFirstAndEndWhenCancelled() async throws {
        let clock = ManualClock()
        let woken = Woken()
        let long = Task {
            try await clock.sleep(for: .seconds(10))
            await woken.add(10)
        }
        let short = Task {
            try await clock.sleep(for: .seconds(5))
            await woken.add(5)
        }
        let cancelled = Task { try await clock.sleep(for: .seconds(1)) }
        let asleep = await clock.waitForSleeps(3)
        XCTAssertTrue(asleep)
        for _ in 0..<1000 where clock.sleepers < 3 { await Task.yield() }
        cancelled.cancel()
        do {
            try await cancelled.value
            XCTFail("a cancelled sleep ends with CancellationError")
        } catch is CancellationError {}
        XCTAssertEqual(clock.sleepers, 2)
        clock.advance(by: .seconds(5))
        try await short.value
        XCTAssertEqual(clock.sleepers, 1, "the later sleep still waits")
        clock.advance(by: .seconds(5))
        try await long.value
        let order = await woken.order
        XCTAssertEqual(order, [5, 10])
        XCTAssertEqual(clock.now, .seconds(10))
        try await clock.sleep(for: .zero)  // nothing to wait for
    }

    private actor Woken {
        var order: [Int] = []
        func add(_ value: Int) { order.append(value) }
    }

    // MARK: - ReferenceSpecsServer

    func testTheReferenceSpecsServerServesTheReferenceQuirksAndItsFaults() async throws {
        let specs = (0..<45).map { #"{"name": "Pod\#($0)", "version": "1.0.0"}"# }
        let server = ReferenceSpecsServer(specs: specs, faults: .init(retryAfter: 3, failFromPage: 2))
        let port = try await server.start()
        func get(_ page: Int) async throws -> (status: Int, retryAfter: String?, object: NSDictionary?) {
            let response = try await HTTPClient.shared.execute(
                HTTPClientRequest(url: "http://127.0.0.1:\(port)/specs?page=\(page)"), timeout: .seconds(10))
            let body = try await response.body.collect(upTo: 1 << 20)
            return (
                Int(response.status.code), response.headers.first(name: "Retry-After"),
                try? JSONSerialization.jsonObject(with: Data(buffer: body)) as? NSDictionary
            )
        }
        let first = try await get(0)
        let second = try await get(1)
        let names = { (page: NSDictionary?) in (page?["result"] as? [NSDictionary])?.compactMap { $0["name"] as? String } ?? [] }
        XCTAssertEqual(first.object?["number_of_pages"] as? Int, 3)
        XCTAssertEqual(names(first.object).count, 21, "20 meant, 21 served")
        XCTAssertEqual(names(first.object).last, names(second.object).first, "each page's last spec is the next page's first")
        let failing = try await get(2)
        XCTAssertEqual(failing.status, 500)
        XCTAssertEqual(failing.retryAfter, "3")
        XCTAssertEqual(server.requestCount, 3)
        XCTAssertEqual(server.injectedFailures, 1)
        await server.kill()

        let ended = ReferenceSpecsServer(specs: specs)
        let endedPort = try await ended.start()
        let response = try await HTTPClient.shared.execute(
            HTTPClientRequest(url: "http://127.0.0.1:\(endedPort)/specs?page=3"), timeout: .seconds(10))
        let body = try await response.body.collect(upTo: 1 << 20)
        XCTAssertEqual(String(buffer: body), #"{"number_of_pages": 3, "result": null}"#)
        await ended.kill()
    }
}
