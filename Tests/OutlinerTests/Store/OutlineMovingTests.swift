import Foundation
import OutlineInterchange
import OutlineTestSupport
import Outliner
import PodDocStore
import XCTest

/// Moving, indenting and outdenting: whole subtrees move, both sibling lists are renumbered,
/// moves into an item's own subtree are refused.
final class OutlineMovingTests: OutlineStoreTestCase {
    /// A: a1 a2 a3 (a2: x y) · B: b1 · C
    private func makeSample() throws -> (TestDocument, [String: ObjectID]) {
        let doc = try makeDocument()
        var tree = OutlineTree()
        let a = tree.appendChild(title: "A", to: tree.root)
        tree.appendChild(title: "a1", to: a)
        let a2 = tree.appendChild(title: "a2", to: a)
        tree.appendChild(title: "x", to: a2)
        tree.appendChild(title: "y", to: a2)
        tree.appendChild(title: "a3", to: a)
        let b = tree.appendChild(title: "B", to: tree.root)
        tree.appendChild(title: "b1", to: b)
        tree.appendChild(title: "C", to: tree.root)
        try doc.outline.importOutline(tree)
        try doc.save()
        doc.undo.removeAllActions()
        var ids: [String: ObjectID] = [:]
        for name in ["A", "a1", "a2", "x", "y", "a3", "B", "b1", "C"] {
            ids[name] = try doc.outline.itemID(at: .titles(path(of: name)))
        }
        return (doc, ids)
    }

    private func path(of name: String) -> [String] {
        switch name {
        case "a1", "a2", "a3": return ["A", name]
        case "x", "y": return ["A", "a2", name]
        case "b1": return ["B", name]
        default: return [name]
        }
    }

    private func printed(_ doc: TestDocument) throws -> String {
        try doc.outline.printTree()
    }

    func testMoveToAnotherParentCarriesTheSubtreeAndRenumbersBothLists() throws {
        let (doc, ids) = try makeSample()
        let before = try printed(doc)
        try doc.outline.move(ids["a2"]!, under: ids["B"]!, at: 0)
        XCTAssertEqual(
            try printed(doc),
            """
            1. A
              1. a1
              2. a3
            2. B
              1. a2
                1. x
                2. y
              2. b1
            3. C

            """)
        XCTAssertEqual(doc.undo.undoActionName, "Move \"a2\"")
        try doc.assertOrderInvariant()
        doc.undo.undo()
        XCTAssertEqual(try printed(doc), before)
        doc.undo.redo()
        try doc.save()
        try doc.assertOrderInvariant()
        XCTAssertEqual(try doc.outline.indexPath(of: ids["y"]!), [2, 1, 2])
    }

    func testMoveWithinTheSameListBothWays() throws {
        let (doc, ids) = try makeSample()
        try doc.outline.move(ids["a1"]!, under: ids["A"]!, at: 2)
        XCTAssertEqual(try doc.outline.children(of: ids["A"]!).map(\.item.title), ["a2", "a3", "a1"])
        try doc.outline.move(ids["a1"]!, under: ids["A"]!, at: 0)
        XCTAssertEqual(try doc.outline.children(of: ids["A"]!).map(\.item.title), ["a1", "a2", "a3"])
        try doc.outline.move(ids["C"]!, under: doc.outline.rootID)
        XCTAssertEqual(try doc.topLevel(), [ids["A"]!, ids["B"]!, ids["C"]!], "appending where it is already last")
        XCTAssertEqual(doc.undo.undoCount, 2, "a move to where the item is records nothing")
        try doc.assertOrderInvariant()
        _ = assertOutlineError(.invalidArgument) { try doc.outline.move(ids["a1"]!, under: ids["A"]!, at: 3) }
    }

