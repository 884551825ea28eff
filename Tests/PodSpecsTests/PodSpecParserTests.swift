import Foundation
import PodDocStore
import XCTest

@testable import PodSpecs

/// Normalising the shapes real specs come in, and refusing bad input with a clear error.
final class PodSpecParserTests: XCTestCase {
    private func fixture(_ pod: String, _ version: String) throws -> PodSpec {
        let url = SpecFixtures.flat.appending(path: "\(pod)/\(version)/\(pod).podspec.json")
        return try PodSpecParser.parseSpec(try Data(contentsOf: url), location: url.path)
    }

    private func spec(_ json: String) throws -> PodSpec {
        try PodSpecParser.parseSpec(Data(json.utf8), location: "test.podspec.json")
    }

    private func assertFails(
        _ json: String, _ code: PodSpecsError.Code, _ fragment: String,
        file: StaticString = #filePath, line: UInt = #line
    ) {
        XCTAssertThrowsError(try spec(json), file: file, line: line) { error in
            guard let error = error as? PodSpecsError else { return XCTFail("\(error)", file: file, line: line) }
            XCTAssertEqual(error.code, code, error.message, file: file, line: line)
            XCTAssertTrue(error.message.contains("test.podspec.json"), error.message, file: file, line: line)
            XCTAssertTrue(error.message.contains(fragment), error.message, file: file, line: line)
        }
    }

    // MARK: - Real shapes

    func testAuthorsFromAnObjectAStringAndAnArray() throws {
        let object = try fixture("500px-iOS-api", "1.0.2")
        XCTAssertEqual(object.authors, [PodAuthor(name: "Ash Furrow", email: "ash@ashfurrow.com")])
        let string = try fixture("AD-X-SDK", "4.0.3")
        XCTAssertEqual(string.authors.count, 1)
        XCTAssertNil(string.authors[0].email)
        let array = try fixture("APLArrayDataSource", "0.0.3")
        XCTAssertGreaterThan(array.authors.count, 1)
        XCTAssertTrue(array.authors.allSatisfy { $0.email == nil && !$0.name.isEmpty })
        let nullEmail = try fixture("ProtocolBuffers", "1.2.1")
        XCTAssertTrue(nullEmail.authors.contains { $0.email == nil })
        let arrayWithObject = try fixture("CocoaAsyncSocket", "0.0.1")
        XCTAssertTrue(arrayWithObject.authors.contains { $0.email != nil }, "\(arrayWithObject.authors)")
    }

    func testLicenseFromAStringAndAnObject() throws {
        XCTAssertEqual(try fixture("500px-iOS-api", "1.0.2").license, PodLicense(type: "MIT"))
        let object = try XCTUnwrap(try fixture("A3GridTableView", "0.0.1").license)
        XCTAssertNotNil(object.type)
        XCTAssertTrue(object.file != nil || object.text != nil)
    }

    func testSourcesPlatformsRequiresARCAndDeprecation() throws {
        XCTAssertEqual(
            try fixture("500px-iOS-api", "1.0.2").source,
            PodSource(kind: .git, url: "https://github.com/500px/500px-iOS-api.git", tag: "1.0.2"))
        XCTAssertEqual(try fixture("AD-X-SDK", "4.0.3").source?.kind, .http)
        XCTAssertEqual(try fixture("GData", "0.0.1").source?.kind, .svn)
        let hg = try fixture("HyperBek", "0.1.0")
        XCTAssertEqual(hg.source?.kind, .hg)
        XCTAssertNotNil(hg.source?.commit, "an hg revision is the source commit")
        XCTAssertEqual(try fixture("A2StoryboardSegueContext", "1.0").platforms, [PodPlatform(name: "ios")])
        XCTAssertTrue(try fixture("AZSocketIO", "0.0.2").platforms.contains { $0.deploymentTarget?.contains(".") ?? false })
        XCTAssertEqual(try fixture("ADLYRetainingCache", "1.0").requiresARC, true)
        XCTAssertEqual(try fixture("CWPopup", "1.2.5").requiresARC, true)
        let deprecated = try fixture("AdjustIO", "2.2.0")
        XCTAssertTrue(deprecated.isDeprecated)
        XCTAssertNotNil(deprecated.deprecatedInFavorOf)
    }

    func testTheOriginalJSONIsKeptByteForByte() throws {
        let url = SpecFixtures.flat.appending(path: "500px-iOS-api/1.0.2/500px-iOS-api.podspec.json")
        let text = try String(contentsOf: url, encoding: .utf8)
        let spec = try PodSpecParser.parseSpec(Data(text.utf8), location: url.path)
        XCTAssertEqual(spec.json.text, text.trimmingCharacters(in: .whitespacesAndNewlines))
        XCTAssertEqual(spec.key, "500px-iOS-api/1.0.2")
    }

