import Foundation
import GRDB
import XCTest

@testable import PodDocStore
@testable import PodSpecs

/// Importing `Specs/` folders (both layouts) and page files.
final class LocalImportTests: SpecsTestCase {
    func testFolderIn2014LayoutImportsSpecsAndCountsTheRest() async throws {
        let store = try makeStore()
        let importer = SpecsImporter(root: ObjectContext(store: store), options: .init(specsPerSave: 20))
        let summary = try await importer.importFolder(SpecsFolder(url: SpecFixtures.flat, filesPerPage: 10))
        XCTAssertEqual(summary.created, SpecFixtures.goodSpecs)
        XCTAssertEqual(summary.updated, 0)
        XCTAssertEqual(summary.rejected.count, SpecFixtures.malformedSpecs, "\(summary.rejected)")
        XCTAssertEqual(
            Set(summary.rejected.map { URL(fileURLWithPath: $0.location).lastPathComponent }),
            ["Broken.podspec.json", "NoName.podspec.json", "BadText.podspec.json"])
        XCTAssertTrue(summary.rejected.allSatisfy { $0.location.hasPrefix(SpecFixtures.flat.path) })
        XCTAssertEqual(
            Set(summary.skipped.map { $0.replacingOccurrences(of: SpecFixtures.flat.path + "/", with: "") }),
            ["AWSS3/0.0.1/LICENSE", "GTFoundation/0.0.7/.gitkeep", "TMTumblrSDK/CHANGELOG.md", "Tesseract-wrapper/0.0.2"])
        XCTAssertTrue(summary.isComplete)
        XCTAssertEqual(try savedKeys(store).count, SpecFixtures.goodSpecs)
        let checkpoint = try await importer.checkpoint(for: SpecsFolder(url: SpecFixtures.flat).sourceIdentifier)
        XCTAssertEqual(checkpoint?.isComplete, true)
        XCTAssertEqual(checkpoint?.lastCompletedPage, checkpoint.map { $0.numberOfPages - 1 })
    }

    func testShardedLayoutGivesTheSameSpecs() async throws {
        let flatStore = try makeStore("flat")
        let shardedStore = try makeStore("sharded")
        try await SpecsImporter(root: ObjectContext(store: flatStore)).importFolder(SpecsFolder(url: SpecFixtures.flat))
        let summary = try await SpecsImporter(root: ObjectContext(store: shardedStore)).importFolder(SpecsFolder(url: SpecFixtures.sharded))
        XCTAssertEqual(summary.created, SpecFixtures.goodSpecs)
        XCTAssertEqual(summary.skipped, [])
        XCTAssertEqual(try savedKeys(shardedStore), try savedKeys(flatStore))
        XCTAssertTrue(SpecsFolder.isSpecPath("a/b/c/Name/1.0/Name.podspec.json"))
        XCTAssertTrue(SpecsFolder.isSpecPath("Name.podspec.json"), "a loose spec file")
        XCTAssertFalse(SpecsFolder.isSpecPath("Name/.podspec.json"))
        XCTAssertFalse(SpecsFolder.isSpecPath("Name/1.0/LICENSE"))
        XCTAssertEqual(SpecsFolder.layoutFolders("a/b/Name/1.0/Name.podspec.json"), ["Name", "1.0"])
        XCTAssertNil(SpecsFolder.layoutFolders("Name/1.0/Other.podspec.json"), "not the layout: its folders are not checked")
        XCTAssertNil(SpecsFolder.layoutFolders("fixtures/Name.podspec.json"))
    }

    func testReimportUpdatesInPlaceWithoutDuplicates() async throws {
        let store = try makeStore()
        let importer = SpecsImporter(root: ObjectContext(store: store))
        let folder = SpecsFolder(url: SpecFixtures.flat)
        try await importer.importFolder(folder)
        let rows = { try store.unsafeRead { try Row.fetchAll($0, sql: #"SELECT id, "_version", summary FROM "PodSpec" ORDER BY key"#) } }
        let before = try rows()
        let files = { () -> [Data?] in
            let url = try XCTUnwrap(store.url)
            return [url, URL(fileURLWithPath: url.path + "-wal")].map { FileManager.default.contents(atPath: $0.path) }
        }
        let filesBefore = try files()
        let again = try await importer.importFolder(folder)
        XCTAssertEqual(again.created, 0)
        XCTAssertEqual(again.updated, 0, "the same specs are not updates")
        XCTAssertEqual(again.unchanged, SpecFixtures.goodSpecs)
        XCTAssertEqual(again.specs, SpecFixtures.goodSpecs)
        XCTAssertEqual(try rows(), before, "same ids, versions not bumped")
        XCTAssertEqual(try files(), filesBefore, "nothing written: the store and its -wal are byte for byte the same")
        // Resuming a finished import has nothing left to do.
        let resumed = try await importer.importFolder(folder, resume: true)
        XCTAssertEqual(resumed.pages, 0)
        XCTAssertTrue(resumed.isComplete)
    }

    func testPageFileImport() async throws {
        let store = try makeStore()
        let summary = try await SpecsImporter(root: ObjectContext(store: store)).importPageFile(SpecsPageFile(url: SpecFixtures.samplePage))
        XCTAssertEqual(summary.created, 300)
        XCTAssertEqual(summary.pages, 1)
        XCTAssertEqual(try savedKeys(store).count, 300)
    }

    func testAMalformedPageFileImportsNothingAndSaysWhy() async throws {
        let store = try makeStore()
        let file = folder.appending(path: "page.json")
        try Data(#"{"number_of_pages": 1, "result": [{"name": "A", "version": "1"}, {"#.utf8).write(to: file)
        do {
            try await SpecsImporter(root: ObjectContext(store: store)).importPageFile(SpecsPageFile(url: file))
            XCTFail("a malformed page file imported")
        } catch let error as PodSpecsError {
            XCTAssertEqual(error.code, .malformedJSON)
            XCTAssertTrue(error.message.contains(file.path), error.message)
        }
        XCTAssertEqual(try savedKeys(store), [])
    }

    func testAMissingFolderIsAClearError() async throws {
        let store = try makeStore()
        let missing = folder.appending(path: "nope")
        do {
            try await SpecsImporter(root: ObjectContext(store: store)).importFolder(SpecsFolder(url: missing))
            XCTFail("a missing folder imported")
        } catch let error as PodSpecsError {
            XCTAssertEqual(error.code, .fileSystem)
            XCTAssertTrue(error.message.contains(missing.path), error.message)
        }
    }
}
