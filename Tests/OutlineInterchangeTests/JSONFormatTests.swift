import Foundation
import OutlineInterchange
import OutlineTestSupport
import XCTest

final class JSONFormatTests: XCTestCase {
    private func makeTree() -> OutlineTree {
        var tree = OutlineTree(
            opmlVersion: "2.0", head: [OutlineAttribute("title", "Trip")],
            bodyAttributes: [OutlineAttribute("text", "trip.opml")])
        let packing = tree.appendChild(title: "Packing \"bags\"", note: "a\\b\nc\u{1}", to: tree.root)
        tree.appendChild(title: "中文 🎉", attributes: [OutlineAttribute("type", "link"), OutlineAttribute("url", "/x")], to: packing)
        tree.appendChild(title: "Tickets", to: tree.root)
        return tree
    }

    // MARK: - Writing

    func testExactOutput() {
        let expected =
            #"{"opmlVersion":"2.0","head":[["title","Trip"]],"bodyAttributes":[["text","trip.opml"]],"children":["#
            + #"{"title":"Packing \"bags\"","note":"a\\b\nc\u0001","attributes":[],"children":["#
            + #"{"title":"中文 🎉","note":null,"attributes":[["type","link"],["url","/x"]],"children":[]}]},"#
            + #"{"title":"Tickets","note":null,"attributes":[],"children":[]}]}"# + "\n"
        XCTAssertEqual(String(decoding: makeTree().jsonData(), as: UTF8.self), expected)
        XCTAssertEqual(
            String(decoding: OutlineTree().jsonData(), as: UTF8.self),
            #"{"opmlVersion":null,"head":[],"bodyAttributes":[],"children":[]}"# + "\n")
    }

    func testOutputIsJSONThatFoundationReadsTheSameWay() throws {
        let object = try JSONSerialization.jsonObject(with: makeTree().jsonData()) as? [String: Any]
        let children = object?["children"] as? [[String: Any]]
        XCTAssertEqual(children?.count, 2)
        XCTAssertEqual(children?[0]["title"] as? String, "Packing \"bags\"")
        XCTAssertEqual(children?[0]["note"] as? String, "a\\b\nc\u{1}")
        let grandchild = (children?[0]["children"] as? [[String: Any]])?.first
        XCTAssertEqual(grandchild?["attributes"] as? [[String]], [["type", "link"], ["url", "/x"]])
    }

    // MARK: - Reading

    func testReadsKeysInAnyOrderWithDefaults() throws {
        let text = """
            {
              "children": [
                {"children": [{"title": "b"}], "note": null, "title": "a\\u00e9\\ud83c\\udf89\\/"},
                {"attributes": [["type", "rss"]], "title": "c", "note": "n"}
              ],
              "head": [["title", "T"]]
            }
            """
        let tree = try OutlineTree(json: Data(text.utf8))
        XCTAssertNil(tree.opmlVersion)
        XCTAssertEqual(tree.head, [OutlineAttribute("title", "T")])
        XCTAssertEqual(tree.outlineSummary, ["1:aé🎉/", "2:b", "1:c"])
        XCTAssertEqual(tree[tree.topLevel[1]], OutlineItem(title: "c", note: "n", attributes: [OutlineAttribute("type", "rss")]))
    }

    // MARK: - Refusing

    func testInvalidJSONIsRefusedWithLineAndColumn() {
        assertRefused(
            #"{"children": [{"title": "a"},]}"#, as: .json, .notWellFormed, line: 1, column: 30,
            "expected an item object '{' in 'children', found ']'")
        assertRefused("{\n  \"children\" []}", as: .json, .notWellFormed, line: 2, column: 14, "expected ':' after the key 'children'")
        assertRefused(#"{"children": [{"title": "a}]}"#, as: .json, .notWellFormed, line: 1, column: 25, "the string is never closed")
        assertRefused(#"{"children": [{"title": "\x"}]}"#, as: .json, .notWellFormed, line: 1, column: 26, #"'\x' is not a JSON escape"#)
        assertRefused(#"{"children": [{"title": "\ud83c"}]}"#, as: .json, .notWellFormed, line: 1, column: 26, "low surrogate")
        assertRefused("{\"children\": [{\"title\": \"a\tb\"}]}", as: .json, .notWellFormed, line: 1, column: 27, "control character 0x09")
        assertRefused(#"{"children": []} x"#, as: .json, .notWellFormed, line: 1, column: 18, "unexpected character 'x'")
        assertRefused(#"{"children": []} {}"#, as: .json, .notWellFormed, line: 1, column: 18, "unexpected '{' after the outline document")
        assertRefused(#"{"head": [["a", "b"],]}"#, as: .json, .notWellFormed, line: 1, column: 22, "found ']'")
        assertRefused("", as: .json, .notWellFormed, line: 1, column: 1, "expected '{' at the start of an outline document")
    }

    func testJSONOfAnotherShapeIsRefused() {
        assertRefused(
            #"{"children": [{"title": "a", "color": "red"}]}"#, as: .json, .unexpectedStructure, line: 1, column: 30,
            "unknown key 'color' in an item")
        assertRefused(#"{"children": [{"note": "a"}]}"#, as: .json, .unexpectedStructure, line: 1, column: 15, "the item has no 'title'")
        assertRefused(
            #"{"children": [{"title": 1}]}"#, as: .json, .unexpectedStructure, line: 1, column: 25,
            "'title' must be a string, found a number")
        assertRefused(
            #"{"children": [{"title": "a", "title": "b"}]}"#, as: .json, .unexpectedStructure, line: 1, column: 30,
            "the key 'title' appears twice")
        assertRefused(
            #"{"head": {"title": "a"}}"#, as: .json, .unexpectedStructure, line: 1, column: 10,
            "'head' must be an array of [name, value] string pairs, found '{'")
        assertRefused(
            #"[]"#, as: .json, .unexpectedStructure, line: 1, column: 1, "expected '{' at the start of an outline document, found '['")
        assertRefused(#"{"items": []}"#, as: .json, .unexpectedStructure, line: 1, column: 2, "unknown key 'items' in the outline document")
    }

    // MARK: - Round trips

    func testGeneratedTreesRoundTripExactly() throws {
        for seed in 1...12 {
            let tree = TreeGenerator.random(seed: UInt64(seed), count: 300)
            let data = tree.jsonData()
            let back = try OutlineTree(data: data, format: .json)
            XCTAssertEqual(back, tree, "seed \(seed)")
            XCTAssertEqual(back.jsonData(), data, "seed \(seed)")
        }
    }

    func testFixturesRoundTripExactly() throws {
        for name in Fixtures.wellFormed {
            let tree = try OutlineTree(opml: Fixtures.data(name))
            XCTAssertEqual(try OutlineTree(json: tree.jsonData()), tree, name)
        }
    }

    func testFoundationCannotReadDeepJSON() {
        // Why the reader is iterative: JSONSerialization stops at 512 levels.
        let deep = Data((String(repeating: "[", count: 600) + String(repeating: "]", count: 600)).utf8)
        XCTAssertThrowsError(try JSONSerialization.jsonObject(with: deep))
    }
}