    func testOddButUsableValues() throws {
        let s = try spec(
            #"{"name": "N", "version": "2.0", "requires_arc": "no", "platforms": {"ios": 7}, "license": {"type": "BSD"}, "authors": ["A", {"B": ""}], "summary": null, "source": {"git": "u", "tag": 0.1}}"#
        )
        XCTAssertEqual(s.version, "2.0")
        XCTAssertEqual(s.requiresARC, false)
        XCTAssertEqual(
            s.platforms, [PodPlatform(name: "ios", deploymentTarget: "7")], "a number is taken as written where real specs have one")
        XCTAssertEqual(s.source?.tag, "0.1")
        XCTAssertEqual(s.authors, [PodAuthor(name: "A"), PodAuthor(name: "B")])
        XCTAssertNil(s.summary, "null counts as absent")
        XCTAssertEqual(try spec(#"{"name": "e\u00e9\ud83d\ude00", "version": "1\n"}"#).name, "eé😀")
    }

    func testAByteOrderMarkIsIgnored() throws {
        XCTAssertEqual(
            try PodSpecParser.parseSpec(Data([0xEF, 0xBB, 0xBF]) + Data(#"{"name": "N", "version": "1"}"#.utf8), location: "bom.json").name,
            "N")
        let page = try PodSpecParser.parsePage(
            Data([0xEF, 0xBB, 0xBF]) + Data(#"{"number_of_pages": 1, "result": [{"name": "N", "version": "1"}]}"#.utf8),
            location: "bom page")
        XCTAssertEqual(page.specs.map(\.name), ["N"])
    }

    func testValuesOfTheWrongKindAreRefusedNamingTheField() {
        assertFails(#"{"name": 5, "version": "1"}"#, .invalidSpec, #"its "name" is a number, not a string"#)
        assertFails(#"{"name": "N", "version": 2.0}"#, .invalidSpec, #"its "version" is a number, not a string"#)
        assertFails(#"{"name": "N", "version": "1", "summary": {"a": 1}}"#, .invalidSpec, #"its "summary" is an object, not a string"#)
        assertFails(#"{"name": "N", "version": "1", "authors": [1, 2]}"#, .invalidSpec, #"its "authors" holds a number"#)
        assertFails(#"{"name": "N", "version": "1", "authors": {"A": 3}}"#, .invalidSpec, #"its "authors email" is a number"#)
        assertFails(#"{"name": "N", "version": "1", "license": ["MIT"]}"#, .invalidSpec, #"its "license" is an array"#)
        assertFails(#"{"name": "N", "version": "1", "source": "git"}"#, .invalidSpec, #"its "source" is a string, not an object"#)
        assertFails(#"{"name": "N", "version": "1", "platforms": ["ios"]}"#, .invalidSpec, #"its "platforms" is an array, not an object"#)
    }

    // MARK: - Bad input

    func testMalformedJSONNamesTheFileLineAndReason() {
        assertFails(#"{"name": "A", "version": "1.0", "summary": "cut sho"#, .malformedJSON, "string is never closed (cut short?)")
        assertFails("{\"name\": \"A\",\n \"version\": 1.0.0}", .malformedJSON, "line 2")
        assertFails(#"{"name": "A", "version": "1"} trailing"#, .malformedJSON, "after the end")
        assertFails(#"{"name": "A\x", "version": "1"}"#, .malformedJSON, #"'\x' is not a JSON escape"#)
        assertFails(String(repeating: "[", count: 100_000), .invalidSpec, "not an object")
        assertFails(#"{"a": "# + String(repeating: "[", count: 100_000), .malformedJSON, "nesting deeper")
        assertFails("", .invalidSpec, "not an object")
    }

    func testInvalidUTF8IsAnError() {
        XCTAssertThrowsError(try PodSpecParser.parseSpec(Data([0x7B, 0x22, 0xFF, 0x22, 0x7D]), location: "bad.json")) { error in
            XCTAssertEqual((error as? PodSpecsError)?.code, .malformedJSON)
            XCTAssertTrue("\(error)".contains("bad.json is not valid UTF-8"), "\(error)")
        }
    }

    func testSpecsWithoutAUsableNameOrVersionAreRefused() {
        assertFails(#"{"version": "1.0"}"#, .invalidSpec, "no \"name\"")
        assertFails(#"{"name": "A"}"#, .invalidSpec, "no \"version\"")
        assertFails(#"{"name": ["A"], "version": "1"}"#, .invalidSpec, "an array, not a string")
        assertFails(#"{"name": "  ", "version": "1"}"#, .invalidSpec, "empty")
        assertFails(#"{"name": "A/B", "version": "1"}"#, .invalidSpec, "contains '/'")
    }

    // MARK: - Pages

    func testAPageInTheReferenceFormat() throws {
        let page = try PodSpecParser.parsePage(
            Data(#"{"number_of_pages": 3, "extra": {"x": [1]}, "result": [{"name": "A", "version": "1"}, 7, {"name": "B"}]}"#.utf8),
            index: 1, location: "page 1")
        XCTAssertEqual(page.numberOfPages, 3)
        XCTAssertEqual(page.index, 1)
        XCTAssertEqual(page.specs.map(\.key), ["A/1"])
        XCTAssertEqual(page.rejected.map(\.location), ["page 1, spec 2", "page 1, spec 3"])
        XCTAssertFalse(page.isPastEnd)
        let past = try PodSpecParser.parsePage(Data(#"{"number_of_pages": 3, "result": null}"#.utf8), location: "page 9")
        XCTAssertTrue(past.isPastEnd)
        XCTAssertEqual(past.specs, [])
    }

    func testPagesNotInTheReferenceFormatAreRefused() {
        for (body, fragment) in [
            (#"{"result": []}"#, "no \"number_of_pages\""),
            (#"{"number_of_pages": 1}"#, "no \"result\""),
            (#"{"number_of_pages": -1, "result": []}"#, "whole number"),
            (#"{"number_of_pages": 1, "result": {}}"#, "neither an array nor null"),
            ("[]", "not a JSON object"),
        ] {
            XCTAssertThrowsError(try PodSpecParser.parsePage(Data(body.utf8), index: 4, location: "page 4 (http://x/specs?page=4)")) {
                error in
                XCTAssertEqual((error as? PodSpecsError)?.code, .invalidPage, "\(error)")
                XCTAssertTrue("\(error)".contains("page 4 (http://x/specs?page=4)") && "\(error)".contains(fragment), "\(error)")
            }
        }
    }
}
