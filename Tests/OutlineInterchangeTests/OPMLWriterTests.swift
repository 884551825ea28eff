import Foundation
import OutlineInterchange
import OutlineTestSupport
import XCTest

/// The exact OPML the writer produces.
final class OPMLWriterTests: XCTestCase {
    func testExactOutput() throws {
        var tree = OutlineTree(head: [OutlineAttribute("title", "T & <U>"), OutlineAttribute("expansionState", "")])
        let first = tree.appendChild(
            title: "A <b>", note: "line1\nline2\ttab",
            attributes: [OutlineAttribute("type", "link"), OutlineAttribute("url", "http://x?a=1&b=2")], to: tree.root)
        tree.appendChild(title: "B \"quoted\" 'single'", to: first)
        tree.appendChild(title: "C", to: tree.root)

        let expected = """
            <?xml version="1.0" encoding="UTF-8"?>
            <opml version="2.0">
            \t<head>
            \t\t<title>T &amp; &lt;U&gt;</title>
            \t\t<expansionState/>
            \t</head>
            \t<body>
            \t\t<outline text="A &lt;b&gt;" _note="line1&#10;line2&#9;tab" type="link" url="http://x?a=1&amp;b=2">
            \t\t\t<outline text="B &quot;quoted&quot; 'single'"/>
            \t\t</outline>
            \t\t<outline text="C"/>
            \t</body>
            </opml>

            """
        XCTAssertEqual(String(decoding: try tree.opmlData(), as: UTF8.self), expected)

        var reread = try OutlineTree(opml: tree.opmlData())
        XCTAssertEqual(reread.opmlVersion, "2.0")
        reread.opmlVersion = nil
        XCTAssertEqual(reread, tree)
    }

    func testEmptyOutlineAndVersionWrittenBack() throws {
        let empty = OutlineTree(opmlVersion: "1.0")
        XCTAssertEqual(
            String(decoding: try empty.opmlData(), as: UTF8.self),
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <opml version="1.0">
            \t<head/>
            \t<body/>
            </opml>

            """)
        XCTAssertEqual(try OutlineTree(opml: empty.opmlData()), empty)
    }

    func testIndentationStopsGrowingAtThirtyTwoTabs() throws {
        let text = String(decoding: try TreeGenerator.chain(depth: 40).opmlData(), as: UTF8.self)
        let deepest = text.split(separator: "\n").first { $0.contains("\"level 40\"") }!
        XCTAssertEqual(deepest.prefix { $0 == "\t" }.count, 32)
        let level5 = text.split(separator: "\n").first { $0.contains("\"level 5\"") }!
        XCTAssertEqual(level5.prefix { $0 == "\t" }.count, 6)
    }

    // MARK: - Refused

    private func assertUnrepresentable(_ tree: OutlineTree, _ fragment: String, line: UInt = #line) {
        guard let error = assertFormatError(try tree.opmlData(), line: line) else { return }
        XCTAssertEqual(error.code, .unrepresentable, line: line)
        XCTAssertNil(error.line, line: line)
        XCTAssertTrue(error.message.contains(fragment), error.message, line: line)
        XCTAssertTrue(error.description.hasSuffix("; nothing was exported"), line: line)
    }

    func testWhatXMLCannotHoldIsRefused() {
        var control = OutlineTree()
        control.appendChild(title: "bell \u{7}", to: control.root)
        assertUnrepresentable(control, "the title 'bell \u{7}' contains the character U+0007")

        var nonCharacter = OutlineTree()
        nonCharacter.appendChild(title: "x", note: "\u{FFFE}", to: nonCharacter.root)
        assertUnrepresentable(nonCharacter, "U+FFFE")

        var reserved = OutlineTree()
        reserved.appendChild(title: "x", attributes: [OutlineAttribute("_note", "n")], to: reserved.root)
        assertUnrepresentable(reserved, "an attribute named '_note', which OPML uses itself")

        var twice = OutlineTree()
        twice.appendChild(title: "x", attributes: [OutlineAttribute("a", "1"), OutlineAttribute("a", "2")], to: twice.root)
        assertUnrepresentable(twice, "the attribute 'a' twice")

        var badName = OutlineTree()
        badName.appendChild(title: "x", attributes: [OutlineAttribute("two words", "1")], to: badName.root)
        assertUnrepresentable(badName, "'two words' of 'x' is not a valid XML name")

        let badHead = OutlineTree(head: [OutlineAttribute("1st", "x")])
        assertUnrepresentable(badHead, "the head field name '1st' is not a valid XML name")
    }

    func testExportErrorDescription() {
        var control = OutlineTree()
        control.appendChild(title: "a\u{0}", to: control.root)
        XCTAssertEqual(
            assertFormatError(try control.opmlData())?.description,
            "OPML: cannot export: the title 'a\u{0}' contains the character U+0000, which XML 1.0 cannot hold; "
                + "nothing was exported")
    }
}
