import Foundation
import XCTest

/// Text from documents reaches a terminal escaped: control characters and bidirectional
/// overrides in titles and specs are shown, not obeyed; `--json` and exports keep them.
final class TerminalOutputTests: CommandLineTestCase {
    static let hostile = "red \u{1B}[31malert\u{7} two\nlines \u{202E}desrever"

    func testOutlineTitlesAreShownNotObeyed() throws {
        let doc = path("T.poddoc")
        try succeed("new", doc, "--kind", "outline")
        try succeed("outline", "add", doc, Self.hostile)
        for arguments in [["outline", "ls", doc], ["outline", "tree", doc], ["outline", "find", doc, "red"]] {
            let printed = try run(arguments)
            XCTAssertEqual(printed.status, 0, printed.stderr)
            for raw in ["\u{1B}", "\u{7}", "\u{202E}"] {
                XCTAssertFalse(printed.stdout.contains(raw), "\(arguments[1]): \(printed.stdout.debugDescription)")
            }
            XCTAssertTrue(
                printed.stdout.contains(#"red \u{1B}[31malert\u{7} two\nlines \u{202E}desrever"#), "\(arguments[1]): \(printed.stdout)")
            XCTAssertEqual(printed.stdout.split(separator: "\n").count, 1, "one line: \(printed.stdout)")
        }
        let json = try succeed("outline", "ls", doc, "--json").stdout
        let decoded = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
        let entries = decoded?["entries"] as? [[String: Any]] ?? decoded?["items"] as? [[String: Any]] ?? []
        XCTAssertEqual(entries.first?["title"] as? String, Self.hostile, "--json keeps the title as it is: \(json)")
        try succeed("export", doc, path("t.md"), "--format", "markdown")
        XCTAssertTrue(try String(contentsOfFile: path("t.md"), encoding: .utf8).contains("\u{1B}[31malert\u{7}"), "Markdown keeps them")
        let opml = try run(["export", doc, path("t.opml"), "--format", "opml"])
        XCTAssertNotEqual(opml.status, 0, "XML cannot hold ESC")
        XCTAssertFalse(opml.stderr.contains("\u{1B}"), opml.stderr.debugDescription)
    }
}
