import Foundation
import PodDocRandom
import XCTest

@testable import PodDocStore

/// Merging two copies of one store: 1,000 seeded pairs of random edit sequences on two copies
/// of one common state, each merged both ways and checked against a reference merge written
/// plainly below, the ordered-tree invariant, and merging again changing nothing.
final class CopyMergeTests: StoreTestCase {
    // MARK: The plain model

    /// An item as the reference sees it: its identity is its `created` value.
    private struct Node: Equatable {
        var title: String
        var note: String?
        var done: Bool
        var parent: Int?
        /// The order key among the siblings (``SiblingOrder``).
        var position: Int

        /// What a merge compares property by property (the order key is merged apart).
        var properties: [String] { [title, note ?? "∅", done ? "1" : "0", parent.map(String.init) ?? "∅"] }
    }

    private let tree = OrderedTree(entity: "Item", parent: Item.parent, order: Item.order)

    /// The items of a store by identity.
    private func snapshot(_ store: PersistentStore) throws -> [Int: Node] {
        try ObjectContext(store: store).performAndWait { ctx in
            var nodes: [Int: Node] = [:]
            for item in try ctx.fetch(FetchRequest("Item")) {
                let identity = Int(item[Item.created]!.timeIntervalSince1970)
                let parent = (item[Item.parent] as ManagedObject?).map { Int($0[Item.created]!.timeIntervalSince1970) }
                nodes[identity] = Node(
                    title: item[Item.title], note: item[Item.note], done: item[Item.done], parent: parent, position: item[Item.order])
            }
            return nodes
        }
    }

    /// The row ids of a store's items, by identity: the same in every copy.
    private func rowIDs(_ store: PersistentStore) throws -> [Int: Int64] {
        try ObjectContext(store: store).performAndWait { ctx in
            Dictionary(
                try ctx.fetch(FetchRequest("Item")).map { (Int($0[Item.created]!.timeIntervalSince1970), $0.objectID.rowID!) },
                uniquingKeysWith: { first, _ in first })
        }
    }

