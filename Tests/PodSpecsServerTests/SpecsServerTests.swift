import AsyncHTTPClient
import Foundation
import NIOCore
import PodDocStore
import PodDocTesting
import PodSpecs
import PodSpecsServer
import XCTest

/// The specs service on its own, asked over real HTTP on loopback with a plain HTTP client:
/// its pages, its errors, and what it serves from a folder, a page file and a store.
final class SpecsServerTests: XCTestCase {
    /// `Tests/Fixtures/specs`: 83 good specs, in the 2014 layout and the sharded one.
    private static let fixtures = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().appending(path: "Fixtures/specs")
    private static let goodSpecs = 83

    private var servers: [SpecsServer] = []

    override func tearDown() async throws {
        for server in servers { await server.stop() }
    }

    private func serve(_ catalog: any SpecsCatalog, pageSize: Int = 20) async throws -> (SpecsServer, Int) {
        let server = SpecsServer(catalog: catalog, configuration: .init(pageSize: pageSize))
        servers.append(server)
        return (server, try await server.start())
    }

    private func get(_ port: Int, _ query: String, timeout: TimeAmount = .seconds(10)) async throws -> (status: Int, body: String) {
        let response = try await HTTPClient.shared.execute(
            HTTPClientRequest(url: "http://127.0.0.1:\(port)/specs?\(query)"), timeout: timeout)
        return (Int(response.status.code), String(buffer: try await response.body.collect(upTo: 16 << 20)))
    }

    /// Every page of a server, as `number_of_pages` and the specs of each page.
    private func pages(_ port: Int) async throws -> (numberOfPages: Int, pages: [[NSDictionary]]) {
        var pages: [[NSDictionary]] = []
        var numberOfPages = 0
        repeat {
            let (status, body) = try await get(port, "page=\(pages.count)")
            XCTAssertEqual(status, 200, body)
            let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(body.utf8)) as? NSDictionary)
            numberOfPages = try XCTUnwrap(object["number_of_pages"] as? Int)
            pages.append(try XCTUnwrap(object["result"] as? [NSDictionary], "page \(pages.count): \(body.prefix(200))"))
        } while pages.count < numberOfPages
        return (numberOfPages, pages)
    }

    private func dictionaries(_ texts: [String]) throws -> [NSDictionary] {
        try texts.map { try XCTUnwrap(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? NSDictionary) }
    }

    func testAFolderIsServedInPagesOfThePageSizeInListOrder() async throws {
        let catalog = try FolderSpecsCatalog(folder: SpecsFolder(url: Self.fixtures.appending(path: "Specs-sharded")))
        let (_, port) = try await serve(catalog, pageSize: 7)
        let (numberOfPages, pages) = try await pages(port)
        XCTAssertEqual(numberOfPages, (Self.goodSpecs + 6) / 7)
        XCTAssertEqual(pages.dropLast().map(\.count), Array(repeating: 7, count: numberOfPages - 1), "every page but the last is full")
        XCTAssertEqual(pages.last?.count, Self.goodSpecs - 7 * (numberOfPages - 1))
        let listed = try await catalog.json(in: 0..<Self.goodSpecs)
        XCTAssertEqual(pages.flatMap { $0 }, try dictionaries(listed))
    }

    func testBothLayoutsOfAFolderServeTheSameSpecs() async throws {
        let flat = try FolderSpecsCatalog(folder: SpecsFolder(url: Self.fixtures.appending(path: "Specs-2014")))
        XCTAssertEqual(flat.rejected.count, 3, "the three malformed spec files are left out")
        XCTAssertEqual(flat.skipped.count, 4, "and the four stray files")
        let sharded = try FolderSpecsCatalog(folder: SpecsFolder(url: Self.fixtures.appending(path: "Specs-sharded")))
        let (_, flatPort) = try await serve(flat)
        let (_, shardedPort) = try await serve(sharded)
        let fromFlat = try await pages(flatPort).pages.flatMap { $0 }
        XCTAssertEqual(fromFlat.count, Self.goodSpecs)
        let fromSharded = try await pages(shardedPort).pages.flatMap { $0 }
        XCTAssertEqual(fromFlat, fromSharded)
    }

    func testAStoreIsServedAsTheFolderItWasImportedFrom() async throws {
        let folder = try makeTemporaryFolder("poddoc-specs-server-tests")
        let store = try PersistentStore(url: folder.appending(path: "persistentStore"), model: PodSpecsSchema.makeModel())
        let source = SpecsFolder(url: Self.fixtures.appending(path: "Specs-sharded"))
        try await SpecsImporter(root: ObjectContext(store: store)).importFolder(source)
        let (_, storePort) = try await serve(try StoreSpecsCatalog(store: store), pageSize: 9)
        let (_, folderPort) = try await serve(try FolderSpecsCatalog(folder: source), pageSize: 9)
        let fromStore = try await pages(storePort)
        XCTAssertEqual(fromStore.numberOfPages, (Self.goodSpecs + 8) / 9)
        let fromFolder = try await pages(folderPort).pages.flatMap { $0 }
        XCTAssertEqual(fromStore.pages.flatMap { $0 }, fromFolder)
    }

    func testBadPageNumbersAreErrorsAndPagesPastTheEndAreNull() async throws {
        let (server, port) = try await serve(
            try FolderSpecsCatalog(folder: SpecsFolder(url: Self.fixtures.appending(path: "Specs-sharded"))))
        for query in ["page=-1", "page=abc", "", "page=99999999999999999999", "page=1.5"] {
            let (status, body) = try await get(port, query)
            XCTAssertEqual(status, 400, "\(query): \(body)")
            XCTAssertTrue(body.hasPrefix("{\"error\":\"") && body.contains("page"), body)
        }
        let (status, body) = try await get(port, "page=999")
        XCTAssertEqual(status, 200)
        let past = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(body.utf8)) as? NSDictionary)
        XCTAssertTrue(past["result"] is NSNull, body)
        XCTAssertEqual(past["number_of_pages"] as? Int, (Self.goodSpecs + 19) / 20)
        await server.stop()
        XCTAssertNil(server.port, "a stopped server has no port")
        do {
            // (AsyncHTTPClient tries a refused connection again until the deadline.)
            _ = try await get(port, "page=0", timeout: .seconds(1))
            XCTFail("a stopped server still answered")
        } catch {}
    }

    func testAnAddressInUseIsRefusedNamingIt() async throws {
        let catalog = try FolderSpecsCatalog(folder: SpecsFolder(url: Self.fixtures.appending(path: "Specs-sharded")))
        let (_, port) = try await serve(catalog)
        let second = SpecsServer(catalog: catalog, configuration: .init(port: port))
        servers.append(second)
        do {
            try await second.start()
            XCTFail("two servers bound one port")
        } catch let error as PodSpecsError {
            XCTAssertEqual(error.code, .server)
            XCTAssertTrue(error.message.contains("127.0.0.1:\(port)"), error.message)
        }
    }
}
