import Foundation
import OutlineInterchange
import OutlineTestSupport
import XCTest

/// The OPML reader decodes every encoding a document may declare, and refuses bad bytes.
final class OPMLEncodingTests: XCTestCase {
    private func document(encoding: String?, title: String) -> String {
        let declaration = encoding.map { "<?xml version=\"1.0\" encoding=\"\($0)\"?>\n" } ?? ""
        return declaration + "<opml version=\"2.0\"><body><outline text=\"\(title)\"/></body></opml>"
    }

    private func onlyTitle(_ data: Data) throws -> String {
        let tree = try OutlineTree(opml: data)
        return tree[tree.topLevel[0]].title
    }

    // MARK: - Accepted

    func testSingleByteEncodings() throws {
        var latin1 = Data(document(encoding: "ISO-8859-1", title: "caf_").utf8)
        latin1[latin1.firstIndex(of: UInt8(ascii: "_"))!] = 0xE9
        XCTAssertEqual(try onlyTitle(latin1), "café")

        var windows = Data(document(encoding: "windows-1252", title: "_price_ 5_").utf8)
        for (offset, byte) in zip(windows.indices.filter { windows[$0] == UInt8(ascii: "_") }, [0x93, 0x94, 0x80] as [UInt8]) {
            windows[offset] = byte
        }
        XCTAssertEqual(try onlyTitle(windows), "“price” 5€")
    }

    func testUTF16WithAndWithoutByteOrderMark() throws {
        let text = document(encoding: "UTF-16", title: "中文 é 🎉")
        let littleEndian = Data([0xFF, 0xFE]) + text.data(using: .utf16LittleEndian)!
        let bigEndian = Data([0xFE, 0xFF]) + text.data(using: .utf16BigEndian)!
        let noMark = text.data(using: .utf16LittleEndian)!
        for data in [littleEndian, bigEndian, noMark] {
            XCTAssertEqual(try onlyTitle(data), "中文 é 🎉")
        }
    }

    func testUTF8ByteOrderMarkAndNoDeclaration() throws {
        XCTAssertEqual(try onlyTitle(Data([0xEF, 0xBB, 0xBF]) + Data(document(encoding: "UTF-8", title: "ok").utf8)), "ok")
        XCTAssertEqual(try onlyTitle(Data(document(encoding: nil, title: "中文").utf8)), "中文")
    }

    func testLineEndsAreNormalized() throws {
        let text =
            "<opml version=\"2.0\">\r\n<head><title>a\r\nb\rc</title></head>\r<body>"
            + "<outline text=\"x\r\ny\" _note=\"p&#13;&#10;q\"/></body></opml>"
        let tree = try OutlineTree(opml: Data(text.utf8))
        XCTAssertEqual(tree.head, [OutlineAttribute("title", "a\nb\nc")])
        // A literal line break in an attribute is white space (a space); a reference is kept.
        XCTAssertEqual(tree[tree.topLevel[0]], OutlineItem(title: "x y", note: "p\r\nq"))
    }

    func testMarkupThatIsSkippedOrKept() throws {
        let text = """
            <?xml version='1.0' encoding='utf-8'?>
            <!-- generator comment -->
            <?app-hint keep?>
            <opml version="2.0" xmlns:dc="http://purl.org/dc/elements/1.1/">
              <head><title><![CDATA[<b>raw</b> & more]]> &#x4E2D;&#25991; &apos;q&apos;</title></head>
              <body><!-- c --><outline text="a" dc:creator="Ann"><?pi x?></outline></body>
            </opml>
            """
        let tree = try OutlineTree(opml: Data(text.utf8))
        XCTAssertEqual(tree.head, [OutlineAttribute("title", "<b>raw</b> & more 中文 'q'")])
        XCTAssertEqual(tree[tree.topLevel[0]].attributes, [OutlineAttribute("dc:creator", "Ann")])
    }

    // MARK: - Refused

    func testInvalidUTF8IsRefusedWithItsPlace() {
        var data = Data(document(encoding: "UTF-8", title: "ab_").utf8)
        data[data.firstIndex(of: UInt8(ascii: "_"))!] = 0xE9
        let error = assertFormatError(try OutlineTree(opml: data))
        XCTAssertEqual(error?.code, .invalidEncoding)
        XCTAssertEqual(error?.line, 2)
        XCTAssertEqual(error?.column, 44)
        XCTAssertEqual(error?.message.hasPrefix("byte 0xE9 is not valid UTF-8"), true)
    }

    func testBytesOutsideUSASCIIAreRefused() {
        var data = Data(document(encoding: "US-ASCII", title: "_").utf8)
        data[data.firstIndex(of: UInt8(ascii: "_"))!] = 0xE9
        XCTAssertEqual(assertFormatError(try OutlineTree(opml: data))?.code, .invalidEncoding)
    }

    func testUnsupportedAndConflictingEncodings() {
        let eucJP = assertFormatError(try OutlineTree(opml: Data(document(encoding: "EUC-JP", title: "a").utf8)))
        XCTAssertEqual(eucJP?.code, .unsupportedEncoding)
        XCTAssertEqual(eucJP?.line, 1)
        XCTAssertEqual(eucJP?.column, 31)

        let marked = Data([0xEF, 0xBB, 0xBF]) + Data(document(encoding: "ISO-8859-1", title: "a").utf8)
        XCTAssertEqual(assertFormatError(try OutlineTree(opml: marked))?.code, .invalidEncoding)

        let utf32 = Data([0x00, 0x00, 0xFE, 0xFF, 0x00, 0x00, 0x00, 0x3C])
        XCTAssertEqual(assertFormatError(try OutlineTree(opml: utf32))?.code, .unsupportedEncoding)

        let declaredUTF16 = Data(document(encoding: "UTF-16", title: "a").utf8)
        XCTAssertEqual(assertFormatError(try OutlineTree(opml: declaredUTF16))?.code, .invalidEncoding)
    }

    func testCharactersXMLForbidsAreRefused() {
        let error = assertFormatError(try OutlineTree(opml: Data(document(encoding: nil, title: "a\u{1}b").utf8)))
        XCTAssertEqual(error?.code, .notWellFormed)
        XCTAssertEqual(error?.column, 43)
        XCTAssertEqual(error?.message, "the character U+0001 is not allowed in XML")
    }
}