    /// A move among siblings finds the item's place by counting in the index; siblings that
    /// share an order key (as a merge of copies can leave them) are told apart by reading
    /// the list instead.
    func testAMoveAmongSiblingsSharingAnOrderKeyKeepsEveryItem() throws {
        let (doc, ids) = try makeSample()
        let context = doc.outline.context
        context.object(with: ids["a3"]!)[OutlineSchema.order] = context.object(with: ids["a1"]!)[OutlineSchema.order]
        try doc.save()
        try doc.outline.move(ids["a3"]!, under: ids["A"]!, at: 2)
        let titles = try doc.outline.children(of: ids["A"]!).map(\.item.title)
        XCTAssertEqual(titles.sorted(), ["a1", "a2", "a3"], "no item lost or doubled")
        XCTAssertEqual(titles.last, "a3")
        try doc.outline.move(ids["a3"]!, under: ids["A"]!, at: 0)
        XCTAssertEqual(try doc.outline.children(of: ids["A"]!).map(\.item.title).first, "a3")
    }

    func testMovingIntoItselfOrItsDescendantsIsRefusedAndChangesNothing() throws {
        let (doc, ids) = try makeSample()
        let before = try doc.rows()
        let itself = assertOutlineError(.moveIntoItself) { try doc.outline.move(ids["A"]!, under: ids["A"]!) }
        XCTAssertEqual(itself?.message, "Cannot move \"A\" under itself. Move it somewhere outside its own subtree.")
        let below = assertOutlineError(.moveIntoItself) { try doc.outline.move(ids["A"]!, under: ids["y"]!) }
        XCTAssertEqual(below?.message, "Cannot move \"A\" into \"y\", which is inside it. Move it somewhere outside its own subtree.")
        _ = assertOutlineError(.moveIntoItself) { try doc.outline.move(ids["a2"]!, under: ids["x"]!) }
        XCTAssertEqual(try doc.rows(), before)
        XCTAssertFalse(doc.undo.canUndo)
        // Unsaved moves count too: once x is moved under B, A may go under x.
        try doc.outline.move(ids["x"]!, under: ids["B"]!)
        try doc.outline.move(ids["A"]!, under: ids["x"]!)
        XCTAssertEqual(try doc.outline.indexPath(of: ids["y"]!), [1, 2, 1, 2, 1])
        try doc.assertOrderInvariant()
    }

    func testIndentAndOutdent() throws {
        let (doc, ids) = try makeSample()
        try doc.outline.indent(ids["a3"]!)
        XCTAssertEqual(doc.undo.undoActionName, "Indent \"a3\"")
        XCTAssertEqual(try doc.outline.children(of: ids["a2"]!).map(\.item.title), ["x", "y", "a3"])
        try doc.outline.outdent(ids["x"]!)
        XCTAssertEqual(doc.undo.undoActionName, "Outdent \"x\"")
        XCTAssertEqual(try doc.outline.children(of: ids["A"]!).map(\.item.title), ["a1", "a2", "x"])
        XCTAssertEqual(try doc.outline.children(of: ids["a2"]!).map(\.item.title), ["y", "a3"], "the items after it stay")
        try doc.outline.outdent(ids["a1"]!)
        XCTAssertEqual(try doc.topLevel(), [ids["A"]!, ids["a1"]!, ids["B"]!, ids["C"]!])
        try doc.assertOrderInvariant()

        let first = assertOutlineError(.cannotIndent) { try doc.outline.indent(ids["A"]!) }
        XCTAssertEqual(first?.message, "Cannot indent \"A\": it is the first item of its list, so there is no item above it to go under.")
        let top = assertOutlineError(.cannotOutdent) { try doc.outline.outdent(ids["B"]!) }
        XCTAssertEqual(top?.message, "Cannot outdent \"B\": it is already at the top level.")

        doc.undo.undo()
        doc.undo.undo()
        doc.undo.undo()
        XCTAssertEqual(try doc.outline.children(of: ids["A"]!).map(\.item.title), ["a1", "a2", "a3"])
        XCTAssertEqual(try doc.outline.children(of: ids["a2"]!).map(\.item.title), ["x", "y"])
        try doc.assertOrderInvariant()
    }
}
