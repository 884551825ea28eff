import Foundation
import PodDocRandom
import Synchronization
import XCTest

@testable import PodDocStore

/// `descendantLinks(of:following:)`, `ancestorIDs(of:following:)` and the one-query cascade
/// through a self-referential relationship.
final class TreeWalkTests: StoreTestCase {
    // MARK: - Reference answers

    /// Every item's parent as `ctx` sees it, from a plain fetch (the brute-force answer).
    private func parents(_ ctx: ObjectContext) throws -> [ObjectID: ObjectID?] {
        var parents: [ObjectID: ObjectID?] = [:]
        for item in try ctx.fetch(FetchRequest("Item")) { parents[item.objectID] = item.destinationID(Item.parent) }
        return parents
    }

    private func expectedDescendants(of roots: [ObjectID], _ parents: [ObjectID: ObjectID?]) -> Set<ObjectLink> {
        var children: [ObjectID: [ObjectID]] = [:]
        for (child, parent) in parents { if let parent { children[parent, default: []].append(child) } }
        var result = Set<ObjectLink>()
        var pending = roots
        while let node = pending.popLast() {
            for child in children[node] ?? [] where result.insert(ObjectLink(object: child, destination: node)).inserted {
                pending.append(child)
            }
        }
        return result
    }

    private func expectedAncestors(of id: ObjectID, _ parents: [ObjectID: ObjectID?]) -> [ObjectID] {
        var result: [ObjectID] = []
        var current = parents[id] ?? nil
        while let node = current, parents[node] != nil {
            result.append(node)
            current = parents[node] ?? nil
        }
        return result
    }

    private func assertParentsFirst(_ links: [ObjectLink], roots: [ObjectID], file: StaticString = #filePath, line: UInt = #line) {
        var known = Set(roots)
        for link in links {
            XCTAssertTrue(link.destination.map(known.contains) ?? false, "\(link) comes before its parent", file: file, line: line)
            known.insert(link.object)
        }
    }

    // MARK: - Tests

    func testDescendantsAndAncestorsFromTheStore() throws {
        let root = ObjectContext(store: try makeStore())
        try root.performAndWait { ctx in
            let top = ctx.insert("Item")
            top[Item.title] = "top"
            var level = [top]
            for depth in 1...4 {
                level = level.flatMap { parent in
                    (0..<3).map { i -> ManagedObject in
                        let child = ctx.insert("Item")
                        child[Item.title] = "\(depth).\(i)"
                        child[Item.parent] = parent
                        return child
                    }
                }
            }
            let outside = ctx.insert("Item")
            outside[Item.title] = "outside"
            try ctx.save()
            let links = try ctx.descendantLinks(of: [top.objectID], following: Item.parent)
            XCTAssertEqual(links.count, 3 + 9 + 27 + 81)
            XCTAssertEqual(Set(links), expectedDescendants(of: [top.objectID], try parents(ctx)))
            assertParentsFirst(links, roots: [top.objectID])
            XCTAssertFalse(links.contains { $0.object == outside.objectID })

            let leaf = level[40]
            let ancestors = try ctx.ancestorIDs(of: leaf.objectID, following: Item.parent)
            XCTAssertEqual(ancestors.count, 4)
            XCTAssertEqual(ancestors.last, top.objectID)
            XCTAssertEqual(ancestors.first, leaf.destinationID(Item.parent))
            XCTAssertEqual(try ctx.ancestorIDs(of: top.objectID, following: Item.parent), [])
            XCTAssertEqual(try ctx.descendantLinks(of: [leaf.objectID], following: Item.parent), [])
            XCTAssertEqual(try ctx.ancestorIDs(of: ObjectID.permanent(entity: "Item", rowID: 9999), following: Item.parent), [])
        }
    }

    /// Random moves, inserts and deletes spread over a main context, its root and the file:
    /// the walks always agree with what a plain fetch of each context shows, from the top,
    /// from random items, and from items not saved yet.
    func testWalksSeeUnsavedChangesAtEveryLevelOfTheStack() throws {
        for seed in 1...4 {
            try checkWalksAgainstFetches(seed: UInt64(seed), rounds: 150)
        }
    }

