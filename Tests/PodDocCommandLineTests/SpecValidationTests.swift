import Foundation
import XCTest

/// Specs of the wrong shape are refused one by one with the field named, the rest imported,
/// and the plain-text summary says what was refused, skipped or imported with a remark.
final class SpecValidationTests: CommandLineTestCase {
    private static var good: [String: Any] {
        [
            "name": "Good", "version": "1.0", "summary": "fine", "authors": ["Ада": "ada@example.org"],
            "license": "MIT", "source": ["git": "https://example.org/good.git", "tag": 0.1],
            "platforms": ["ios": 8.0],
        ]
    }

    private func spec(_ changes: [String: Any]) -> [String: Any] {
        Self.good.merging(changes) { $1 }
    }

    private func write(_ object: Any, to name: String) throws {
        let url = URL(fileURLWithPath: path(name))
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]).write(to: url)
    }

    func testReimportingTheSameSpecsChangesNothingAndSavesNothing() throws {
        let specs = (0..<40).map { spec(["name": "Pod\($0)", "summary": "Pod number \($0)"]) }
        try write(["number_of_pages": 1, "result": specs], to: "page.json")
        let doc = path("D.poddoc")
        try succeed("new", doc, "--kind", "pods")
        XCTAssertTrue(try succeed("import", doc, "--from", path("page.json")).stdout.contains("Imported 40 specs from"))
        let before = try hashes(doc)
        let saves = { try self.succeed("info", doc, "--json").json(InfoShape.self).saveSequence }
        let savesBefore = try saves()

        let again = try succeed("import", doc, "--from", path("page.json")).stdout
        XCTAssertTrue(again.contains("(0 new, 0 updated, 40 unchanged, 1 page)") && again.contains("nothing was saved"), again)
        XCTAssertEqual(try hashes(doc), before, "every file of the document as it was")
        XCTAssertEqual(try saves(), savesBefore)
        let json =
            try JSONSerialization.jsonObject(with: Data(try succeed("import", doc, "--from", path("page.json"), "--json").stdout.utf8))
            as? [String: Any]
        XCTAssertEqual(json?["unchanged"] as? Int, 40)
        XCTAssertEqual(json?["updated"] as? Int, 0)

        // One spec changed: one update, one save.
        var changed = specs
        changed[7]["summary"] = "A new summary"
        try write(["number_of_pages": 1, "result": changed], to: "page.json")
        let update = try succeed("import", doc, "--from", path("page.json")).stdout
        XCTAssertTrue(update.contains("(0 new, 1 updated, 39 unchanged, 1 page)") && !update.contains("nothing was saved"), update)
        XCTAssertEqual(try saves(), savesBefore.map { $0 + 1 })
        XCTAssertTrue(try succeed("pods", "search", doc, "new summary").stdout.contains("Pod7"))
        XCTAssertTrue(try succeed("check", doc).stdout.contains(": ok"))
    }

    func testWrongTypesAreRefusedByFieldAndTheRestImported() throws {
        let specs: [[String: Any]] = [
            Self.good, spec(["name": 5]), spec(["name": "Summary", "summary": ["a": 1]]),
            spec(["name": "Authors", "authors": [1, 2]]), spec(["name": "Version", "version": 1.5]),
            spec(["name": "License", "license": 3]), spec(["name": "Source", "source": "git"]),
        ]
        try write(["number_of_pages": 1, "result": specs], to: "page.json")
        let doc = path("D.poddoc")
        try succeed("new", doc, "--kind", "pods")
        let imported = try succeed("import", doc, "--from", path("page.json"))
        for expected in [
            "Imported 1 spec from", "Refused 6 specs:", #"spec 2: its "name" is a number, not a string"#,
            #"its "summary" is an object, not a string"#, #"its "authors" holds a number"#,
            #"its "version" is a number, not a string"#, #"its "license" is a number"#, #"its "source" is a string, not an object"#,
        ] {
            XCTAssertTrue(imported.stdout.contains(expected), "\(expected) in:\n\(imported.stdout)")
        }
        let listed = try succeed("pods", "ls", doc).stdout
        XCTAssertTrue(listed.hasPrefix("Good 1.0"), listed)
        XCTAssertEqual(listed.split(separator: "\n").count, 1, "no spec named 5: \(listed)")
        let json =
            try JSONSerialization.jsonObject(with: Data(try succeed("import", doc, "--from", path("page.json"), "--json").stdout.utf8))
            as? [String: Any]
        XCTAssertEqual((json?["rejectedSpecs"] as? [[String: String]])?.count, 6)
    }

    func testAFolderSaysWhatItSkippedRefusedAndRemarked() throws {
        try write(spec(["version": "1.0.1"]), to: "Specs/Good/1.0.0/Good.podspec.json")
        try write(spec(["name": 7]), to: "Specs/Bad/1.0/Bad.podspec.json")
        try Data("MIT".utf8).write(to: URL(fileURLWithPath: path("Specs/LICENSE")))
        let doc = path("D.poddoc")
        try succeed("new", doc, "--kind", "pods")
        let imported = try succeed("import", doc, "--from", path("Specs")).stdout
        XCTAssertTrue(imported.contains("Refused 1 spec:\n  \(path("Specs/Bad/1.0/Bad.podspec.json")): is not a usable pod spec"), imported)
        XCTAssertTrue(imported.contains("Skipped 1 file that is not a spec file:\n  \(path("Specs/LICENSE"))"), imported)
        XCTAssertTrue(imported.contains("its folder says Good 1.0.0, its JSON Good 1.0.1; imported as the JSON says"), imported)
        XCTAssertTrue(try succeed("pods", "ls", doc).stdout.hasPrefix("Good 1.0.1"))

        // Nothing usable at all: a failure, not "Imported 0 specs".
        try FileManager.default.createDirectory(atPath: path("Junk"), withIntermediateDirectories: true)
        for name in ["README", "notes.txt"] { try Data("x".utf8).write(to: URL(fileURLWithPath: path("Junk/\(name)"))) }
        let nothing = try run(["import", doc, "--from", path("Junk")])
        XCTAssertEqual(nothing.status, 65, nothing.stderr)
        XCTAssertTrue(nothing.stderr.contains("Imported nothing from") && nothing.stderr.contains("2 files skipped"), nothing.stderr)
    }
    /// A field given twice is refused with the field named, at the top level and in the
    /// objects the reader reads; a spec file alone is refused as a whole.
    func testAFieldGivenTwiceIsRefusedByName() throws {
        let page = #"""
            {"number_of_pages": 1, "result": [
              {"name": "Good", "version": "1.0"},
              {"name": "Dup", "version": "1.0", "name": "Evil"},
              {"name": "Extra", "version": "1.0", "source_files": "a", "source_files": "b"},
              {"name": "Lic", "version": "1.0", "license": {"type": "MIT", "type": "GPL"}},
              {"name": "Src", "version": "1.0", "source": {"git": "https://a.example/a.git", "git": "https://b.example/b.git"}},
              {"name": "Plat", "version": "1.0", "platforms": {"ios": "8.0", "ios": "9.0"}},
              {"name": "Auth", "version": "1.0", "authors": {"Ada": "a@example.org", "Ada": "b@example.org"}}
            ]}
            """#
        try Data(page.utf8).write(to: URL(fileURLWithPath: path("page.json")))
        let doc = path("D.poddoc")
        try succeed("new", doc, "--kind", "pods")
        let imported = try succeed("import", doc, "--from", path("page.json")).stdout
        for expected in [
            "Imported 1 spec from", "Refused 6 specs:", #"spec 2: its "name" is given twice"#,
            #"spec 3: its "source_files" is given twice"#,
            #"spec 4: its "license.type" is given twice"#, #"spec 5: its "source.git" is given twice"#,
            #"spec 6: its "platforms.ios" is given twice"#, #"spec 7: its "authors.Ada" is given twice"#,
        ] {
            XCTAssertTrue(imported.contains(expected), "\(expected) in:\n\(imported)")
        }
        XCTAssertEqual(try succeed("pods", "ls", doc).stdout.split(separator: "\n").count, 1)
        XCTAssertEqual(try run(["pods", "show", doc, "Evil"]).status, 65, "no spec named Evil")

        try write(["x": 1], to: "Specs/Dup/1.0/placeholder.json")
        try Data(#"{"name":"Dup","version":"1.0","name":"Evil"}"#.utf8).write(
            to: URL(fileURLWithPath: path("Specs/Dup/1.0/Dup.podspec.json")))
        let folder = try run(["import", doc, "--from", path("Specs")])
        XCTAssertEqual(folder.status, 65, folder.stderr)
        XCTAssertTrue(folder.stderr.contains(#"its "name" is given twice"#), folder.stderr)
    }

    /// Importing from another file the specs the document holds saves only the record of that
    /// file's import, and says so, with the save's number.
    func testAReimportFromAnotherFileSaysWhatItSaved() throws {
        try write(["number_of_pages": 1, "result": [Self.good]], to: "first.json")
        try write(["number_of_pages": 1, "result": [Self.good]], to: "second.json")
        let doc = path("D.poddoc")
        try succeed("new", doc, "--kind", "pods")
        try succeed("import", doc, "--from", path("first.json"))
        let saves = { try self.succeed("info", doc, "--json").json(InfoShape.self).saveSequence }
        let before = try XCTUnwrap(try saves())
        let other = try succeed("import", doc, "--from", path("second.json")).stdout
        XCTAssertEqual(try saves(), before + 1)
        XCTAssertFalse(other.contains("nothing was saved"), other)
        XCTAssertTrue(
            other.contains(
                "The document held every one of them already; save \(before + 1) records only that \(path("second.json")) was imported."),
            other)
        // The same file again: no save at all, and it says so.
        let same = try succeed("import", doc, "--from", path("second.json")).stdout
        XCTAssertEqual(try saves(), before + 1)
        XCTAssertTrue(same.contains("The document held every one of them already: nothing was saved."), same)
    }
}