    /// The reference merge of `theirs` into `mine` from their common state `base`, resolving
    /// conflicts `preferTheirs` or not. Returns nil when there are conflicts and no preference.
    /// `held` is what each copy held of the items it deleted, at its save before the delete;
    /// `touched`, the properties of each item a save of each copy changed (the indexes of
    /// `Node.properties`, and 4 for the position): a change made back is still a change, which
    /// the other copy did not know of.
    private func reference(
        base: [Int: Node], mine: [Int: Node], theirs: [Int: Node], held: (mine: [Int: Node], theirs: [Int: Node]),
        touched: (mine: [Int: Set<Int>], theirs: [Int: Set<Int>]), preferTheirs: Bool?
    ) -> (nodes: [Int: Node], conflicts: Int)? {
        var result: [Int: Node] = [:]
        var conflicts = 0
        func changed(_ x: Int, _ property: Int) -> (mine: Bool, theirs: Bool) {
            (touched.mine[x]?.contains(property) == true, touched.theirs[x]?.contains(property) == true)
        }
        func choose(_ x: Int, _ property: Int, _ m: String, _ t: String) -> (String, clash: Bool) {
            let (mc, tc) = changed(x, property)
            if !tc || m == t { return (m, false) }
            if !mc { return (t, false) }
            return (preferTheirs == true ? t : m, true)
        }
        /// Both copies' values over the common one's, property by property.
        func combine(_ x: Int, _ m: Node, _ t: Node) -> (node: Node, clashed: Bool) {
            var chosen: [String] = []
            var clashed = false
            for (property, (mp, tp)) in zip(m.properties, t.properties).enumerated() {
                let (value, clash) = choose(x, property, mp, tp)
                chosen.append(value)
                clashed = clashed || clash
            }
            var node = m
            node.title = chosen[0]
            node.note = chosen[1] == "∅" ? nil : chosen[1]
            node.done = chosen[2] == "1"
            node.parent = chosen[3] == "∅" ? nil : Int(chosen[3])
            // The order key: the key of the copy whose move to another parent was taken;
            // else the key of the one copy that changed it; else the greater.
            let (movedByMine, movedByTheirs) = changed(x, 3)
            let (mineOrdered, theirsOrdered) = changed(x, 4)
            let (mo, to) = (m.position, t.position)
            if movedByMine && node.parent == m.parent && !(movedByTheirs && m.parent == t.parent) {
                node.position = mo
            } else if movedByTheirs && node.parent == t.parent && !(movedByMine && m.parent == t.parent) {
                node.position = to
            } else if !theirsOrdered || mo == to {
                node.position = mo
            } else if !mineOrdered {
                node.position = to
            } else {
                node.position = max(mo, to)
            }
            return (node, clashed)
        }
        /// Whether `copy` put an item under `x` since the base (made it there or moved it there).
        func placedUnder(_ x: Int, in copy: [Int: Node]) -> Bool {
            copy.contains { child, node in node.parent == x && base[child]?.parent != x }
        }
        for x in Set(base.keys).union(mine.keys).union(theirs.keys).sorted() {
            switch (base[x], mine[x], theirs[x]) {
            case (nil, let m?, nil):
                result[x] = m
            case (nil, nil, let t?):
                result[x] = t
            case (_?, nil, nil), (nil, nil, nil):
                continue
            case (nil, _?, _?):
                preconditionFailure("the copies' new items have identities of their own")
            case (let b?, let m?, nil):
                if touched.mine[x, default: []].subtracting([4]).isEmpty && !placedUnder(x, in: mine) {
                    continue
                }
                conflicts += 1
                // Kept: with what theirs changed before deleting it.
                if preferTheirs != true { result[x] = combine(x, m, held.theirs[x] ?? b).node }
            case (let b?, nil, let t?):
                if touched.theirs[x, default: []].subtracting([4]).isEmpty && !placedUnder(x, in: theirs) { continue }
                conflicts += 1
                // Brought back: with what mine changed before deleting it.
                if preferTheirs == true { result[x] = combine(x, held.mine[x] ?? b, t).node }
            case (let b?, let m?, let t?):
                let (node, clashed) = combine(x, m, t)
                if clashed { conflicts += 1 }
                result[x] = node
            }
        }
        // An item under a parent that is gone goes under that parent's nearest surviving
        // ancestor, where the copies last held it (the one copy's place that moved it, the
        // greater when both did), or to the top level.
        func formerParent(_ node: Int) -> Int? {
            let (m, t) = (mine[node] ?? held.mine[node], theirs[node] ?? held.theirs[node])
            let b = base[node]
            let mineMoved = m != nil && m?.parent != b?.parent
            let theirsMoved = t != nil && t?.parent != b?.parent
            if mineMoved && theirsMoved { return max(m!.parent ?? 0, t!.parent ?? 0) == 0 ? nil : max(m!.parent ?? 0, t!.parent ?? 0) }
            if mineMoved { return m!.parent }
            if theirsMoved { return t!.parent }
            return b?.parent ?? t?.parent ?? m?.parent
        }
        for x in result.keys.sorted() {
            guard let parent = result[x]!.parent, result[parent] == nil else { continue }
            var place: Int? = parent
            var seen: Set<Int> = []
            while let node = place, result[node] == nil, seen.insert(node).inserted { place = formerParent(node) }
            result[x]!.parent = place.flatMap { result[$0] == nil ? nil : $0 }
        }
        // Each copy moving an item under the other's: a conflict; the items on a cycle take
        // the preferred copy's places until none is left.
        var firstCycle = true
        while true {
            var onCycle: [Int] = []
            for x in result.keys.sorted() {
                var seen: Set<Int> = [x]
                var current = result[x]!.parent
                while let node = current {
                    if node == x {
                        onCycle.append(x)
                        break
                    }
                    guard seen.insert(node).inserted else { break }
                    current = result[node]?.parent
                }
            }
            guard !onCycle.isEmpty else { break }
            if firstCycle { conflicts += onCycle.count }
            firstCycle = false
            guard let preferTheirs else { return nil }
            var switched = false
            for x in onCycle {
                guard let place = preferTheirs ? theirs[x] : mine[x], result[x]!.parent != place.parent else { continue }
                result[x]!.parent = place.parent
                result[x]!.position = place.position
                switched = true
            }
            if !switched { break }
        }
        if conflicts > 0 && preferTheirs == nil { return nil }
        return (result, conflicts)
    }

    // MARK: Random edits

