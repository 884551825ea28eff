import OutlineInterchange
import OutlineTestSupport
import XCTest

final class OutlineTreeTests: XCTestCase {
    // MARK: - Building and walking

    private func makeTrip() -> OutlineTree {
        var tree = OutlineTree(head: [OutlineAttribute("title", "Trip")])
        let packing = tree.appendChild(title: "Packing", to: tree.root)
        tree.appendChild(title: "Passport", note: "Check the expiry date", to: packing)
        let clothes = tree.appendChild(title: "Clothes", attributes: [OutlineAttribute("type", "list")], to: packing)
        tree.appendChild(title: "Socks", to: clothes)
        tree.appendChild(title: "Tickets", to: tree.root)
        return tree
    }

    func testAppendKeepsOrderAndParents() {
        let tree = makeTrip()
        XCTAssertEqual(tree.count, 5)
        XCTAssertFalse(tree.isEmpty)
        let top = tree.topLevel
        XCTAssertEqual(top.map { tree[$0].title }, ["Packing", "Tickets"])
        let packingChildren = tree.children(of: top[0])
        XCTAssertEqual(packingChildren.map { tree[$0].title }, ["Passport", "Clothes"])
        XCTAssertEqual(tree.parent(of: packingChildren[1]), top[0])
        XCTAssertEqual(tree.parent(of: top[0]), tree.root)
        XCTAssertNil(tree.parent(of: tree.root))
        XCTAssertEqual(tree[packingChildren[0]].note, "Check the expiry date")
        XCTAssertEqual(tree[packingChildren[1]].attributes, [OutlineAttribute("type", "list")])
    }

    func testDepthFirstVisitsInPreOrderWithDepth() {
        let tree = makeTrip()
        XCTAssertEqual(tree.outlineSummary, ["1:Packing", "2:Passport", "2:Clothes", "3:Socks", "1:Tickets"])
        XCTAssertEqual(tree.maxDepth, 3)
    }

    func testTheWalkOfSomeTopLevelItemsAndTheSizeOfEach() {
        let tree = makeTrip()
        XCTAssertEqual(tree.topLevelSubtreeSizes, [4, 1])
        func walk(_ range: Range<Int>) -> [String] { tree.depthFirst(topLevel: range).map { "\($0.depth):\($0.item.title)" } }
        XCTAssertEqual(walk(0..<1), ["1:Packing", "2:Passport", "2:Clothes", "3:Socks"])
        XCTAssertEqual(walk(1..<2), ["1:Tickets"])
        XCTAssertEqual(walk(0..<2), tree.outlineSummary)
        XCTAssertEqual(walk(2..<2), [])
        XCTAssertEqual(OutlineTree().topLevelSubtreeSizes, [])
    }

    func testEmptyTree() {
        let tree = OutlineTree()
        XCTAssertTrue(tree.isEmpty)
        XCTAssertEqual(tree.count, 0)
        XCTAssertEqual(tree.maxDepth, 0)
        XCTAssertEqual(Array(tree.depthFirst()).count, 0)
        XCTAssertEqual(tree, OutlineTree())
    }

    func testSubscriptSetterChangesOnlyThatItem() {
        var tree = makeTrip()
        let tickets = tree.topLevel[1]
        tree[tickets].title = "Train tickets"
        tree[tickets].note = "Platform 9"
        XCTAssertEqual(tree.outlineSummary.last, "1:Train tickets")
        XCTAssertEqual(tree[tickets].note, "Platform 9")
        XCTAssertNotEqual(tree, makeTrip())
    }

    // MARK: - Equality

    func testEqualityIgnoresBuildOrder() {
        // Same outline, built children-last instead of depth-first.
        var other = OutlineTree(head: [OutlineAttribute("title", "Trip")])
        let packing = other.appendChild(title: "Packing", to: other.root)
        other.appendChild(title: "Tickets", to: other.root)
        other.appendChild(title: "Passport", note: "Check the expiry date", to: packing)
        let clothes = other.appendChild(title: "Clothes", attributes: [OutlineAttribute("type", "list")], to: packing)
        other.appendChild(title: "Socks", to: clothes)
        XCTAssertEqual(makeTrip(), other)
    }

    func testEqualityNoticesEveryKindOfDifference() {
        let trip = makeTrip()
        let socks = trip.children(of: trip.children(of: trip.topLevel[0])[1])[0]

        var title = trip
        title[socks].title = "Sock"
        var note = trip
        note[socks].note = ""
        var attribute = trip
        attribute[socks].attributes = [OutlineAttribute("type", "x")]
        var extraChild = trip
        extraChild.appendChild(title: "Wool", to: socks)
        var head = trip
        head.head.append(OutlineAttribute("ownerName", "Ann"))
        var version = trip
        version.opmlVersion = "1.0"
        var body = trip
        body.bodyAttributes = [OutlineAttribute("text", "x")]

        for changed in [title, note, attribute, extraChild, head, version, body] {
            XCTAssertNotEqual(trip, changed)
        }
        XCTAssertTrue(trip.hasSameItems(as: head))
        XCTAssertFalse(trip.hasSameItems(as: attribute))
        XCTAssertTrue(trip.hasSameItems(as: attribute, by: sameTitleAndNote))
    }

    func testMovedItemIsADifferentTree() {
        // Same titles in the same pre-order, different nesting.
        var flat = OutlineTree()
        flat.appendChild(title: "a", to: flat.root)
        flat.appendChild(title: "b", to: flat.root)
        var nested = OutlineTree()
        let a = nested.appendChild(title: "a", to: nested.root)
        nested.appendChild(title: "b", to: a)
        XCTAssertNotEqual(flat, nested)
        XCTAssertFalse(flat.hasSameItems(as: nested, by: sameTitle))
    }

    func testHeadLookup() {
        let head = [OutlineAttribute("title", "A"), OutlineAttribute("title", "B")]
        XCTAssertEqual(head.value(named: "title"), "A")
        XCTAssertNil(head.value(named: "ownerName"))
    }
}
