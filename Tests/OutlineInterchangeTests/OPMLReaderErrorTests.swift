import Foundation
import OutlineInterchange
import OutlineTestSupport
import XCTest

/// Documents that are not well-formed XML, or not OPML, are refused with a located error.
final class OPMLReaderErrorTests: XCTestCase {
    private func read(_ text: String) throws -> OutlineTree {
        try OutlineTree(opml: Data(text.utf8))
    }

    // MARK: - Not well-formed

    func testMismatchedEndTag() {
        assertRefused(
            "<opml version=\"2.0\">\n<body>\n  <outline text=\"a\">\n</body>\n</opml>", as: .opml,
            .notWellFormed, line: 4, column: 1,
            "the end tag </body> does not match the start tag <outline> at line 3, column 3")
    }

    func testUnclosedElementAtEndOfFile() {
        assertRefused(
            "<opml version=\"2.0\">\n<body>\n", as: .opml, .notWellFormed, line: 3, column: 1,
            "the document ends before the element <body> (opened at line 2, column 1) is closed")
    }

    func testAttributeProblems() {
        assertRefused(
            "<opml><body><outline text=a/></body></opml>", as: .opml, .notWellFormed, line: 1, column: 27,
            "the value of the attribute 'text' must be in quotes")
        assertRefused(
            "<opml><body>\n<outline text=\"a\" text=\"b\"/></body></opml>", as: .opml, .notWellFormed, line: 2, column: 19,
            "the attribute 'text' appears twice")
        assertRefused(
            "<opml><body><outline text=\"a < b\"/></body></opml>", as: .opml, .notWellFormed, line: 1, column: 30,
            "'<' is not allowed in the value of the attribute 'text'")
        assertRefused(
            "<opml><body><outline text=\"a\"type=\"b\"/></body></opml>", as: .opml, .notWellFormed, line: 1, column: 30,
            "expected white space, '>' or '/>' in the tag <outline>")
        assertRefused(
            "<opml><body><outline text=\"abc/>\n", as: .opml, .notWellFormed, line: 1, column: 27,
            "the value of the attribute 'text' is never closed")
    }

    func testReferenceProblems() {
        assertRefused(
            "<opml><body><outline text=\"a&nbsp;b\"/></body></opml>", as: .opml, .notWellFormed, line: 1, column: 29,
            "the entity '&nbsp;' is not defined")
        assertRefused(
            "<opml><head><title>Tom & Jerry</title></head><body/></opml>", as: .opml, .notWellFormed, line: 1, column: 25,
            "expected an entity name after '&'")
        assertRefused(
            "<opml><body><outline text=\"&#0;\"/></body></opml>", as: .opml, .notWellFormed, line: 1, column: 28,
            "the character reference '&#0;' is not a character XML allows")
        assertRefused(
            "<opml><body><outline text=\"&#x110000;\"/></body></opml>", as: .opml, .notWellFormed, line: 1, column: 28,
            "is not a character XML allows")
        assertRefused(
            "<opml><body><outline text=\"&#12\"/></body></opml>", as: .opml, .notWellFormed, line: 1, column: 28,
            "malformed character reference")
    }

    func testDocumentLevelProblems() {
        assertRefused("", as: .opml, .notWellFormed, line: 1, column: 1, "the document has no root element")
        assertRefused("<opml><body/></opml>\n<opml/>", as: .opml, .notWellFormed, line: 2, column: 1, "only one root element")
        assertRefused(
            "<opml><body/></opml>\ntrailing", as: .opml, .notWellFormed, line: 2, column: 1, "text is not allowed after the root element")
        assertRefused(
            " <?xml version=\"1.0\"?><opml/>", as: .opml, .notWellFormed, line: 1, column: 2,
            "only allowed at the very start of the document")
        assertRefused("<?xml version=\"2.0\"?><opml/>", as: .opml, .notWellFormed, line: 1, column: 15, "unsupported XML version '2.0'")
        assertRefused(
            "<?xml version=\"1.0\" standalone=\"maybe\"?><opml/>", as: .opml, .notWellFormed, line: 1, column: 32,
            "standalone must be 'yes' or 'no'")
    }