    /// One save of random edits on a copy, placing items by order keys (as the outliner
    /// does); new items get identities from `next`.
    private func randomSave(_ store: PersistentStore, _ random: inout SeededRandom, next: inout Int) throws {
        try ObjectContext(store: store).performAndWait { ctx in
            for _ in 0..<(1 + random.below(3)) {
                let lists = try ItemLists(ctx)
                let items = lists.items
                func siblings(of parent: ManagedObject?) -> [ManagedObject] { lists.siblings(of: parent) }
                let target = items.randomElement(using: &random)
                switch random.below(7) {
                case 0, 1:
                    let parent = random.oneIn(3) ? nil : items.randomElement(using: &random)
                    next += 1
                    lists.insert(ctx, identity: next, under: parent, random: &random)
                case 2:
                    target?[Item.title] = "t\(random.below(4))"
                case 3:
                    target?[Item.note] = random.oneIn(3) ? nil : "note \(random.below(3))"
                    if random.oneIn(2) { target.map { $0[Item.done] = !$0[Item.done] } }
                case 4:
                    guard let target else { continue }
                    ctx.delete(target)
                default:
                    guard let target else { continue }
                    var newParent = random.oneIn(3) ? nil : items.randomElement(using: &random)
                    var up = newParent
                    while let node = up {
                        if node === target { newParent = nil }
                        up = node[Item.parent]
                    }
                    target[Item.parent] = newParent
                    let list = siblings(of: newParent).filter { $0 !== target }
                    ItemLists.place(target, in: list, at: random.below(list.count + 1))
                }
            }
            if ctx.hasChanges { try ctx.save() }
        }
    }

