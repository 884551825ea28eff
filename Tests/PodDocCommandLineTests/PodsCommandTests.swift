import Foundation
import Glibc
import XCTest

/// The pods commands, through the real binary: new, import, count, ls, search, show, export,
/// save --as, info, check.
final class PodsCommandTests: CommandLineTestCase {
    func testImportQueryAndExportTheSampleSpecs() throws {
        let created = try succeed("new", path("Specs.poddoc"), "--kind", "pods", "--json").json(NewShape.self)
        XCTAssertEqual(created.kind, "pods")
        XCTAssertEqual(created.format, "package")

        let imported = try succeed("import", path("Specs.poddoc"), "--from", Self.sampleSpecs, "--json").json(SpecsImportShape.self)
        XCTAssertEqual(imported.created, 300)
        XCTAssertTrue(imported.complete)

        XCTAssertEqual(try succeed("pods", "count", path("Specs.poddoc"), "--json").json(CountShape.self).count, 300)
        XCTAssertEqual(try succeed("pods", "count", path("Specs.poddoc"), "AFJSON", "--json").json(CountShape.self).count, 6)
        let listed = try succeed("pods", "ls", path("Specs.poddoc"), "AFJSONRPC", "--json").json(SpecListShape.self)
        XCTAssertEqual(listed.specs.map(\.version), ["0.3.0", "0.3.1", "0.4.0", "1.0.0", "2.0.0"])
        let found = try succeed("pods", "search", path("Specs.poddoc"), "json-rpc", "--json").json(SpecListShape.self)
        XCTAssertTrue(found.specs.contains { $0.name == "AFJSONRPCClient" }, "\(found.specs.map(\.name))")
        let shown = try succeed("pods", "show", path("Specs.poddoc"), "AFJSONRPCClient")
        XCTAssertTrue(shown.stdout.hasPrefix("AFJSONRPCClient 2.0.0\n"), shown.stdout)
        let original = try succeed("pods", "show", path("Specs.poddoc"), "AFJSONRPCClient", "0.3.0", "--json")
        let spec = try JSONSerialization.jsonObject(with: Data(original.stdout.utf8)) as? [String: Any]
        XCTAssertEqual(spec?["version"] as? String, "0.3.0")

        let csv = try succeed("export", path("Specs.poddoc"), path("specs.csv"), "--format", "csv", "--json").json(ExportShape.self)
        XCTAssertEqual(csv.specs, 300)
        XCTAssertEqual(try String(contentsOfFile: path("specs.csv"), encoding: .utf8).split(whereSeparator: \.isNewline).count, 301)
        try succeed("export", path("Specs.poddoc"), path("page.json"), "--format", "json")
        let page = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path("page.json")))) as? [String: Any]
        XCTAssertEqual((page?["result"] as? [Any])?.count, 300)
        try succeed("export", path("Specs.poddoc"), path("Specs"), "--format", "specs")
        XCTAssertTrue(FileManager.default.fileExists(atPath: path("Specs/AFJSONRPCClient/0.3.0/AFJSONRPCClient.podspec.json")))

        let archive = try succeed("export", path("Specs.poddoc"), path("Specs.poddoc.tar.zst"), "--format", "archive", "--json").json(
            ExportShape.self)
        XCTAssertEqual(archive.format, "tar.zst")
        let packageInfo = try succeed("info", path("Specs.poddoc"), "--json").json(InfoShape.self)
        let archiveInfo = try succeed("info", path("Specs.poddoc.tar.zst"), "--json").json(InfoShape.self)
        XCTAssertEqual(archiveInfo.counts, ["specs": 300])
        XCTAssertEqual(archiveInfo.format, "tar.zst")
        XCTAssertEqual(archiveInfo.storeHash, packageInfo.storeHash)
        XCTAssertNil(packageInfo.lock)
        XCTAssertNil(packageInfo.recovery)

        let check = try succeed("check", path("Specs.poddoc.tar.zst"), "--json").json(CheckShape.self)
        XCTAssertTrue(check.ok)
        XCTAssertEqual(check.storeHash, packageInfo.storeHash)
    }

    /// `pods search` looks at names as at summaries (CJK inside a name too), a name match
    /// first, as CocoaPods' own `pod search` does.
    func testSearchFindsNamesAndRanksThemAboveSummaries() throws {
        let doc = path("Names.poddoc")
        try succeed("new", doc, "--kind", "pods")
        let specs: [[String: Any]] = [
            ("RPCWrapper", "Wraps AFJSONRPCClient calls in promises"), ("AFJSONRPCClient", "JSON-RPC over HTTP"),
            ("cocoapods制作", "一个建立pod仓库的简单demo"),
        ].map { name, summary in
            [
                "name": name, "version": "1.0.0", "summary": summary, "homepage": "https://example.org/\(name)", "license": "MIT",
                "authors": ["A": "a@example.org"], "source": ["git": "https://example.org/x.git", "tag": "1.0.0"],
                "platforms": ["ios": "12.0"],
            ]
        }
        let page = path("names.json")
        try JSONSerialization.data(withJSONObject: ["number_of_pages": 1, "result": specs]).write(to: URL(fileURLWithPath: page))
        try succeed("import", doc, "--from", page)
        func names(_ words: String) throws -> [String] {
            try succeed("pods", "search", doc, words, "--json").json(SpecListShape.self).specs.map(\.name)
        }
        XCTAssertEqual(try names("AFJSONRPCClient"), ["AFJSONRPCClient", "RPCWrapper"], "the name first, then the summary")
        XCTAssertEqual(try names("afjsonrpc"), ["AFJSONRPCClient", "RPCWrapper"], "a prefix, any case")
        XCTAssertEqual(try names("制作"), ["cocoapods制作"])
        XCTAssertEqual(try names("rpcwrapper"), ["RPCWrapper"])
    }

    /// One spec file imports on its own, and a folder of loose spec files (as CocoaPods'
    /// own fixtures keep them) imports every one.
    func testSingleSpecFilesImportAloneAndFromAFolder() throws {
        func spec(_ name: String) -> Data {
            try! JSONSerialization.data(withJSONObject: [
                "name": name, "version": "2.1.0", "summary": "The \(name) pod", "homepage": "https://example.org/\(name)",
                "license": "MIT", "authors": ["A": "a@example.org"], "source": ["git": "https://example.org/x.git", "tag": "2.1.0"],
                "platforms": ["ios": "12.0"],
            ])
        }
        let loose = path("fixtures")
        try FileManager.default.createDirectory(atPath: loose, withIntermediateDirectories: true)
        for name in ["BananaLib", "OrangeFramework"] { try spec(name).write(to: URL(fileURLWithPath: loose + "/\(name).podspec.json")) }
        try Data("not a spec".utf8).write(to: URL(fileURLWithPath: loose + "/README.md"))

        let doc = path("Loose.poddoc")
        try succeed("new", doc, "--kind", "pods")
        let one = try succeed("import", doc, "--from", loose + "/BananaLib.podspec.json", "--json").json(SpecsImportShape.self)
        XCTAssertEqual(one.created, 1)
        XCTAssertTrue(one.complete)
        // --under is an outline's: refused on a pods document, not ignored.
        let placed = try fail(64, "import", doc, "--from", loose + "/BananaLib.podspec.json", "--under", "1")
        XCTAssertTrue(placed.stderr.contains("--under places an outline import"), placed.stderr)
        let folder = try succeed("import", doc, "--from", loose, "--json").json(SpecsImportShape.self)
        XCTAssertEqual(folder.created, 1, "OrangeFramework; BananaLib is there already")
        XCTAssertEqual(folder.skipped, 1, "README.md")
        XCTAssertEqual(try succeed("pods", "count", doc, "--json").json(CountShape.self).count, 2)
        // A spec in a file named otherwise is still a spec; an object that is neither says
        // what a page is.
        try spec("Kiwi").write(to: URL(fileURLWithPath: path("kiwi.json")))
        XCTAssertEqual(try succeed("import", doc, "--from", path("kiwi.json"), "--json").json(SpecsImportShape.self).created, 1)
        try Data(#"{"pods": []}"#.utf8).write(to: URL(fileURLWithPath: path("other.json")))
        let refused = try fail(65, "import", doc, "--from", path("other.json"))
        XCTAssertTrue(refused.stderr.contains("is not a page of specs"), refused.stderr)
    }

    /// A `specs` export writes every spec, even one whose name or version cannot be a file
    /// name as it is (escaped), and an import of the folder reads every one back.
    func testASpecsExportWritesEverySpecAndImportReadsThemBack() throws {
        let long = String(repeating: "L", count: 300)
        let specs: [[String: Any]] = [
            ["name": "Good", "version": "1.0"], ["name": ".", "version": "1.0"], ["name": "..", "version": "1.0"],
            ["name": "A\u{0}B", "version": "1.0"], ["name": long, "version": "1.0"], ["name": "V", "version": ".."],
        ]
        try JSONSerialization.data(withJSONObject: ["number_of_pages": 1, "result": specs]).write(
            to: URL(fileURLWithPath: path("odd.json")))
        let doc = path("Odd.poddoc")
        try succeed("new", doc, "--kind", "pods")
        try succeed("import", doc, "--from", path("odd.json"))
        let exported = try succeed("export", doc, path("Specs"), "--format", "specs").stdout
        XCTAssertTrue(exported.contains("(specs, 6 specs)"), exported)
        let copy = path("Copy.poddoc")
        try succeed("new", copy, "--kind", "pods")
        let imported = try succeed("import", copy, "--from", path("Specs")).stdout
        XCTAssertTrue(imported.hasPrefix("Imported 6 specs from"), imported)
        XCTAssertFalse(imported.contains("remark"), imported)
        try succeed("export", doc, path("a.json"), "--format", "json")
        try succeed("export", copy, path("b.json"), "--format", "json")
        XCTAssertEqual(
            try Data(contentsOf: URL(fileURLWithPath: path("a.json"))), try Data(contentsOf: URL(fileURLWithPath: path("b.json"))))
    }

    func testSaveAsConvertsBetweenPackageAndArchives() throws {
        try succeed("new", path("A.poddoc"), "--kind", "pods")
        try succeed("import", path("A.poddoc"), "--from", Self.sampleSpecs)
        let zip = try succeed("save", path("A.poddoc"), "--as", path("A.zip"), "--json").json(SaveShape.self)
        XCTAssertEqual(zip.format, "zip")
        try succeed("save", path("A.zip"), "--as", path("B.poddoc"))
        // A name that says no document's format is refused, whatever --format says.
        try fail(64, "save", path("B.poddoc"), "--as", path("C.bundle"), "--format", "tar.gz")
        try succeed("save", path("B.poddoc"), "--as", path("C.tar.gz"), "--format", "tar.gz")
        let hashes = try ["A.poddoc", "A.zip", "B.poddoc", "C.tar.gz"].map { try succeed("info", path($0), "--json").json(InfoShape.self) }
        XCTAssertEqual(hashes.map(\.format), ["package", "zip", "package", "tar.gz"])
        XCTAssertEqual(Set(hashes.map(\.storeHash)).count, 1, "every copy holds the same content")
        XCTAssertEqual(try succeed("pods", "count", path("C.tar.gz"), "--json").json(CountShape.self).count, 300)
        try fail(66, "save", path("A.poddoc"), "--as", path("A.zip"))
    }

    /// `serve` also serves a pods document (read-only, so it can be served while edited).
    func testServeADocument() throws {
        let doc = path("Served.poddoc")
        try succeed("new", doc, "--kind", "pods")
        try succeed("import", doc, "--from", Self.sampleSpecs)
        let (server, out, err) = try start(["serve", doc, "--port", "0", "--json"])
        defer { if server.isRunning { server.terminate() } }
        XCTAssertTrue(out.wait(for: "\n"), "serve printed its URL: \(err.current)")
        XCTAssertEqual(try RunResult(status: 0, stdout: out.current, stderr: "").json(ServeShape.self).specs, 300)
    }

    func testServeAndImportOverLoopback() throws {
        let (server, out, err) = try start(["serve", Self.sampleSpecs, "--port", "0", "--page-size", "50", "--json"])
        defer { if server.isRunning { server.terminate() } }
        XCTAssertTrue(out.wait(for: "\n"), "serve printed its URL: \(err.current)")
        let served = try RunResult(status: 0, stdout: out.current, stderr: "").json(ServeShape.self)
        XCTAssertEqual(served.specs, 300)
        XCTAssertTrue(served.url.hasPrefix("http://127.0.0.1:"))

        try succeed("new", path("Remote.poddoc.tar.zst"), "--kind", "pods")
        let imported = try succeed("import", path("Remote.poddoc.tar.zst"), "--from", served.url, "--json").json(SpecsImportShape.self)
        XCTAssertEqual(imported.created, 300)
        XCTAssertEqual(imported.pages, 6)
        let resumed = try succeed("import", path("Remote.poddoc.tar.zst"), "--from", served.url, "--resume", "--json").json(
            SpecsImportShape.self)
        XCTAssertEqual(resumed.created, 0, "a finished import has nothing left to do")
        XCTAssertEqual(try succeed("pods", "count", path("Remote.poddoc.tar.zst"), "--json").json(CountShape.self).count, 300)

        server.terminate()
        server.waitUntilExit()
        XCTAssertEqual(server.terminationStatus, 143, "SIGTERM stops the server cleanly, with the status the table gives: \(err.current)")
        XCTAssertTrue(err.current.contains("Stopped serving."), err.current)
    }

    /// SIGHUP stops a server with 129; a source that does not exist is a missing document (66).
    func testServeStopsOnSIGHUPAndNamesAMissingSource() throws {
        let (server, out, err) = try start(["serve", Self.sampleSpecs, "--port", "0", "--json"])
        defer { if server.isRunning { server.terminate() } }
        XCTAssertTrue(out.wait(for: "\n"), "serve printed its URL: \(err.current)")
        kill(server.processIdentifier, SIGHUP)
        server.waitUntilExit()
        XCTAssertEqual(server.terminationStatus, 129, err.current)
        let missing = try fail(66, "serve", path("nosuch"))
        XCTAssertTrue(missing.stderr.contains("nosuch does not exist"), missing.stderr)
    }
}
