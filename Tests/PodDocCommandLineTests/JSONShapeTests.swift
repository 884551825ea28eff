import Foundation
import XCTest

/// docs/CLI.md's `--json` shapes against what the binary prints: every key a command prints,
/// at every depth, is one its row of the table names, and the values have the documented
/// types.
final class JSONShapeTests: CommandLineTestCase {
    /// The keys `command`'s row of CLI.md's shape table names, at every depth.
    private func documentedKeys(_ command: String) throws -> Set<String> {
        let table = try String(contentsOf: Self.repository.appending(path: "docs/CLI.md"), encoding: .utf8)
        let row = try XCTUnwrap(
            table.split(separator: "\n").first(where: { $0.hasPrefix("| `\(command)` |") }), "CLI.md documents a shape for \(command)")
        let cells = row.split(separator: "|", omittingEmptySubsequences: true)
        XCTAssertGreaterThanOrEqual(cells.count, 2, "\(command)'s row has a shape")
        let shape = cells[1].split(separator: "`").dropFirst().first.map(String.init) ?? ""
        var keys: Set<String> = []
        var rest = Substring(shape)
        while let open = rest.firstIndex(of: "\"") {
            let afterOpen = rest.index(after: open)
            guard let close = rest[afterOpen...].firstIndex(of: "\"") else { break }
            keys.insert(String(rest[afterOpen..<close]))
            rest = rest[rest.index(after: close)...]
        }
        return keys
    }

    /// Every key of `json`, at every depth.
    private func keys(of json: Any) -> Set<String> {
        switch json {
        case let object as [String: Any]: return Set(object.keys).union(object.values.flatMap { keys(of: $0) })
        case let array as [Any]: return Set(array.flatMap { keys(of: $0) })
        default: return []
        }
    }

    private func object(_ result: RunResult) throws -> [String: Any] {
        let value = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8))
        return try XCTUnwrap(value as? [String: Any], result.stdout)
    }

    private func assertDocumented(_ command: String, _ result: RunResult, file: StaticString = #filePath, line: UInt = #line) throws {
        let printed = keys(of: try object(result))
        let documented = try documentedKeys(command)
        XCTAssertEqual(printed.subtracting(documented), [], "\(command) prints keys CLI.md does not name", file: file, line: line)
    }

    func testVersionsNamesTheUserAndTheProgramApart() throws {
        let doc = try makeOutline("Notes.poddoc", holding: "one")
        let result = try succeed("versions", doc, "--json")
        try assertDocumented("versions", result)
        let entry = try XCTUnwrap((try object(result)["versions"] as? [[String: Any]])?.first)
        let writer = try XCTUnwrap(entry["writer"] as? String)
        let user = try XCTUnwrap(entry["user"] as? String)
        let program = try XCTUnwrap(entry["program"] as? String)
        XCTAssertEqual("\(user), \(program)", writer)
        XCTAssertTrue(program.hasPrefix("poddoc "), program)
    }

    func testMergeConflictsGiveTheirValuesAsJSONValues() throws {
        let mine = try makeOutline("Notes.poddoc", holding: "Milk")
        let theirs = path("Laptop.poddoc")
        try succeed("save", mine, "--as", theirs)
        try succeed("outline", "rename", mine, "1", "Soy milk")
        try succeed("outline", "rename", theirs, "1", "Oat milk")
        let result = try fail(75, "merge", mine, theirs, "--json")
        try assertDocumented("merge", result)
        let conflict = try XCTUnwrap((try object(result)["conflicts"] as? [[String: Any]])?.first)
        let properties = try XCTUnwrap(conflict["properties"] as? [String])
        let values = try XCTUnwrap(conflict["mine"] as? [Any])
        let theirsValues = try XCTUnwrap(conflict["theirs"] as? [Any])
        let title = try XCTUnwrap(properties.firstIndex(of: "title"))
        XCTAssertEqual(values[title] as? String, "Soy milk", "a text value is the text, not its JSON")
        XCTAssertEqual(theirsValues[title] as? String, "Oat milk")
        // The text still quotes them.
        XCTAssertTrue(try run(["merge", mine, theirs]).stdout.contains(#"title: mine "Soy milk", theirs "Oat milk""#))
    }

    func testExportsGiveTheBytesTheyWrote() throws {
        let doc = path("Specs.poddoc")
        try succeed("new", doc, "--kind", "pods")
        try succeed("import", doc, "--from", Self.sampleSpecs)
        for (output, format) in [("Specs", "specs"), ("specs.csv", "csv"), ("page.json", "json")] {
            let result = try succeed("export", doc, path(output), "--format", format, "--json")
            try assertDocumented("export", result)
            let bytes = try XCTUnwrap(try object(result)["bytes"] as? Int, "\(format): \(result.stdout)")
            var onDisk = 0
            if let walker = FileManager.default.enumerator(atPath: path(output)) {
                while let file = walker.nextObject() as? String {
                    var isFolder: ObjCBool = false
                    if FileManager.default.fileExists(atPath: path(output) + "/" + file, isDirectory: &isFolder), !isFolder.boolValue {
                        onDisk += (try FileManager.default.attributesOfItem(atPath: path(output) + "/" + file)[.size] as? Int) ?? 0
                    }
                }
            }
            if onDisk == 0 { onDisk = (try FileManager.default.attributesOfItem(atPath: path(output))[.size] as? Int) ?? 0 }
            XCTAssertEqual(bytes, onDisk, format)
        }
    }

    func testTheCrashTestsReportIsTheDocumentedShape() throws {
        let result = try succeed("crash-test", "--cycles", "2", "--work-folder", path("crash"), "--json")
        try assertDocumented("crash-test", result)
        let report = try object(result)
        XCTAssertEqual(report["cycles"] as? Int, 2)
        XCTAssertEqual(report["failures"] as? [String], [])
    }

    func testOtherShapesNameOnlyDocumentedKeys() throws {
        let doc = try makeOutline("Notes.poddoc", holding: "one")
        try assertDocumented("check", try succeed("check", doc, "--json"))
        try assertDocumented("save", try succeed("save", doc, "--as", path("Copy.poddoc"), "--json"))
        try assertDocumented("new", try succeed("new", path("Other.poddoc"), "--kind", "outline", "--json"))
    }
}