    func testMarkupProblems() {
        assertRefused(
            "<opml><!-- a -- b --><body/></opml>", as: .opml, .notWellFormed, line: 1, column: 14,
            "'--' is not allowed inside a comment")
        assertRefused(
            "<opml><body/><!-- never closed </opml>", as: .opml, .notWellFormed, line: 1, column: 14,
            "the comment is never closed")
        assertRefused(
            "<opml><head><title>a ]]> b</title></head><body/></opml>", as: .opml, .notWellFormed, line: 1, column: 22,
            "']]>' is not allowed in text")
        assertRefused(
            "<opml><head><title><![CDATA[x</title></head><body/></opml>", as: .opml, .notWellFormed, line: 1, column: 20,
            "the CDATA section is never closed")
        assertRefused(
            "<opml><body><1outline/></body></opml>", as: .opml, .notWellFormed, line: 1, column: 14,
            "expected an element name after '<'")
    }

    // MARK: - Untrusted input

    func testEntityDeclarationsAreRefused() {
        let billionLaughs = """
            <?xml version="1.0"?>
            <!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">]>
            <opml><body><outline text="&lol2;"/></body></opml>
            """
        assertRefused(
            billionLaughs, as: .opml, .notWellFormed, line: 2, column: 16,
            "internal subset ('[ … ]') are not supported: entity declarations are refused")
        let externalEntity =
            "<!DOCTYPE opml [<!ENTITY xxe SYSTEM \"file:///etc/passwd\">]><opml><body><outline text=\"&xxe;\"/></body></opml>"
        assertRefused(externalEntity, as: .opml, .notWellFormed, line: 1, column: 16, "entity declarations are refused")
    }

    func testExternalDocumentTypeIsSkippedWithoutLoading() throws {
        let tree = try read(
            """
            <?xml version="1.0" encoding="UTF-8" standalone="no"?>
            <!DOCTYPE opml PUBLIC "-//Example//DTD OPML//EN" "http://127.0.0.1:9/opml.dtd">
            <opml version="2.0"><body><outline text="a"/></body></opml>
            """)
        XCTAssertEqual(tree.outlineSummary, ["1:a"])
    }

    // MARK: - Not OPML

    func testWellFormedDocumentsThatAreNotOutlines() {
        assertRefused(
            "<rss version=\"2.0\"/>", as: .opml, .unexpectedStructure, line: 1, column: 1,
            "the root element is <rss>; an OPML file starts with <opml>")
        assertRefused(
            "<opml version=\"2.0\">\n  <head/>\n</opml>", as: .opml, .unexpectedStructure, line: 1, column: 1,
            "has no <body>")
        assertRefused(
            "<opml><body>\n  stray text <outline text=\"a\"/></body></opml>", as: .opml, .unexpectedStructure, line: 2, column: 3,
            "unexpected text 'stray text'")
        assertRefused(
            "<opml><body><item text=\"a\"/></body></opml>", as: .opml, .unexpectedStructure, line: 1, column: 13,
            "unexpected element <item>")
        assertRefused(
            "<opml><head><title>a<b>bold</b></title></head><body/></opml>", as: .opml, .unexpectedStructure, line: 1, column: 21,
            "the head field <title> contains the element <b>")
        assertRefused(
            "<opml><head lang=\"en\"/><body/></opml>", as: .opml, .unexpectedStructure, line: 1, column: 13,
            "the attribute 'lang' on <head> is not supported")
        assertRefused("<opml><body/><body/></opml>", as: .opml, .unexpectedStructure, line: 1, column: 14, "a second <body>")
        assertRefused(
            "<opml version=\"2.0\" dir=\"ltr\"><body/></opml>", as: .opml, .unexpectedStructure, line: 1, column: 21,
            "the attribute 'dir' on <opml> is not supported")
    }

    func testErrorDescriptionIsActionable() {
        let error = assertFormatError(try read("<opml>\n<body>\n<outline text=\"a\"\n</body></opml>"))
        XCTAssertEqual(
            error?.description,
            "OPML: not well-formed XML at line 4, column 1: expected an attribute name or '>' "
                + "in the tag <outline>, found '<'; nothing was imported")
        XCTAssertEqual(error?.errorDescription, error?.description)
    }
}
