import Foundation
import GRDB
import Synchronization
import XCTest

@testable import PodDocStore
@testable import PodSpecs

/// Listing, searching, showing and counting specs; exporting them as a tree and as CSV.
final class QueryAndExportTests: SpecsTestCase {
    private func importedStore() async throws -> PersistentStore {
        let store = try makeStore()
        try await SpecsImporter(root: ObjectContext(store: store)).importFolder(SpecsFolder(url: SpecFixtures.flat))
        return store
    }

    /// The statements a store ran, as SQLite expanded them.
    private final class StatementLog: Sendable {
        private let statements = Mutex<[String]>([])
        func record(_ sql: String) { statements.withLock { $0.append(sql) } }
        func take() -> [String] {
            statements.withLock { list in
                let taken = list
                list = []
                return taken
            }
        }
    }

    func testListingsAndLookupsByNameReadTheOneFoldedNameIndex() async throws {
        try await importedStore().close()
        let log = StatementLog()
        var options = PersistentStore.Options()
        options.traceSQL = { log.record($0) }
        let store = try PersistentStore(url: folder.appending(path: "persistentStore"), model: PodSpecsSchema.makeModel(), options: options)
        let indexes = try store.unsafeRead {
            try String.fetchAll(
                $0, sql: #"SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'PodSpec' AND sql IS NOT NULL ORDER BY name"#)
        }
        XCTAssertEqual(indexes, ["PodSpec_key", "PodSpec_name_folded"], "one index on the name, folded")
        let context = ObjectContext(store: store)
        _ = log.take()
        try context.performAndWait { ctx in
            for run in [
                { _ = try SpecsQueries.list(in: ctx, limit: 20) }, { _ = try SpecsQueries.list(in: ctx, namePrefix: "af", limit: 20) },
                { _ = try SpecsQueries.spec(named: "AFNetworking", in: ctx) },
            ] {
                try run()
                let select = try XCTUnwrap(log.take().last { $0.hasPrefix("SELECT") })
                let plan = try store.unsafeRead { try Row.fetchAll($0, sql: "EXPLAIN QUERY PLAN " + select).map { $0["detail"] as String } }
                    .joined(separator: "; ")
                XCTAssertTrue(plan.contains("PodSpec_name_folded"), "\(select): \(plan)")
                XCTAssertFalse(plan.contains("SCAN PodSpec") && !plan.contains("USING INDEX"), "no full scan: \(plan)")
            }
        }
    }

    func testListIsByNameThenVersionOrder() async throws {
        let store = try await importedStore()
        let context = ObjectContext(store: store)
        try context.performAndWait { ctx in
            let afnetworking = try SpecsQueries.list(in: ctx, namePrefix: "afnet").map(\.version)
            XCTAssertEqual(afnetworking.count, try SpecsQueries.count(in: ctx, namePrefix: "AFNetworking"))
            XCTAssertEqual(afnetworking, afnetworking.sorted(by: VersionOrder.areInIncreasingOrder))
            XCTAssertLessThan(afnetworking.firstIndex(of: "1.0RC1")!, afnetworking.firstIndex(of: "1.0")!, "pre-releases first")
            XCTAssertEqual(Array(afnetworking.prefix(7)), ["0.5.1", "0.7.0", "0.9.0", "0.9.1", "0.9.2", "0.10.0", "0.10.1"])
            XCTAssertLessThan(afnetworking.firstIndex(of: "2.0.0-RC3")!, afnetworking.firstIndex(of: "2.0.0")!)
            let all = try SpecsQueries.list(in: ctx)
            XCTAssertEqual(all.count, SpecFixtures.goodSpecs)
            let byFoldedName = all.map(\.name).sorted { a, b in
                let folded = Array(TextFolding.fold(a).utf8)
                let other = Array(TextFolding.fold(b).utf8)
                return folded != other ? folded.lexicographicallyPrecedes(other) : Array(a.utf8).lexicographicallyPrecedes(Array(b.utf8))
            }
            XCTAssertEqual(all.map(\.name), byFoldedName, "whatever the case, then by bytes")
            XCTAssertNotEqual(
                byFoldedName, all.map(\.name).sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) },
                "the fixtures hold names whose case changes their order")
            XCTAssertEqual(try SpecsQueries.list(in: ctx, limit: 5, offset: 2).map(\.key), all[2..<7].map(\.key))
        }
    }

    func testShowAndFullTextSearch() async throws {
        let store = try await importedStore()
        let context = ObjectContext(store: store)
        try context.performAndWait { ctx in
            let spec = try XCTUnwrap(try SpecsQueries.spec(named: "500px-iOS-api", version: "1.0.2", in: ctx))
            XCTAssertEqual(spec.summary, "A simple SDK for accessing the 500px API.")
            XCTAssertEqual(spec.authors, [PodAuthor(name: "Ash Furrow", email: "ash@ashfurrow.com")])
            XCTAssertEqual(spec.platforms, [PodPlatform(name: "ios", deploymentTarget: "5.0")])
            XCTAssertEqual(spec.requiresARC, true)
            let original = try PodSpecParser.parseSpec(
                Data(contentsOf: SpecFixtures.flat.appending(path: "500px-iOS-api/1.0.2/500px-iOS-api.podspec.json")), location: "file")
            XCTAssertEqual(spec, original, "every field survives the store")
            XCTAssertEqual(
                try SpecsQueries.spec(named: "AFNetworking", in: ctx)?.version,
                try SpecsQueries.list(in: ctx, namePrefix: "AFNetworking").last?.version)
            XCTAssertNil(try SpecsQueries.spec(named: "Nothing", in: ctx))

            let hits = try SpecsQueries.search("500PX api", in: store).map { try PodSpec(object: ctx.object(with: $0)) }
            XCTAssertFalse(hits.isEmpty)
            XCTAssertTrue(
                hits.allSatisfy {
                    ($0.summary ?? "").lowercased().contains("500px") || ($0.description ?? "").lowercased().contains("500px")
                })
            XCTAssertEqual(try SpecsQueries.search("netw", in: store).count, try SpecsQueries.search("networking", in: store).count)
            XCTAssertEqual(try SpecsQueries.search("\" OR * NEAR(", in: store), [], "operators are taken literally")
            XCTAssertEqual(try SpecsQueries.search("  ", in: store), [])
        }
    }

    func testTreeExportReimportsToTheSameSpecs() async throws {
        let store = try await importedStore()
        let tree = folder.appending(path: "Specs")
        let summary = try SpecsExporter(store: store).exportTree(to: tree)
        XCTAssertEqual(summary.files, SpecFixtures.goodSpecs)
        let original = try Data(contentsOf: SpecFixtures.flat.appending(path: "AFNetworking/1.0/AFNetworking.podspec.json"))
        XCTAssertEqual(
            try Data(contentsOf: tree.appending(path: "AFNetworking/1.0/AFNetworking.podspec.json")), original,
            "the original file, byte for byte")
        let copy = try makeStore("copy")
        let reimport = try await SpecsImporter(root: ObjectContext(store: copy)).importFolder(SpecsFolder(url: tree))
        XCTAssertEqual(reimport.created, SpecFixtures.goodSpecs)
        XCTAssertEqual(reimport.skipped, [])
        XCTAssertEqual(try savedKeys(copy), try savedKeys(store))
    }

    func testTreeExportEscapesNamesThatAreNotFileNamesAndReadsThemBack() async throws {
        let store = try makeStore()
        let long = String(repeating: "Ł", count: 150)
        let page = try PodSpecParser.parsePage(
            Data(
                #"{"number_of_pages": 1, "result": [{"name": "..", "version": "1.0"}, {"name": ".", "version": ".."}, {"name": "A\u0000B", "version": "1.0"}, {"name": "a%c", "version": "1.0"}, {"name": "\#(long)", "version": "1.0"}, {"name": "\#(long)x", "version": "1.0"}, {"name": "Ok", "version": "1.0"}]}"#
                    .utf8),
            location: "page")
        try await SpecsImporter(root: ObjectContext(store: store)).importPages([page].async, source: "test")
        let tree = folder.appending(path: "Specs")
        let summary = try SpecsExporter(store: store).exportTree(to: tree)
        XCTAssertEqual(summary.specs, 7)
        XCTAssertEqual(summary.files, 7)
        for written in [
            "%2E%2E/1.0/%2E%2E.podspec.json", "%2E/%2E%2E/%2E.podspec.json", "A%00B/1.0/A%00B.podspec.json", "a%25c/1.0/a%25c.podspec.json",
        ] {
            XCTAssertTrue(FileManager.default.fileExists(atPath: tree.appending(path: written).path), written)
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: tree.path)
        XCTAssertEqual(names.filter { $0.contains("%~") }.count, 2, "two long names, two folders: \(names)")
        XCTAssertTrue(names.allSatisfy { $0.utf8.count <= 200 }, "\(names)")
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.appending(path: "1.0").path))

        let copy = try makeStore("copy")
        let reimport = try await SpecsImporter(root: ObjectContext(store: copy)).importFolder(SpecsFolder(url: tree))
        XCTAssertEqual(reimport.created, 7)
        XCTAssertEqual(reimport.warnings, [], "escaped folders match their specs")
        XCTAssertEqual(try savedKeys(copy), try savedKeys(store))
    }

    func testCSVExport() async throws {
        let store = try makeStore()
        let page = try PodSpecParser.parsePage(
            Data(
                #"{"number_of_pages": 1, "result": [{"name": "A", "version": "1.0", "summary": "Quotes \" and, commas", "authors": {"Ann": "ann@example.com", "Bob": null}, "license": "MIT", "platforms": {"ios": "7.0", "osx": null}, "source": {"git": "https://x/a.git", "tag": "1.0"}, "requires_arc": true}]}"#
                    .utf8), location: "page")
        try await SpecsImporter(root: ObjectContext(store: store)).importPages([page].async, source: "test")
        let file = folder.appending(path: "specs.csv")
        let summary = try SpecsExporter(store: store).exportCSV(to: file)
        XCTAssertEqual(summary.specs, 1)
        let text = try String(contentsOf: file, encoding: .utf8)
        XCTAssertEqual(
            text,
            SpecsExporter.csvColumns.joined(separator: ",") + "\r\n"
                + "A/1.0,A,1.0,\"Quotes \"\" and, commas\",,MIT,Ann <ann@example.com>; Bob,git,https://x/a.git,1.0,,,ios 7.0; osx,false,true\r\n"
        )
    }

    func testExportToAnUnwritablePlaceIsAClearErrorAndLeavesNothing() async throws {
        let store = try await importedStore()
        let target = folder.appending(path: "missing/specs.csv")
        XCTAssertThrowsError(try SpecsExporter(store: store).exportCSV(to: target)) { error in
            XCTAssertEqual((error as? PodSpecsError)?.code, .fileSystem)
            XCTAssertTrue("\(error)".contains(target.path), "\(error)")
        }
    }
}