    private func checkWalksAgainstFetches(seed: UInt64, rounds: Int) throws {
        let store = try PersistentStore(url: folder.appending(path: "walks-\(seed)"), model: testModel)
        let root = ObjectContext(store: store)
        let main = ObjectContext(.main, parent: root)
        var random = SeededRandom(seed: seed)
        try root.performAndWait { ctx in
            var items: [ManagedObject] = []
            for i in 0..<60 {
                let item = ctx.insert("Item")
                item[Item.title] = "\(i)"
                if !items.isEmpty { item[Item.parent] = items.randomElement(using: &random) }
                items.append(item)
            }
            try ctx.save()
        }
        for round in 0..<rounds {
            let ids = try main.fetchIDs(FetchRequest("Item"))
            let parentsNow = try parents(main)
            let item = main.object(with: ids.randomElement(using: &random)!)
            switch Int.random(in: 0..<10, using: &random) {
            case 0..<5:
                // Move under a random item that is not inside the moved one.
                let inside = Set(try main.descendantLinks(of: [item.objectID], following: Item.parent).map(\.object))
                let target = ids.filter { $0 != item.objectID && !inside.contains($0) }.randomElement(using: &random)
                item[Item.parent] = target.map(main.object(with:))
            case 5..<8:
                let child = main.insert("Item")
                child[Item.title] = "new \(round)"
                child[Item.parent] = item
            default:
                let below = try main.descendantLinks(of: [item.objectID], following: Item.parent).count
                if below < parentsNow.count / 2 { XCTAssertEqual(main.delete(item), below + 1) }
            }
            if round % 7 == 0 { try main.save() }
            if round % 19 == 0 { try root.performAndWait { try $0.save() } }

            for ctx in [main, root] {
                try ctx.performAndWait { ctx in
                    let parents = try parents(ctx)
                    let tops = parents.filter { $0.value == nil }.map(\.key)
                    let some = Array(parents.keys.shuffled(using: &random).prefix(3))
                    let unsaved = Array(parents.keys.filter(\.isTemporary).shuffled(using: &random).prefix(3))
                    for roots in [tops, some, unsaved] {
                        let links = try ctx.descendantLinks(of: roots, following: Item.parent)
                        XCTAssertEqual(Set(links), expectedDescendants(of: roots, parents), "seed \(seed), round \(round), \(ctx.name)")
                        XCTAssertEqual(links.count, Set(links).count, "no repeats")
                        assertParentsFirst(links, roots: roots)
                    }
                    for id in some + unsaved {
                        XCTAssertEqual(
                            try ctx.ancestorIDs(of: id, following: Item.parent), expectedAncestors(of: id, parents),
                            "seed \(seed), round \(round), \(ctx.name)")
                    }
                }
            }
            if testRun?.failureCount ?? 0 > 0 { return }
        }
    }

    func testWalkingAnUnsavedChainNeedsNoQueryPerLevel() throws {
        let statements = Mutex(0)
        var options = PersistentStore.Options()
        options.traceSQL = { _ in statements.withLock { $0 += 1 } }
        let store = try makeStore(options: options)
        let root = ObjectContext(store: store)
        let main = ObjectContext(.main, parent: root)
        var chain = [main.insert("Item")]
        for _ in 1..<5_000 {
            let next = main.insert("Item")
            next[Item.parent] = chain.last
            chain.append(next)
        }
        statements.withLock { $0 = 0 }
        XCTAssertEqual(try main.descendantLinks(of: [chain[0].objectID], following: Item.parent).count, 4_999)
        XCTAssertEqual(try main.ancestorIDs(of: chain[4_999].objectID, following: Item.parent).count, 4_999)
        XCTAssertEqual(statements.withLock { $0 }, 0, "unsaved objects are walked in memory")

        try main.save()
        try root.performAndWait { try $0.save() }
        statements.withLock { $0 = 0 }
        XCTAssertEqual(try main.descendantLinks(of: [chain[0].objectID], following: Item.parent).count, 4_999)
        XCTAssertEqual(try main.ancestorIDs(of: chain[4_999].objectID, following: Item.parent).count, 4_999)
        XCTAssertEqual(statements.withLock { $0 }, 2, "one recursive query each once saved")
    }

    func testCascadeDeleteOfASavedChainUsesOneTreeQueryAndCountsWhatItDeleted() throws {
        let statements = Mutex(0)
        var options = PersistentStore.Options()
        options.traceSQL = { _ in statements.withLock { $0 += 1 } }
        let store = try makeStore(options: options)
        let root = ObjectContext(store: store)
        let depth = 5_000
        try root.performAndWait { ctx in
            var parent = ctx.insert("Item")
            let top = parent
            for _ in 1..<depth {
                let child = ctx.insert("Item")
                child[Item.parent] = parent
                parent = child
            }
            let other = ctx.insert("Item")
            try ctx.save()
            ctx.reset()
            statements.withLock { $0 = 0 }
            XCTAssertEqual(ctx.delete(ctx.object(with: top.objectID)), depth)
            XCTAssertLessThan(statements.withLock { $0 }, 20, "one tree query and batched row reads, not one query per level")
            XCTAssertEqual(ctx.delete(ctx.object(with: top.objectID)), 0, "deleted already")
            try ctx.save()
            XCTAssertEqual(try ctx.fetchIDs(FetchRequest("Item")), [other.objectID])
        }
    }

    func testCascadeAlsoDeletesChildrenMovedInByUnsavedChanges() throws {
        let root = ObjectContext(store: try makeStore())
        let main = ObjectContext(.main, parent: root)
        let (a, b) = try root.performAndWait { ctx -> (ObjectID, ObjectID) in
            let a = ctx.insert("Item")
            a[Item.title] = "a"
            let b = ctx.insert("Item")
            b[Item.title] = "b"
            let b1 = ctx.insert("Item")
            b1[Item.title] = "b1"
            b1[Item.parent] = b
            let b2 = ctx.insert("Item")
            b2[Item.title] = "b2"
            b2[Item.parent] = b1
            try ctx.save()
            return (a.objectID, b.objectID)
        }
        let b1 = try XCTUnwrap(main.fetchFirst(FetchRequest("Item", where: Item.title == "b1")))
        b1[Item.parent] = main.object(with: a)  // b1 (with b2 below it) moves from b to a
        let fresh = main.insert("Item")
        fresh[Item.parent] = b1
        XCTAssertEqual(main.delete(main.object(with: b)), 1, "b no longer holds b1")
        XCTAssertEqual(main.delete(main.object(with: a)), 4, "a, b1, b2 and the new item")
        try main.save()
        try root.performAndWait { try $0.save() }
        XCTAssertEqual(try titlesOnDisk(), [])
    }
}
