import Foundation
import OutlineInterchange
import OutlineTestSupport
import XCTest

final class MarkdownFormatTests: XCTestCase {
    // MARK: - Writing

    func testExactOutput() {
        var tree = OutlineTree(head: [OutlineAttribute("title", "Trip"), OutlineAttribute("ownerName", "Ann")])
        let packing = tree.appendChild(title: "Packing", note: "Check\nboth", attributes: [OutlineAttribute("type", "x")], to: tree.root)
        tree.appendChild(title: "Passport", to: packing)
        tree.appendChild(title: " Socks ", to: packing)
        tree.appendChild(title: "- dash", note: "- dash note", to: packing)
        tree.appendChild(title: "", note: "1. not a list", to: tree.root)
        tree.appendChild(title: "Tickets", note: "", to: tree.root)

        XCTAssertEqual(
            tree.markdown(),
            #"""
            # Trip

            - Packing
              Check\nboth
              - Passport
              - \sSocks\s
              - - dash
                \- dash note
            -
              1\. not a list
            - Tickets
              \

            """#)
    }

    // MARK: - Reading

    func testReadsCommonListStylesAndNotes() throws {
        let text =
            "# My list\n\n* Alpha\n    note line one\n    note line two\n\n    1. One\n    2) Two\n        + Deep\n"
            + "- Beta\n\t- Beta child\r\n"
        let tree = try OutlineTree(markdown: text)
        XCTAssertEqual(tree.head, [OutlineAttribute("title", "My list")])
        XCTAssertEqual(tree.outlineSummary, ["1:Alpha", "2:One", "2:Two", "3:Deep", "1:Beta", "2:Beta child"])
        XCTAssertEqual(tree[tree.topLevel[0]].note, "note line one\nnote line two")
        XCTAssertNil(tree[tree.topLevel[1]].note)
    }

    func testBackslashesFollowCommonMark() throws {
        let tree = try OutlineTree(markdown: ##"- C:\Users\Ann\#1 \*not emphasis\* \\ end\"## + "\n-   spaced\n")
        XCTAssertEqual(tree.outlineSummary, [##"1:C:\Users\Ann#1 *not emphasis* \ end"##, "1:spaced"])
    }

    func testEmptyInput() throws {
        XCTAssertTrue(try OutlineTree(markdown: "").isEmpty)
        XCTAssertTrue(try OutlineTree(markdown: "\u{FEFF}\n  \n").isEmpty)
    }

    // MARK: - Refusing

    func testMalformedInputIsRefusedWithLineNumbers() {
        assertRefused(
            "- a\nplain paragraph\n", as: .markdown, .unexpectedStructure, line: 2, column: 1,
            "a note line must be indented deeper than its item")
        assertRefused(
            "Intro text\n- a\n", as: .markdown, .unexpectedStructure, line: 1, column: 1,
            "expected a list item ('- ', '* ', '+ ' or '1. ') or a '# ' heading")
        assertRefused(
            "- a\n    - b\n  - c\n", as: .markdown, .inconsistentIndentation, line: 3, column: 3,
            "indented by 2 columns, which lines up with no enclosing item (items before it are indented by 0, 4 columns)")
        assertRefused(
            "- a\n  - b\n  note for a?\n", as: .markdown, .unexpectedStructure, line: 3, column: 3,
            "before the item's children")
        assertRefused("- a\n## Section\n", as: .markdown, .unexpectedStructure, line: 2, column: 1, "expected a list item")
    }

    func testInvalidUTF8IsRefused() {
        let error = assertFormatError(try OutlineTree(data: Data([0x2D, 0x20, 0x61, 0x0A, 0x2D, 0x20, 0xFF]), format: .markdown))
        XCTAssertEqual(error?.code, .invalidEncoding)
        XCTAssertEqual(error?.line, 2)
        XCTAssertEqual(error?.column, 3)
        XCTAssertEqual(
            error?.description,
            "Markdown: invalid text encoding at line 2, column 3: byte 0xFF is not valid UTF-8 "
                + "(Markdown is read as UTF-8); nothing was imported")
    }

    // MARK: - Round trips

    func testGeneratedTreesRoundTrip() throws {
        for seed in 1...12 {
            let tree = TreeGenerator.random(seed: UInt64(seed), count: 300)
            let back = try OutlineTree(data: tree.data(format: .markdown), format: .markdown)
            XCTAssertTrue(back.hasSameItems(as: tree, by: sameTitleAndNote), "seed \(seed)")
            XCTAssertEqual(back.head, [OutlineAttribute("title", tree.head.value(named: "title")!)], "seed \(seed)")
            XCTAssertEqual(back.markdown(), tree.markdown(), "seed \(seed)")
        }
    }

    func testFixturesConvertedToMarkdownRoundTrip() throws {
        for name in Fixtures.wellFormed {
            let tree = try OutlineTree(opml: Fixtures.data(name))
            let back = try OutlineTree(markdown: tree.markdown())
            XCTAssertTrue(back.hasSameItems(as: tree, by: sameTitleAndNote), name)
            XCTAssertEqual(back.count, tree.count, name)
        }
    }
}