    private func copy(_ store: PersistentStore, named name: String) throws -> PersistentStore {
        try store.checkpoint()
        let url = folder.appending(path: name)
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: url.path + suffix) }
        try FileManager.default.copyItem(at: store.url!, to: url)
        return try PersistentStore(url: url, model: testModel)
    }

    private func merge(_ mine: PersistentStore, _ theirs: PersistentStore, prefer: MergeSide?) throws -> CopyMerge {
        try mergeAndSave(mine, theirs, trees: [tree], prefer: prefer)
    }

    private func logicalContent(_ store: PersistentStore) throws -> [UInt8] {
        var bytes: [UInt8] = []
        try store.streamLogicalContent { bytes += $0 }
        return bytes
    }

    /// Every parent exists, no cycle.
    private func checkTree(_ nodes: [Int: Node], _ message: String) {
        for (x, node) in nodes {
            if let parent = node.parent { XCTAssertNotNil(nodes[parent], "\(message): \(x)'s parent \(parent) is gone") }
            var seen: Set<Int> = [x]
            var up = node.parent
            while let p = up, nodes[p] != nil {
                guard seen.insert(p).inserted else {
                    XCTFail("\(message): a cycle through \(x)")
                    break
                }
                up = nodes[p]!.parent
            }
        }
    }

    // MARK: The test

    func testAThousandRandomPairsMergeAsTheReferenceDoes() throws {
        var merged = 0
        var withConflicts = 0
        let only = ProcessInfo.processInfo.environment["MERGE_SEED"].flatMap { UInt64($0) }
        for seed in only.map({ $0...$0 }) ?? UInt64(1)...1_000 {
            var random = SeededRandom(seed: seed)
            let base = try PersistentStore(url: folder.appending(path: "base"), model: testModel)
            var next = 0
            for _ in 0..<(1 + random.below(3)) { try randomSave(base, &random, next: &next) }
            let baseNodes = try snapshot(base)
            let mine = try copy(base, named: "mine")
            let theirs = try copy(base, named: "theirs")
            try base.close()
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: folder.appending(path: "base").path + suffix) }
            var mineNext = 1000
            var theirsNext = 2000
            let mineFirst = random.oneIn(2)
            var held: (mine: [Int: Node], theirs: [Int: Node]) = ([:], [:])
            var touched: (mine: [Int: Set<Int>], theirs: [Int: Set<Int>]) = ([:], [:])
            /// A save on mine or theirs, noting what it deleted as it was before and what it
            /// changed.
            func save(mine isMine: Bool) throws {
                let store = isMine ? mine : theirs
                let before = try snapshot(store)
                if isMine { try randomSave(store, &random, next: &mineNext) } else { try randomSave(store, &random, next: &theirsNext) }
                let after = try snapshot(store)
                for (x, node) in before where after[x] == nil {
                    if isMine { held.mine[x] = node } else { held.theirs[x] = node }
                }
                for (x, node) in before {
                    guard let now = after[x] else { continue }
                    var properties = Set(node.properties.indices.filter { node.properties[$0] != now.properties[$0] })
                    if node.position != now.position { properties.insert(4) }
                    if isMine {
                        touched.mine[x, default: []].formUnion(properties)
                    } else {
                        touched.theirs[x, default: []].formUnion(properties)
                    }
                }
            }
            for _ in 0..<(1 + random.below(3)) {
                // Now and then one copy is not edited at all.
                try save(mine: mineFirst)
                if !random.oneIn(10) { try save(mine: !mineFirst) }
            }
            let mineNodes = try snapshot(mine)
            let theirsNodes = try snapshot(theirs)
            _ = try rowIDs(mine).merging(rowIDs(theirs)) { first, second in
                XCTAssertEqual(first, second, "seed \(seed): an item has one id in both copies")
                return first
            }
            let mine2 = try copy(mine, named: "mine2")
            let theirs2 = try copy(theirs, named: "theirs2")

            let message = "seed \(seed)"
            let plain = reference(base: baseNodes, mine: mineNodes, theirs: theirsNodes, held: held, touched: touched, preferTheirs: nil)
            let refused = try CopyMerge.plan(mine: mine, theirs: theirs, trees: [tree])
            XCTAssertEqual(refused.canApply, plain != nil, "\(message): conflicts found as the reference finds them")
            let prefer: MergeSide? = plain == nil ? .theirs : nil
            if plain == nil { withConflicts += 1 }
            let expected =
                plain
                ?? reference(base: baseNodes, mine: mineNodes, theirs: theirsNodes, held: held, touched: touched, preferTheirs: true)!

            _ = try merge(mine, theirs, prefer: prefer)
            let result = try snapshot(mine)
            XCTAssertEqual(result, expected.nodes, message)
            if only != nil || result != expected.nodes {
                func show(_ nodes: [Int: Node]) -> String {
                    nodes.sorted { $0.key < $1.key }.map {
                        "\($0.key):\($0.value.title)/\($0.value.note ?? "-")/\($0.value.done)/p\($0.value.parent.map(String.init) ?? "-")@\($0.value.position)"
                    }.joined(separator: " ")
                }
                print(
                    "SEED \(seed) touched \(touched)\n base \(show(baseNodes))\n mine \(show(mineNodes))\n theirs \(show(theirsNodes))\n want \(show(expected.nodes))\n got  \(show(result))"
                )
                if only == nil { break }
            }
            checkTree(result, message)
            XCTAssertEqual(try mine.integrityProblems(), [], message)
            // Merging again changes nothing.
            let again = try CopyMerge.plan(mine: mine, theirs: theirs, trees: [tree])
            XCTAssertTrue(again.outcome == .upToDate || (again.conflicts.isEmpty && again.changedObjects == 0), message)
            // The other way (preferring the same copy's values): the same rows.
            _ = try merge(theirs2, mine2, prefer: prefer == .theirs ? .mine : nil)
            checkTree(try snapshot(theirs2), "\(message), the other way")
            if try logicalContent(theirs2) != logicalContent(mine) {
                XCTFail("\(message): both ways give the same rows")
                if only != nil {
                    print("OTHER", String(decoding: try logicalContent(theirs2), as: UTF8.self))
                    print("THIS ", String(decoding: try logicalContent(mine), as: UTF8.self))
                    print(
                        "OTHER WAY",
                        try ObjectContext(store: theirs2).performAndWait { ctx in
                            try ctx.fetch(FetchRequest("Item")).map {
                                "\($0.objectID.rowID!):\($0[Item.created]!.timeIntervalSince1970)@\($0[Item.order])"
                            }
                        })
                    print(
                        "THIS WAY ",
                        try ObjectContext(store: mine).performAndWait { ctx in
                            try ctx.fetch(FetchRequest("Item")).map {
                                "\($0.objectID.rowID!):\($0[Item.created]!.timeIntervalSince1970)@\($0[Item.order])"
                            }
                        })
                }
            }
            merged += 1
            for store in [mine, theirs, mine2, theirs2] { try store.close() }
        }
        XCTAssertEqual(merged, 1_000)
        XCTAssertGreaterThan(withConflicts, 50, "the pairs exercise conflicts too")
        XCTAssertLessThan(withConflicts, 900, "and merges without them")
    }
}
