import Foundation
import OutlineInterchange
import Outliner
import PodDocStore
import XCTest

/// Paths, index paths, search and printing.
final class OutlineNavigationTests: OutlineStoreTestCase {
    /// 1 Groceries (1.1 Milk, 1.2 Eggs, 1.3 Milk) · 2 Work/Q3 (2.1 Plan milk delivery) · 3 2024
    private func makeSample() throws -> TestDocument {
        let doc = try makeDocument()
        var tree = OutlineTree()
        let groceries = tree.appendChild(title: "Groceries", to: tree.root)
        tree.appendChild(title: "Milk", to: groceries)
        tree.appendChild(title: "Eggs", note: "a dozen", to: groceries)
        tree.appendChild(title: "Milk", to: groceries)
        let work = tree.appendChild(title: "Work/Q3", to: tree.root)
        tree.appendChild(title: "Plan MILK delivery", to: work)
        tree.appendChild(title: "2024", to: tree.root)
        try doc.outline.importOutline(tree)
        return doc
    }

    func testParsingPaths() throws {
        XCTAssertEqual(try OutlinePath(parsing: "1.3.2"), .indexes([1, 3, 2]))
        XCTAssertEqual(try OutlinePath(parsing: ""), .indexes([]))
        XCTAssertEqual(try OutlinePath(parsing: "/"), .indexes([]))
        XCTAssertEqual(try OutlinePath(parsing: "Work/Projects"), .titles(["Work", "Projects"]))
        XCTAssertEqual(try OutlinePath(parsing: "/2024"), .titles(["2024"]))
        XCTAssertEqual(try OutlinePath(parsing: "/Work\\/Q3/a\\\\b"), .titles(["Work/Q3", "a\\b"]))
        XCTAssertEqual(try OutlinePath(parsing: "1.x"), .titles(["1.x"]))
        for bad in ["0", "1..2", "1.", ".1", "Work//Q3", "Work/", "a\\b", "trailing\\"] {
            _ = assertOutlineError(.invalidPath) { _ = try OutlinePath(parsing: bad) }
        }
        for path in [OutlinePath.indexes([1, 3, 2]), .titles(["Work/Q3", "a\\b", "2024"])] {
            XCTAssertEqual(try OutlinePath(parsing: path.description), path, path.description)
        }
    }

    func testItemsByIndexPathAndTitlePath() throws {
        let doc = try makeSample()
        let outline = doc.outline
        let eggs = try outline.itemID(at: OutlinePath(parsing: "1.2"))
        XCTAssertEqual(try outline.item(eggs).item.note, "a dozen")
        XCTAssertEqual(try outline.itemID(at: OutlinePath(parsing: "Groceries/Eggs")), eggs)
        XCTAssertEqual(
            try outline.itemID(at: OutlinePath(parsing: "/Work\\/Q3/Plan MILK delivery")),
            try outline.itemID(at: .indexes([2, 1])))
        XCTAssertEqual(try outline.itemID(at: OutlinePath(parsing: "/2024")), try outline.itemID(at: .indexes([3])))
        XCTAssertEqual(try outline.itemID(at: .indexes([])), outline.rootID)
        XCTAssertEqual(try outline.indexPath(of: eggs), [1, 2])
        XCTAssertEqual(try outline.indexPath(of: outline.rootID), [])

        let missing = assertOutlineError(.notFound) { _ = try outline.itemID(at: .indexes([1, 7])) }
        XCTAssertEqual(missing?.message, "There is no item 1.7: item 1 has 3 children.")
        let top = assertOutlineError(.notFound) { _ = try outline.itemID(at: .indexes([4])) }
        XCTAssertEqual(top?.message, "There is no item 4: the outline has 3 children.")
        let title = assertOutlineError(.notFound) { _ = try outline.itemID(at: .titles(["Groceries", "Tea"])) }
        XCTAssertEqual(title?.message, "There is no item titled \"Tea\" in item 1.")
        let twice = assertOutlineError(.ambiguousPath) { _ = try outline.itemID(at: .titles(["Groceries", "Milk"])) }
        XCTAssertEqual(twice?.message, "2 items are titled \"Milk\" in item 1 (1.1, 1.3); address the one you mean by its index path.")
    }

    func testFindMatchesEveryWordInOutlineOrder() throws {
        let doc = try makeSample()
        let matches = try doc.outline.find("milk")
        XCTAssertEqual(matches.map(\.indexPath), [[1, 1], [1, 3], [2, 1]])
        XCTAssertEqual(matches.map(\.title), ["Milk", "Milk", "Plan MILK delivery"])
        XCTAssertEqual(try doc.outline.find("  delivery   plan ").map(\.indexPath), [[2, 1]])
        XCTAssertEqual(try doc.outline.find("milk tea"), [])
        XCTAssertEqual(try doc.outline.find("milk", limit: 1).count, 1)
        _ = assertOutlineError(.invalidArgument) { _ = try doc.outline.find("   ") }
        _ = assertOutlineError(.invalidArgument) { _ = try doc.outline.find("milk", limit: 0) }
        // Unsaved edits are found too.
        try doc.outline.rename(doc.outline.itemID(at: .indexes([1, 2])), to: "Eggs and milk")
        XCTAssertEqual(try doc.outline.find("milk").map(\.indexPath), [[1, 1], [1, 2], [1, 3], [2, 1]])
    }

    func testPrintingWithAndWithoutADepthLimit() throws {
        let doc = try makeSample()
        try doc.outline.add(OutlineItem(title: "Line\nbreak"), under: doc.outline.itemID(at: .indexes([2, 1])))
        XCTAssertEqual(
            try doc.outline.printTree(),
            """
            1. Groceries
              1. Milk
              2. Eggs
              3. Milk
            2. Work/Q3
              1. Plan MILK delivery
                1. Line\\nbreak
            3. 2024

            """)
        XCTAssertEqual(try doc.outline.printTree(maxDepth: 1), "1. Groceries\n2. Work/Q3\n3. 2024\n")
        XCTAssertEqual(try doc.outline.printTree(from: doc.outline.itemID(at: .indexes([2])), maxDepth: 1), "1. Plan MILK delivery\n")
        XCTAssertEqual(try doc.outline.printTree(from: doc.outline.itemID(at: .indexes([3]))), "")
        _ = assertOutlineError(.invalidArgument) { _ = try doc.outline.printTree(maxDepth: 0) }
    }

    func testDeepLinesStopMovingRightAndShowTheirDepth() throws {
        let doc = try makeDocument()
        var parent = doc.outline.rootID
        for level in 1...35 { parent = try doc.outline.add(OutlineItem(title: "L\(level)"), under: parent) }
        let lines = try doc.outline.printTree().split(separator: "\n")
        XCTAssertEqual(lines.count, 35)
        XCTAssertEqual(lines[32], Substring(String(repeating: "  ", count: 32) + "1. L33"))
        XCTAssertEqual(lines[33], Substring(String(repeating: "  ", count: 32) + "[34] 1. L34"))
        XCTAssertEqual(lines[34], Substring(String(repeating: "  ", count: 32) + "[35] 1. L35"))
    }
}
