import Foundation
import OutlineInterchange
import OutlineTestSupport
import XCTest

/// Tasks, open or done, in every format that has them: OPML's `_status` (OmniOutliner and
/// Fargo), Markdown's checkboxes, the JSON shape's `status`.
final class TaskStatusFormatTests: XCTestCase {
    private func tasks() -> OutlineTree {
        var tree = OutlineTree(opmlVersion: "2.0")
        let trip = tree.appendChild(OutlineItem(title: "Trip", status: .open), to: tree.root)
        tree.appendChild(OutlineItem(title: "Passport", status: .done), to: trip)
        tree.appendChild(OutlineItem(title: "[x] not a task, a title"), to: trip)
        tree.appendChild(OutlineItem(title: "[ ] still a title", status: .done), to: trip)
        tree.appendChild(OutlineItem(title: "Plain"), to: tree.root)
        return tree
    }

    func testOPMLWritesAndReadsStatusAsUnderscoreStatus() throws {
        let tree = tasks()
        let text = String(decoding: try tree.opmlData(), as: UTF8.self)
        XCTAssertTrue(text.contains(#"<outline text="Trip" _status="unchecked">"#), text)
        XCTAssertTrue(text.contains(#"<outline text="Passport" _status="checked"/>"#), text)
        XCTAssertTrue(text.contains(#"<outline text="Plain"/>"#), text)
        XCTAssertEqual(try OutlineTree(opml: try tree.opmlData()), tree)
        // A value OPML tools write that is no open/done state stays an attribute, as it was.
        let other = try OutlineTree(
            opml: Data(#"<opml version="2.0"><head/><body><outline text="a" _status="indeterminate"/></body></opml>"#.utf8))
        let item = try XCTUnwrap(other.children(of: other.root).first.map { other[$0] })
        XCTAssertNil(item.status)
        XCTAssertEqual(item.attributes, [OutlineAttribute("_status", "indeterminate")])
        XCTAssertTrue(String(decoding: try other.opmlData(), as: UTF8.self).contains(#"_status="indeterminate""#))
    }

    func testMarkdownWritesCheckboxesAndATitleThatLooksLikeOneReadsBackAsATitle() throws {
        let tree = tasks()
        XCTAssertEqual(
            tree.markdown(),
            """
            - [ ] Trip
              - [x] Passport
              - \\[x] not a task, a title
              - [x] [ ] still a title
            - Plain

            """)
        var fromMarkdown = try OutlineTree(markdown: tree.markdown())
        fromMarkdown.opmlVersion = "2.0"
        XCTAssertEqual(fromMarkdown, tree)
        let read = try OutlineTree(markdown: "- [X] Upper\n* [ ]\n- [x]Tight\n- [y] other\n")
        XCTAssertEqual(
            read.children(of: read.root).map { read[$0] },
            [
                OutlineItem(title: "Upper", status: .done), OutlineItem(title: "", status: .open), OutlineItem(title: "[x]Tight"),
                OutlineItem(title: "[y] other"),
            ])
    }

    func testJSONKeepsStatusAndRefusesAnotherValue() throws {
        let tree = tasks()
        let json = String(decoding: tree.jsonData(), as: UTF8.self)
        XCTAssertTrue(json.contains(#"{"title":"Passport","note":null,"status":"done","attributes":[]"#), json)
        XCTAssertTrue(json.contains(#"{"title":"Plain","note":null,"attributes":[]"#), "no status key for an item that is no task: \(json)")
        XCTAssertEqual(try OutlineTree(json: tree.jsonData()), tree)
        let bad = #"{"opmlVersion":null,"head":[],"bodyAttributes":[],"children":[{"title":"a","status":"finished","children":[]}]}"#
        XCTAssertThrowsError(try OutlineTree(json: Data(bad.utf8))) { error in
            XCTAssertTrue("\(error)".contains(#"'status' must be "open", "done" or null, not "finished""#), "\(error)")
        }
    }
}
