import Foundation
import OutlineInterchange
import OutlineTestSupport
import XCTest

/// Nothing recurses: a chain 100,000 items deep goes through OPML and JSON (import, export,
/// equality, walking and deinit). Markdown and indented text encode depth as leading
/// white space, so a chain needs depth²/2 bytes of indentation (5·10⁹ for 100,000); they are
/// tested at 3,000 levels, which is still far beyond any recursion limit of their readers.
final class DeepChainTests: XCTestCase {
    private static let depth = 100_000

    func testChainWalksAndComparesIteratively() {
        let chain = TreeGenerator.chain(depth: Self.depth)
        XCTAssertEqual(chain.count, Self.depth)
        XCTAssertEqual(chain.maxDepth, Self.depth)
        var visits = 0
        var lastDepth = 0
        for visit in chain.depthFirst() {
            visits += 1
            lastDepth = visit.depth
        }
        XCTAssertEqual(visits, Self.depth)
        XCTAssertEqual(lastDepth, Self.depth)

        XCTAssertEqual(chain, TreeGenerator.chain(depth: Self.depth))
        var changed = chain
        let deepest = chain.depthFirst().reduce(chain.root) { _, visit in visit.id }
        changed[deepest].title = "changed"
        XCTAssertNotEqual(changed, chain)
    }

    func testChainThroughOPML() throws {
        let chain = TreeGenerator.chain(depth: Self.depth)
        let back = try OutlineTree(opml: chain.opmlData())
        XCTAssertEqual(back, chain)
        XCTAssertEqual(back.maxDepth, Self.depth)
    }

    func testChainThroughJSON() throws {
        let chain = TreeGenerator.chain(depth: Self.depth)
        let back = try OutlineTree(json: chain.jsonData())
        XCTAssertEqual(back, chain)
    }

    func testDeepOPMLThatWasNotWrittenByUs() throws {
        // No indentation, no declaration, closing tags spelled out: the reader's own stack only.
        let levels = Self.depth
        var text = "<opml version=\"1.0\"><body>"
        text += String(repeating: "<outline text=\"x\">", count: levels)
        text += String(repeating: "</outline>", count: levels)
        text += "</body></opml>"
        let tree = try OutlineTree(opml: Data(text.utf8))
        XCTAssertEqual(tree.maxDepth, levels)

        let unclosed = text.replacingOccurrences(of: "</body></opml>", with: "")
        let error = assertFormatError(try OutlineTree(opml: Data(unclosed.utf8)))
        XCTAssertEqual(error?.code, .notWellFormed)
    }

    func testDeepChainThroughMarkdownAndIndentedText() throws {
        let chain = TreeGenerator.chain(depth: 3_000)
        XCTAssertTrue(try OutlineTree(markdown: chain.markdown()).hasSameItems(as: chain, by: sameTitleAndNote))
        XCTAssertTrue(try OutlineTree(indentedText: chain.indentedText()).hasSameItems(as: chain, by: sameTitle))
    }
}
