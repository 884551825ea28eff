import Foundation
import XCTest

/// Case-insensitive listing and finding through the real binary, on a small multilingual
/// corpus: Unicode full case folding, the same for saved rows (SQL) and unsaved objects.
final class UnicodeMatchingTests: CommandLineTestCase {
    /// Names and summaries in Cyrillic, Greek, German, Turkish, Chinese, Japanese and emoji.
    static let names = ["Серафими", "СерафимиМногоꙮчитїи", "Über", "ÜberKit", "überall", "Ångström", "Straße", "STRASSEN",
                        "Σίσυφος", "İstanbul", "ırmak", "cocoapods制作", "仓库", "カタカナ", "🕕", "AFNetworking", "afnetworking-extras"]

    private func makeCorpus() throws -> String {
        let specs = Self.names.enumerated().map { index, name -> [String: Any] in
            ["name": name, "version": "1.0.\(index)", "summary": "一个建立pod仓库的简单demo. \(name)",
             "authors": ["Ада": "ada@example.org"], "license": "MIT", "homepage": "https://example.org/\(index)",
             "source": ["git": "https://example.org/\(index).git", "tag": "1.0.\(index)"], "platforms": ["ios": "9.0"]]
        }
        let page = try JSONSerialization.data(withJSONObject: ["number_of_pages": 1, "result": specs], options: [.sortedKeys])
        try page.write(to: URL(fileURLWithPath: path("corpus.json")))
        let doc = path("Corpus.poddoc")
        try succeed("new", doc, "--kind", "pods")
        try succeed("import", doc, "--from", path("corpus.json"))
        return doc
    }

    private func count(_ doc: String, _ prefix: String) throws -> String {
        try succeed("pods", "count", doc, prefix).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func testPodNamesMatchWhateverTheirCase() throws {
        let doc = try makeCorpus()
        for (prefix, expected) in [("се", 2), ("СЕ", 2), ("серафимимногоꙮ", 1), ("über", 3), ("ÜBER", 3), ("uber", 0),
                                   ("ångström", 1), ("ÅNGSTRÖM", 1), ("strasse", 2), ("STRAẞE", 2), ("σίσυφ", 1), ("ΣΊΣΥΦΟΣ", 1),
                                   ("i̇stanbul", 1), ("İSTANBUL", 1), ("ır", 1), ("cocoapods制", 1), ("仓", 1), ("🕕", 1),
                                   ("afnet", 2), ("AFNET", 2)] {
            let counted = try count(doc, prefix)
            XCTAssertTrue(counted.hasPrefix("\(expected)"), "pods count \(prefix): \(counted)")
        }
        let uber = try succeed("pods", "ls", doc, "über").stdout
        for name in ["Über", "ÜberKit", "überall"] { XCTAssertTrue(uber.contains(name), uber) }
        XCTAssertFalse(uber.contains("Ångström"), uber)
    }

    func testOutlineFindFoldsCaseInSavedAndUnsavedItems() throws {
        let doc = path("Notes.poddoc")
        try succeed("new", doc, "--kind", "outline")
        for title in ["Über alles", "über den Wolken", "Straße", "Серафими", "ΣΊΣΥΦΟΣ", "plain"] {
            try succeed("outline", "add", doc, title)
        }
        for (query, expected) in [("ÜBER", 2), ("über", 2), ("ueber", 0), ("STRASSE", 1), ("серафими", 1), ("σίσυφος", 1)] {
            let found = try succeed("outline", "find", doc, query).stdout
            let lines = found.split(separator: "\n").filter { $0 != "No item matches." }
            XCTAssertEqual(lines.count, expected, "find \(query): \(found)")
        }
        // Unsaved items in the shell match as saved rows do.
        let shell = try succeed("open", doc, "-c", #"add "ÜBERMORGEN"; find über"#).stdout
        XCTAssertTrue(shell.contains("ÜBERMORGEN") && shell.contains("Über alles"), shell)
    }
}
