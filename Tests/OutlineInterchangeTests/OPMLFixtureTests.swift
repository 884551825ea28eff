import Foundation
import OutlineInterchange
import OutlineTestSupport
import XCTest

/// What the OPML reader makes of specific real files.
final class OPMLFixtureTests: XCTestCase {
    private func fixture(_ name: String) throws -> OutlineTree {
        try OutlineTree(opml: Fixtures.data(name))
    }

    private func firstItem(in tree: OutlineTree, titled title: String) -> OutlineItem? {
        tree.depthFirst().first { $0.item.title == title }?.item
    }

    // MARK: - Encodings and text

    func testISO88591TitleIsDecodedFromTheDeclaredEncoding() throws {
        // The file declares ISO-8859-1; byte 0xC7 is "Ç" (U+00C7) there.
        let tree = try fixture("readFile-latin1.opml")
        XCTAssertNotNil(firstItem(in: tree, titled: "if s beginsWith char (26) Çend of file"))
        XCTAssertNotNil(firstItem(in: tree, titled: "bundle Çtest code"))
        XCTAssertEqual(firstItem(in: tree, titled: "Changes")?.attributes, [OutlineAttribute("isComment", "true")])
        XCTAssertEqual(
            firstItem(in: tree, titled: "local (f = \"Ohio:tmp.txt\")")?.attributes,
            [OutlineAttribute("isComment", "true")])
    }

    func testChineseText() throws {
        let tree = try fixture("blogCN-feedlist.opml")
        XCTAssertEqual(tree.opmlVersion, "1.0")
        XCTAssertEqual(tree.head, [OutlineAttribute("title", "导出订阅")])
        XCTAssertEqual(
            firstItem(in: tree, titled: "Limboy 无网不剩")?.attributes.value(named: "xmlUrl"),
            "https://feeds.feedburner.com/lzyy")
    }

    func testEscapedMarkupStaysLiteralText() throws {
        let tree = try fixture("opmlPackage-source.opml")
        XCTAssertNotNil(firstItem(in: tree, titled: "for (var i = 0; i < obj.length; i++) {"))
        let link = tree.depthFirst().first {
            $0.item.title.hasPrefix("Fixed a problem <a href=\"https://github.com/scripting/opmlPackage/issues/12\">reported</a>")
        }
        XCTAssertNotNil(link)

        let exported = String(decoding: try tree.opmlData(), as: UTF8.self)
        XCTAssertTrue(exported.contains("<outline text=\"for (var i = 0; i &lt; obj.length; i++) {\">"))
        XCTAssertTrue(
            exported.contains(
                "Fixed a problem &lt;a href=&quot;https://github.com/scripting/opmlPackage/issues/12&quot;&gt;reported&lt;/a&gt;"))
    }

    func testCharacterReferencesAndQuotes() throws {
        let tree = try fixture("cactus-notes.opml")
        XCTAssertNotNil(
            firstItem(
                in: tree,
                titled: "Cactus has a table view that I'd like to delete. It's used when doing "
                    + "ctrl-enter on a node and opens an editor for the attributes.\n\n"))
        XCTAssertNotNil(tree.depthFirst().first { $0.item.title.hasPrefix("Update \"head\" section after save.") })
    }

    // MARK: - Structure

    func testNoteAttributeBecomesTheNote() throws {
        let tree = try fixture("synthetic-notes.opml")
        XCTAssertEqual(tree.head, [OutlineAttribute("title", "Weekend"), OutlineAttribute("ownerName", "poddoc tests")])
        let groceries = tree.topLevel[0]
        XCTAssertEqual(tree[groceries], OutlineItem(title: "Groceries", note: "Buy on Saturday\nbefore noon"))
        let children = tree.children(of: groceries).map { tree[$0] }
        XCTAssertEqual(
            children,
            [
                OutlineItem(title: "Milk", note: "", attributes: [OutlineAttribute("complete", "true")]),
                OutlineItem(title: "Bread & butter", note: "- not a list item"),
            ])
        XCTAssertEqual(tree[tree.topLevel[1]], OutlineItem(title: "Call <b>Mom</b>", note: "  indented note with a tab\tinside"))

        let exported = String(decoding: try tree.opmlData(), as: UTF8.self)
        XCTAssertTrue(exported.contains("<outline text=\"Groceries\" _note=\"Buy on Saturday&#10;before noon\">"))
        XCTAssertTrue(exported.contains("<outline text=\"Milk\" _note=\"\" complete=\"true\"/>"))
        XCTAssertEqual(try OutlineTree(opml: Data(exported.utf8)), tree)
    }

