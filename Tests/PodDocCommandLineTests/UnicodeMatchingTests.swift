import Foundation
import GRDB
import XCTest

/// Case-insensitive listing and finding through the real binary, on a small multilingual
/// corpus: Unicode full case folding, the same for saved rows (SQL) and unsaved objects.
final class UnicodeMatchingTests: CommandLineTestCase {
    /// Names and summaries in Cyrillic, Greek, German, Turkish, Chinese, Japanese and emoji.
    static let names = [
        "Серафими", "СерафимиМногоꙮчитїи", "Über", "ÜberKit", "überall", "Ångström", "Straße", "STRASSEN",
        "Σίσυφος", "İstanbul", "ırmak", "cocoapods制作", "仓库", "カタカナ", "🕕", "AFNetworking", "afnetworking-extras",
    ]

    private func makeCorpus() throws -> String {
        let specs = Self.names.enumerated().map { index, name -> [String: Any] in
            [
                "name": name, "version": "1.0.\(index)", "summary": "一个建立pod仓库的简单demo. \(name)",
                "authors": ["Ада": "ada@example.org"], "license": "MIT", "homepage": "https://example.org/\(index)",
                "source": ["git": "https://example.org/\(index).git", "tag": "1.0.\(index)"], "platforms": ["ios": "9.0"],
            ]
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
        for (prefix, expected) in [
            ("се", 2), ("СЕ", 2), ("серафимимногоꙮ", 1), ("über", 3), ("ÜBER", 3), ("uber", 0),
            ("ångström", 1), ("ÅNGSTRÖM", 1), ("strasse", 2), ("STRAẞE", 2), ("σίσυφ", 1), ("ΣΊΣΥΦΟΣ", 1),
            ("i̇stanbul", 1), ("İSTANBUL", 1), ("ır", 1), ("cocoapods制", 1), ("仓", 1), ("🕕", 1),
            ("afnet", 2), ("AFNET", 2),
        ] {
            let counted = try count(doc, prefix)
            XCTAssertTrue(counted.hasPrefix("\(expected)"), "pods count \(prefix): \(counted)")
        }
        let uber = try succeed("pods", "ls", doc, "über").stdout
        for name in ["Über", "ÜberKit", "überall"] { XCTAssertTrue(uber.contains(name), uber) }
        XCTAssertFalse(uber.contains("Ångström"), uber)
    }

    func testSearchFindsWordsInEveryScriptAndCheckVouchesForTheIndex() throws {
        let doc = try makeCorpus()
        let all = Self.names.count
        for (words, expected) in [
            ("简单", all), ("仓库", all), ("简单 DEMO", all), ("仓库的简", all), ("库", all), ("简单仓库", 0),
            ("カタカナ", 1), ("カタ", 1), ("制作", 1), ("серафими", 2), ("ΣΊΣΥΦΟΣ", 1), ("σισυφος", 1),
            ("strasse", 2), ("über", 3), ("ångström", 1), ("🕕", 0), ("afnetworking", 2),
        ] {
            let found = try succeed("pods", "search", doc, words, "--json").json(SpecListShape.self).specs
            XCTAssertEqual(found.count, expected, "pods search \(words): \(found.map(\.name))")
        }
        let plain = try succeed("pods", "search", doc, "制作").stdout
        XCTAssertTrue(plain.contains("cocoapods制作"), plain)
        XCTAssertTrue(try succeed("check", doc).stdout.contains(": ok"))

        // A search index that lost a row is a fault check reports.
        let store = path("Corpus.poddoc/StoreContent/persistentStore")
        let damage = try DatabaseQueue(path: store)
        try damage.write { try $0.execute(sql: #"DELETE FROM "PodSpec_fts" WHERE rowid = (SELECT min(rowid) FROM "PodSpec_fts")"#) }
        try damage.close()
        let checked = try run(["check", doc])
        XCTAssertEqual(checked.status, 76, checked.stderr)
        XCTAssertTrue(
            (checked.stdout + checked.stderr).contains("1 PodSpec rows are missing from the search index"), checked.stdout + checked.stderr)
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
