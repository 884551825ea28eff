import Foundation
import OutlineInterchange
import OutlineTestSupport
import Outliner
import PodDocStore
import XCTest

/// A chain 100,000 items deep and a subtree of 100,000 items, through every operation that
/// walks a tree: import, save, export, print, paths, search, move, delete, undo and redo.
/// Nothing may recurse, and nothing may cost one query per level.
final class OutlineScaleTests: OutlineStoreTestCase {
    private static let size = 100_000

    func testAHundredThousandDeepChain() throws {
        let doc = try makeDocument()
        let chain = TreeGenerator.chain(depth: Self.size)
        let top = try doc.outline.importOutline(chain)[0]
        try doc.save()
        let deepest = try doc.outline.find("level \(Self.size)", limit: 5)
        XCTAssertEqual(deepest.count, 1)
        XCTAssertEqual(deepest[0].indexPath, Array(repeating: 1, count: Self.size))
        XCTAssertEqual(try doc.outline.exportOutline(), chain)

        let lines = try doc.outline.printTree().split(separator: "\n")
        XCTAssertEqual(lines.count, Self.size)
        XCTAssertEqual(
            lines.last, Substring(String(repeating: "  ", count: OutlineStore.printedIndentLimit) + "[\(Self.size)] 1. level \(Self.size)"))
        XCTAssertEqual(try doc.outline.printTree(maxDepth: 2), "1. level 1\n  1. level 2\n")

        // Cut the chain in half: the lower half moves to the top level in one step.
        let middle = try doc.outline.itemID(at: .titles((1...3).map { "level \($0)" }))
        XCTAssertEqual(try doc.outline.indexPath(of: middle), [1, 1, 1])
        let half = try XCTUnwrap(doc.outline.find("level 50001", limit: 1).first)
        try doc.outline.move(half.id, under: doc.outline.rootID)
        XCTAssertEqual(try doc.outline.indexPath(of: deepest[0].id).count, Self.size / 2)
        _ = assertOutlineError(.moveIntoItself) { try doc.outline.move(half.id, under: deepest[0].id) }
        try doc.outline.move(top, under: deepest[0].id)
        XCTAssertEqual(try doc.outline.indexPath(of: middle).count, Self.size / 2 + 3, "the chain joined again, upside down")
        doc.undo.undo()
        doc.undo.undo()
        XCTAssertEqual(try doc.outline.indexPath(of: deepest[0].id).count, Self.size)

        let ids = Set(try doc.main.fetchIDs(FetchRequest(OutlineSchema.entityName)))
        XCTAssertEqual(try doc.outline.delete(top), Self.size)
        XCTAssertEqual(doc.undo.undoActionName, "Delete \"level 1\" and 99,999 items")
        XCTAssertEqual(try doc.outline.printTree(), "")
        doc.undo.undo()
        XCTAssertEqual(Set(try doc.main.fetchIDs(FetchRequest(OutlineSchema.entityName))), ids, "the same items, under the same IDs")
        XCTAssertEqual(try doc.outline.exportOutline(), chain)
        doc.undo.redo()
        XCTAssertEqual(try doc.main.count(for: FetchRequest(OutlineSchema.entityName)), 1)
    }

    func testAHundredThousandItemSubtree() throws {
        let doc = try makeDocument()
        var tree = OutlineTree()
        let archive = tree.appendChild(title: "Archive", to: tree.root)
        for year in 0..<100 {
            let node = tree.appendChild(title: "Year \(year)", to: archive)
            for month in 0..<9 {
                let folder = tree.appendChild(title: "Month \(year).\(month)", to: node)
                for note in 0..<110 { tree.appendChild(title: "Note \(year).\(month).\(note)", to: folder) }
            }
        }
        XCTAssertEqual(tree.count, Self.size + 1)
        tree.appendChild(title: "Inbox", to: tree.root)
        let today = tree.appendChild(title: "Today", to: tree.root)
        tree.appendChild(title: "Call", to: today)
        try doc.outline.importOutline(tree)
        try doc.save()
        let ids = (archive: try doc.outline.itemID(at: .indexes([1])), inbox: try doc.outline.itemID(at: .indexes([2])))
        let before = try doc.rows()

        try doc.outline.move(ids.archive, under: ids.inbox)
        XCTAssertEqual(try doc.outline.printTree(maxDepth: 2), "1. Inbox\n  1. Archive\n2. Today\n  1. Call\n")
        let note = try XCTUnwrap(doc.outline.find("Note 99.8.109").first)
        XCTAssertEqual(note.indexPath, [1, 1, 100, 9, 110])
        doc.undo.undo()
        XCTAssertEqual(try doc.outline.indexPath(of: note.id), [1, 100, 9, 110])

        XCTAssertEqual(try doc.outline.delete(ids.archive), Self.size + 1)
        XCTAssertEqual(doc.undo.undoActionName, "Delete \"Archive\" and 100,000 items")
        XCTAssertEqual(try doc.outline.printTree(), "1. Inbox\n2. Today\n  1. Call\n")
        try doc.save()
        doc.undo.undo()
        XCTAssertEqual(try doc.outline.printTree(maxDepth: 1), "1. Archive\n2. Inbox\n3. Today\n")
        try doc.save()
        XCTAssertEqual(try TestDocument(url: doc.url).rows(), before, "back on disk under the same IDs, every value as it was")
        doc.undo.redo()
        XCTAssertEqual(try doc.main.count(for: FetchRequest(OutlineSchema.entityName)), 4)
    }
}