    func testUnknownAttributesKeepTheirOrderAndAreWrittenBack() throws {
        let tree = try fixture("blogCN-feedlist.opml")
        XCTAssertEqual(
            firstItem(in: tree, titled: "OneV's Den")?.attributes,
            [
                OutlineAttribute("title", "OneV's Den"), OutlineAttribute("type", "rss"),
                OutlineAttribute("xmlUrl", "http://onevcat.com/atom.xml"), OutlineAttribute("htmlUrl", "http://onevcat.com"),
            ])
        let exported = String(decoding: try tree.opmlData(), as: UTF8.self)
        XCTAssertTrue(
            exported.contains(
                "<outline text=\"OneV's Den\" title=\"OneV's Den\" type=\"rss\" "
                    + "xmlUrl=\"http://onevcat.com/atom.xml\" htmlUrl=\"http://onevcat.com\"/>"))
    }

    func testNodeWith356ChildrenKeepsOrder() throws {
        let tree = try fixture("AREACODE.opml")
        let list = tree.topLevel[0]
        XCTAssertEqual(tree[list].title, "Area Codes and Time Zones, United States and Canada")
        let titles = tree.children(of: list).map { tree[$0].title }
        XCTAssertEqual(titles.count, 356)
        XCTAssertEqual(Array(titles.prefix(4)), ["201", " Northern New Jersey", " Eastern Time Zone", "202"])
        XCTAssertEqual(Array(titles.suffix(2)), [" Western Texas", " Central Time Zone"])
        XCTAssertEqual(try OutlineTree(opml: tree.opmlData()), tree)
    }

    func testDeepNestingAndHeadFields() throws {
        let tree = try fixture("opmlPackage-source.opml")
        XCTAssertEqual(tree.count, 1329)
        XCTAssertEqual(tree.maxDepth, 14)
        XCTAssertEqual(tree.opmlVersion, "2.0")
        XCTAssertEqual(tree.head.first?.name, "title")
    }

    func testHeadFieldsInOrderIncludingEmptyOnes() throws {
        let tree = try fixture("cactus-notes.opml")
        XCTAssertEqual(
            tree.head.map(\.name),
            [
                "dateCreated", "dateModified", "ownerName", "expansionState", "vertScrollState",
                "windowTop", "windowLeft", "windowBottom", "windowRight", "cactusUrl",
            ])
        XCTAssertEqual(tree.head.value(named: "vertScrollState"), "")
        XCTAssertEqual(tree.head.value(named: "expansionState"), "1, 2, 4, 8, 10, 13, 16, 17, 19")
    }

    func testBodyAttributesAreKept() throws {
        let tree = try fixture("includes.opml")
        XCTAssertEqual(tree.bodyAttributes, [OutlineAttribute("text", "examples/includes/includes.opml")])
        XCTAssertEqual(tree[tree.topLevel[0]].attributes.map(\.name), ["created", "name", "type", "url"])
        let exported = String(decoding: try tree.opmlData(), as: UTF8.self)
        XCTAssertTrue(exported.contains("\t<body text=\"examples/includes/includes.opml\">\n"))
    }

    // MARK: - Refusal

    func testNotWellFormedFileIsRefusedWithLineAndColumn() throws {
        let error = assertFormatError(try self.fixture(Fixtures.notWellFormed))
        XCTAssertEqual(error?.code, .notWellFormed)
        XCTAssertEqual(error?.line, 1)
        XCTAssertEqual(error?.column, 7)
        XCTAssertEqual(
            error?.description,
            "OPML: not well-formed XML at line 1, column 7: the XML declaration must "
                + "start with 'version', found 'encoding'; nothing was imported")
    }

    // MARK: - Round trip

    func testEveryWellFormedFixtureRoundTrips() throws {
        for name in Fixtures.wellFormed {
            let tree = try fixture(name)
            let exported = try tree.opmlData()
            let again = try OutlineTree(opml: exported)
            XCTAssertEqual(again, tree, name)
            XCTAssertEqual(try again.opmlData(), exported, "\(name): export is not deterministic")
        }
    }
}
