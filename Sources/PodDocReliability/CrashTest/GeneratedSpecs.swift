import Foundation

// MARK: - GeneratedSpecs

/// A page of made-up pod specs for pods crash tests when no page file is given, so that an
/// installed `poddoc` runs every crash test from any folder.
///
/// The specs have the shape of the CocoaPods trunk's (name, version, summary, authors,
/// license, homepage, source, platforms), several versions per name as real pods do, and
/// summaries in several scripts; the same count always gives the same page.
enum GeneratedSpecs {
    /// The page, as `{"number_of_pages": 1, "result": [...]}` holds it: `count` specs.
    static func page(count: Int = 300) -> [String: Any] {
        ["number_of_pages": 1, "result": (0..<count).map(spec)]
    }

    private static let words = [
        "Alamo", "Kit", "Swift", "JSON", "Image", "Cache", "Network", "Layout", "Chart", "Log",
        "Auth", "Store", "Sync", "Map", "Color", "Font", "Video", "Audio", "Crypto", "Zip",
    ]
    private static let summaries = [
        "A small library for everyday tasks.",
        "Eine kleine Bibliothek für alltägliche Aufgaben.",
        "Небольшая библиотека для повседневных задач.",
        "一个建立pod仓库的简单demo.",
        "日常のタスクのための小さなライブラリ。",
        "Μια μικρή βιβλιοθήκη 🕕.",
    ]

    private static func spec(_ index: Int) -> [String: Any] {
        let nameIndex = index / 3
        let name =
            words[nameIndex % words.count] + words[(nameIndex / words.count + 3) % words.count]
            + (nameIndex >= 2 * words.count ? "\(nameIndex)" : "")
        let version = "\(1 + index % 3).\(nameIndex % 7).\(index % 5)"
        return [
            "name": name,
            "version": version,
            "summary": summaries[index % summaries.count],
            "authors": ["Author \(nameIndex)": "author\(nameIndex)@example.com"],
            "license": index % 4 == 0 ? "Apache 2.0" : "MIT",
            "homepage": "https://example.com/\(name)",
            "source": ["git": "https://example.com/\(name).git", "tag": version],
            "platforms": ["ios": "\(8 + index % 9).0"],
            "requires_arc": true,
        ]
    }
}
