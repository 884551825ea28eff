import OutlineInterchange
import PodDocRandom

// MARK: - TreeGenerator

/// Builds outlines for round-trip tests.
public enum TreeGenerator {
    /// Texts that stress every format's escaping.
    public static let trickyTexts = [
        "", " leading space", "trailing space ", "  ", " ", "tab\tinside", "\ttab first", "back\\slash",
        "ends with backslash\\", "\\", "\\n is not a newline", "\\s", "line\nbreak", "ends with newline\n",
        "\n", "carriage\rreturn", "crlf\r\nbreak", "- looks like an item", "* star", "+ plus", "1. numbered",
        "12) parenthesis", "# heading", "#hashtag", "&amp; <b>bold</b> \"quoted\" 'apos' > < &",
        "中文标题 导出订阅", "emoji 🎉 and combining e\u{301}", "ÇÉÑ àé", "]]> and <![CDATA[", "C:\\Users\\new",
        "{\"json\": [1, 2]}", "plain title",
    ]

    /// Attribute names seen in real OPML.
    public static let attributeNames = ["type", "xmlUrl", "created", "isComment", "collapse", "dc:creator", "url"]

    /// A random outline of `count` items, at most `maxDepth` deep.
    public static func random(
        seed: UInt64, count: Int, maxDepth: Int = 8, notes: Bool = true, attributes: Bool = true
    ) -> OutlineTree {
        var random = SeededRandom(seed: seed)
        var tree = OutlineTree(
            opmlVersion: "2.0",
            head: [
                OutlineAttribute("title", trickyTexts.randomElement(using: &random)!),
                OutlineAttribute("dateCreated", "Sat, 07 Sep 2024 14:18:41 GMT"),
                OutlineAttribute("expansionState", ""),
            ])
        var path: [OutlineTree.NodeID] = []
        for number in 0..<count {
            let level = Int.random(in: 0...min(path.count, maxDepth - 1), using: &random)
            path.removeSubrange(level...)
            var item = OutlineItem(title: trickyTexts.randomElement(using: &random)! + (number % 3 == 0 ? " #\(number)" : ""))
            if notes && Bool.random(using: &random) {
                item.note = trickyTexts.randomElement(using: &random)!
            }
            if attributes {
                for name in attributeNames.shuffled(using: &random).prefix(Int.random(in: 0...3, using: &random)) {
                    item.attributes.append(OutlineAttribute(name, trickyTexts.randomElement(using: &random)!))
                }
            }
            path.append(tree.appendChild(item, to: path.last ?? tree.root))
        }
        return tree
    }

    /// A chain: each item is the only child of the one before, `depth` items in all.
    public static func chain(depth: Int) -> OutlineTree {
        var tree = OutlineTree(opmlVersion: "2.0")
        var parent = tree.root
        for level in 1...depth {
            parent = tree.appendChild(
                OutlineItem(title: "level \(level)", note: level % 1000 == 0 ? "note \(level)" : nil),
                to: parent)
        }
        return tree
    }
}
