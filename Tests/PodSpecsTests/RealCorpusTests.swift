import Foundation
import PodDocStore
import PodDocTesting
import XCTest

@testable import PodSpecs
@testable import PodSpecsServer

/// The real 2014 corpus (16,051 specs), when `../shared/data` is there: imported through
/// poddoc's server and through a server with the reference quirks, over loopback, then
/// exported back and compared spec by spec.
final class RealCorpusTests: SpecsTestCase {
    private typealias E = PodSpecsSchema.PodSpecEntity

    func testTheRealCorpusThroughBothServersAndBack() async throws {
        let specsFolder = try SpecFixtures.corpus2014()
        let catalog = try FolderSpecsCatalog(folder: SpecsFolder(url: specsFolder))
        let count = try await catalog.count()
        XCTAssertEqual(count, 16_051)
        XCTAssertEqual(catalog.rejected, [])
        XCTAssertEqual(
            Set(catalog.skipped.map { $0.replacingOccurrences(of: specsFolder.path + "/", with: "") }),
            [
                "AWSS3/0.0.1/LICENSE", "GTFoundation/0.0.7/.gitkeep", "RMHelpfulLabel/1.0.0/LICENSE",
                "TMTumblrSDK/CHANGELOG.md", "Tesseract-wrapper/0.0.2",
            ])

        // Through poddoc's own server.
        let server = SpecsServer(catalog: catalog)
        try await server.start()
        let store = try makeStore("via-server")
        let summary = try await SpecsImporter(root: ObjectContext(store: store)).importService(try client(server.baseURL!))
        await server.stop()
        XCTAssertEqual(summary.created, 16_051)
        XCTAssertEqual(try savedKeys(store).count, 16_051)
        try checkShapes(store)

        // Exported back, every spec is the input spec.
        let exported = folder.appending(path: "export.json")
        try SpecsExporter(store: store).exportPageFile(to: exported)
        let page = try JSONSerialization.jsonObject(with: Data(contentsOf: exported)) as! [String: Any]
        let specs = page["result"] as! [NSDictionary]
        XCTAssertEqual(specs.count, 16_051)
        for spec in specs {
            let name = spec["name"] as! String
            let version = spec["version"] as! String
            let original =
                try JSONSerialization.jsonObject(
                    with: Data(contentsOf: specsFolder.appending(path: "\(name)/\(version)/\(name).podspec.json"))) as! NSDictionary
            XCTAssertEqual(spec, original, "\(name)/\(version)")
        }

        // Through a server with the reference quirks.
        let texts = try await catalog.json(in: 0..<16_051)
        let quirky = ReferenceSpecsServer(specs: texts)
        let port = try await quirky.start()
        let second = try makeStore("via-quirks")
        let quirkySummary = try await SpecsImporter(root: ObjectContext(store: second))
            .importService(try client(URL(string: "http://127.0.0.1:\(port)/specs")!))
        await quirky.kill()
        XCTAssertEqual(quirkySummary.created, 16_051)
        XCTAssertEqual(quirkySummary.repeated, (16_051 + 19) / 20 - 1)
        XCTAssertEqual(try savedKeys(second), try savedKeys(store))
    }

    func testTheRealCorpusFolderCountsItsStrayFiles() async throws {
        let specsFolder = try SpecFixtures.corpus2014()
        let store = try makeStore()
        let summary = try await SpecsImporter(root: ObjectContext(store: store)).importFolder(SpecsFolder(url: specsFolder))
        XCTAssertEqual(summary.created, 16_051)
        XCTAssertEqual(summary.rejected, [])
        XCTAssertEqual(summary.skipped.count, 5, "\(summary.skipped)")
        XCTAssertTrue(summary.isComplete)
        XCTAssertEqual(Set(try savedKeys(store)).count, 16_051)
    }

    /// All three authors shapes and both license shapes, normalised.
    private func checkShapes(_ store: PersistentStore) throws {
        var authorShapes: [String: Int] = [:]
        var licenseShapes: [String: Int] = [:]
        let root = ObjectContext(store: store)
        try root.performAndWait { ctx in
            for object in try ctx.fetch(FetchRequest(E.name, batchSize: 1000)) {
                let spec = try PodSpec(object: object)
                let original = try JSONSerialization.jsonObject(with: Data(spec.json.text.utf8)) as! [String: Any]
                switch original["authors"] {
                case let authors as [String: Any]:
                    authorShapes["object", default: 0] += 1
                    XCTAssertEqual(Set(spec.authors.map(\.name)), Set(authors.keys), spec.key)
                case let author as String:
                    authorShapes["string", default: 0] += 1
                    XCTAssertEqual(spec.authors, [PodAuthor(name: author)], spec.key)
                case is [Any]:
                    authorShapes["array", default: 0] += 1
                    XCTAssertFalse(spec.authors.isEmpty, spec.key)
                default:
                    XCTFail("\(spec.key): unexpected authors")
                }
                switch original["license"] {
                case let license as String:
                    licenseShapes["string", default: 0] += 1
                    XCTAssertEqual(spec.license, PodLicense(type: license), spec.key)
                case let license as [String: Any]:
                    licenseShapes["object", default: 0] += 1
                    XCTAssertEqual(spec.license?.type, license["type"] as? String, spec.key)
                default:
                    XCTFail("\(spec.key): unexpected license")
                }
            }
        }
        XCTAssertEqual(authorShapes, ["object": 14_647, "string": 1_303, "array": 101])
        XCTAssertEqual(licenseShapes, ["object": 8_126, "string": 7_925])
    }
}
