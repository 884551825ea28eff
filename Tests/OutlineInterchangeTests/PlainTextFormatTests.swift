import Foundation
import OutlineInterchange
import OutlineTestSupport
import XCTest

final class PlainTextFormatTests: XCTestCase {
    // MARK: - Writing and reading

    func testExactOutput() {
        var tree = OutlineTree(head: [OutlineAttribute("title", "not written")])
        let packing = tree.appendChild(title: "Packing", note: "not written", to: tree.root)
        tree.appendChild(title: "Passport", to: packing)
        tree.appendChild(title: " Socks\t", to: packing)
        tree.appendChild(title: "", to: tree.root)
        tree.appendChild(title: "two\nlines", to: tree.root)
        XCTAssertEqual(tree.indentedText(), "Packing\n\tPassport\n\t\\sSocks\\t\n\\\ntwo\\nlines\n")
    }

    func testReadsTabsAndConsistentSpaces() throws {
        let expected = ["1:a", "2:b", "3:c", "2:d", "1:e"]
        for text in ["a\n\tb\n\t\tc\n\td\ne\n", "a\n  b\n    c\n  d\ne\n", "a\r\n    b\r\n        c\r\n\r\n    d\r\ne"] {
            XCTAssertEqual(try OutlineTree(indentedText: text).outlineSummary, expected, text)
        }
    }

    /// A lone CR as the very last byte ends the last line (found by fuzzing: it used to trap).
    func testTrailingCarriageReturnEndsTheLastLine() throws {
        for text in ["a\r", "a\n\tb\r", "a\r\n\tb\r"] {
            XCTAssertEqual(try OutlineTree(indentedText: text).outlineSummary.last, text.hasSuffix("b\r") ? "2:b" : "1:a", text)
        }
        XCTAssertEqual(try OutlineTree(data: Data("- a\r  - b\r".utf8), format: .markdown).outlineSummary, ["1:a", "2:b"])
    }

    // MARK: - Refusing

    func testInconsistentIndentationIsRefusedWithLineNumbers() {
        assertRefused(
            "a\n  b\n   c\n", as: .plainText, .inconsistentIndentation, line: 3, column: 1,
            "indented by 3 spaces, which is not a multiple of the 2-space indentation of line 2")
        assertRefused(
            "a\n\tb\n  c\n", as: .plainText, .inconsistentIndentation, line: 3, column: 1,
            "the line is indented with spaces, but line 2 is indented with tabs")
        assertRefused("a\n \tb\n", as: .plainText, .inconsistentIndentation, line: 2, column: 1, "mixes tabs and spaces")
        assertRefused(
            "a\n\tb\n\t\t\td\n", as: .plainText, .inconsistentIndentation, line: 3, column: 1,
            "indented 2 levels deeper than the item before it")
        assertRefused("\n  a\nb\n", as: .plainText, .inconsistentIndentation, line: 2, column: 1, "the first item is indented")
    }

    func testErrorDescription() {
        let error = assertFormatError(try OutlineTree(indentedText: "a\n  b\n   c\n"))
        XCTAssertEqual(
            error?.description,
            "indented text: inconsistent indentation at line 3, column 1: the line is indented by "
                + "3 spaces, which is not a multiple of the 2-space indentation of line 2; nothing was imported")
    }

    // MARK: - Round trips

    func testGeneratedTreesRoundTrip() throws {
        for seed in 1...12 {
            let tree = TreeGenerator.random(seed: UInt64(seed), count: 300)
            let back = try OutlineTree(data: tree.data(format: .plainText), format: .plainText)
            XCTAssertTrue(back.hasSameItems(as: tree, by: sameTitle), "seed \(seed)")
            XCTAssertTrue(back.head.isEmpty)
        }
    }

    func testFixturesConvertedToIndentedTextRoundTrip() throws {
        for name in Fixtures.wellFormed {
            let tree = try OutlineTree(opml: Fixtures.data(name))
            let back = try OutlineTree(indentedText: tree.indentedText())
            XCTAssertTrue(back.hasSameItems(as: tree, by: sameTitle), name)
        }
    }
}
