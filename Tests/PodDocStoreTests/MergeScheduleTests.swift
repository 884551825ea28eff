import Foundation
import PodDocRandom
import XCTest

@testable import PodDocStore

/// Many copies of one store, edited and merged in random schedules (again and again, in
/// every order, criss-cross, rings, fan-in), each merge checked against a plain model of
/// what the copies have seen of each other, and at the end every copy brought to one state.
///
/// The model keeps, per copy, each item's values with the save that made them, the saves the
/// copy has seen, and its own line of saves with the state after each. A merge takes a
/// value the other copy made that this one has not seen; both copies having made a change
/// the other has not seen is a conflict (resolved one way or the other at random), unless one
/// of them holds what the other last saw (a change made and made back). A delete meets as a
/// change any change of the item the deleting copy has not seen (made back or not) and the
/// items the other copy put under the deleted one unseen.
final class MergeScheduleTests: StoreTestCase {
    // MARK: The model

    /// One property's value and the save (a number the model gives) that made it.
    private struct Stamped<Value: Equatable>: Equatable {
        var value: Value
        var stamp: Int
    }

    private struct ModelItem: Equatable {
        var title: Stamped<String>
        var note: Stamped<String?>
        var done: Stamped<Bool>
        var parent: Stamped<Int?>
        var order: Stamped<Int>
        var created: Int  // the save that made it, or kept it against a delete

        /// What the store is compared on: the values, without stamps.
        var content: Content {
            Content(title: title.value, note: note.value, done: done.value, parent: parent.value, order: order.value)
        }
    }

    /// An item's values, as the store holds them.
    struct Content: Equatable, CustomStringConvertible {
        var title: String
        var note: String?
        var done: Bool
        var parent: Int?
        /// The order key: with the ids, which are the same in every copy, the sibling order.
        var order: Int
        var description: String { "\(title)/\(note ?? "-")/\(done ? 1 : 0)/p\(parent.map(String.init) ?? "-")@\(order)" }
    }

    /// A deleted item: the save that deleted it, where it was, and what this copy held of it
    /// when it let it go (nil when it never held it).
    private struct Tomb {
        var stamp: Int
        var parent: Int?
        var item: ModelItem?
        /// The save of the copy's line that let it go.
        var heldAt: Int?
    }

    /// The save graph: every save's parents (the save before it; for a merge, the other
    /// copy's newest save too), and the merges a save took back with the save each stands
    /// for instead.
    private struct Graph {
        var parents: [Int: [Int]] = [:]
        var takings: [Int: [(taken: Int, instead: Int)]] = [:]
    }

    private struct ModelCopy {
        var items: [Int: ModelItem] = [:]
        var tombs: [Int: Tomb] = [:]
        /// This copy's saves (its history's rows), oldest first, with the state after each.
        var line: [(stamp: Int, items: [Int: ModelItem], tombs: [Int: Tomb])] = []
        /// The saves of the line a later save took back (a merge undone or reverted past).
        var takenBack: Set<Int> = []
        /// The saves of the line that edited (not merges, not reverts).
        var edits: Set<Int> = []
        /// The saves of the line that reverted.
        var reverts: Set<Int> = []
        /// The saves the copy's content includes, as the store's save graph reaches them.
        private(set) var seen: Set<Int> = []
        var head: Int? { line.last?.stamp }

        /// Adds the state now to the line as save `stamp` (already in `graph`).
        mutating func record(_ stamp: Int, graph: Graph) {
            line.append((stamp, items, tombs))
            reach(graph)
        }

        /// What the save graph reaches from the head. Below a save that took a merge back (in
        /// any copy's line), the merge stands for the save before it in that line, not for
        /// what it brought; reached another way (a copy that went on from it), it is a save
        /// like any other.
        mutating func reach(_ graph: Graph) {
            var reached: Set<Int> = []
            var visited: Set<[Int]> = []
            var stack: [(save: Int, instead: [Int: Int])] = head.map { [($0, [:])] } ?? []
            while let (save, instead) = stack.popLast() {
                guard visited.insert([save] + instead.keys.sorted()).inserted else { continue }
                if let before = instead[save] {
                    stack.append((before, instead))
                    continue
                }
                reached.insert(save)
                var below = instead
                for (taken, before) in graph.takings[save] ?? [] { below[taken] = before }
                for parent in graph.parents[save] ?? [] { stack.append((parent, below)) }
            }
            seen = reached
        }

        /// The newest save of the line that `other`'s line holds too, neither taken back: the
        /// same state in both.
        func newestShared(with other: ModelCopy) -> (stamp: Int, items: [Int: ModelItem], tombs: [Int: Tomb])? {
            let theirs = Set(other.line.map(\.stamp)).subtracting(other.takenBack)
            return line.last { theirs.contains($0.stamp) && !takenBack.contains($0.stamp) }
        }
    }

    /// Merges `theirs` into `mine` as the store should; returns the conflicts, or nil when
    /// there were some and `prefer` was nil (nothing changed then).
    private static func merge(
        _ mine: inout ModelCopy, _ theirs: ModelCopy, prefer: MergeSide?, stamp: Int, graph: inout Graph
    ) -> Int? {
        guard let theirsHead = theirs.head, !mine.seen.contains(theirsHead) else { return 0 }
        if mine.head.map(theirs.seen.contains) ?? true {
            // Mine takes theirs' state, every value with its maker (theirs has seen mine's);
            // what it lets go, it held as it was.
            var tombs = mine.tombs.merging(theirs.tombs) { _, new in new }
            for id in theirs.tombs.keys {
                let held = mine.items[id].map { ($0, theirsHead) } ?? mine.tombs[id].map { ($0.item, $0.heldAt) }
                (tombs[id]!.item, tombs[id]!.heldAt) = held ?? (nil, nil)
            }
            mine.tombs = tombs
            mine.items = theirs.items
            mine.record(theirsHead, graph: graph)
            return 0
        }
        // The newest save both lines hold: the same state in both.
        let shared = mine.newestShared(with: theirs)
        let common = shared?.items ?? [:]
        /// What `copy` held of an item when it let it go since the shared save (what its
        /// history since tells).
        func held(_ copy: ModelCopy, _ id: Int) -> ModelItem? {
            guard let tomb = copy.tombs[id], let at = tomb.heldAt else { return nil }
            let start = shared.flatMap { shared in copy.line.lastIndex { $0.stamp == shared.stamp } }.map { $0 + 1 } ?? 0
            return copy.line[start...].contains { $0.stamp == at } ? tomb.item : nil
        }
        var result = mine.items
        var tombs = mine.tombs
        var conflicts = 0
        func property<V: Equatable>(
            _ key: WritableKeyPath<ModelItem, Stamped<V>>, _ id: Int, _ m: ModelItem, _ t: ModelItem, into item: inout ModelItem
        ) -> Bool {
            let (mv, tv) = (m[keyPath: key], t[keyPath: key])
            // Theirs' value made over one theirs saw mine hold is the newer, whatever it holds.
            let tc = !mine.seen.contains(tv.stamp)
            let mc = !theirs.seen.contains(mv.stamp)
            if tc && mc && mv.value == tv.value {
                // Set alike by both, unseen by each other: the merge's own value.
                item[keyPath: key] = Stamped(value: mv.value, stamp: stamp)
                return false
            }
            guard tc && mv.value != tv.value else { return false }
            if !mc {
                item[keyPath: key] = tv
                return false
            }
            if prefer == .theirs { item[keyPath: key] = tv }
            return true
        }
        /// The merged order key: the key of the copy whose move to another parent the merge
        /// took; else the one copy's that changed it; else the greater.
        func order(_ id: Int, _ m: ModelItem, _ t: ModelItem, parent: Int?) -> Stamped<Int> {
            let theirsMoved = !mine.seen.contains(t.parent.stamp)
            let mineMoved = !theirs.seen.contains(m.parent.stamp)
            let tc = !mine.seen.contains(t.order.stamp)
            let mc = !theirs.seen.contains(m.order.stamp)
            let movedAlike = mineMoved && theirsMoved && m.parent.value == t.parent.value
            if mineMoved && parent == m.parent.value && !movedAlike { return m.order }
            if theirsMoved && parent == t.parent.value && !movedAlike { return t.order }
            if tc && mc && m.order.value == t.order.value { return Stamped(value: m.order.value, stamp: stamp) }
            guard tc && m.order.value != t.order.value else { return m.order }
            return !mc || t.order.value > m.order.value ? t.order : m.order
        }
        /// `m` with `t`'s changes over it, property by property, and the order key merged;
        /// whether both changed a property.
        func combine(_ id: Int, _ m: ModelItem, _ t: ModelItem) -> (item: ModelItem, clashed: Bool) {
            var item = m
            var clashed = false
            clashed = property(\.title, id, m, t, into: &item) || clashed
            clashed = property(\.note, id, m, t, into: &item) || clashed
            clashed = property(\.done, id, m, t, into: &item) || clashed
            clashed = property(\.parent, id, m, t, into: &item) || clashed
            item.order = order(id, m, t, parent: item.parent.value)
            return (item, clashed)
        }
        /// Whether `copy` changed `item` in a way `other` has not seen, since the shared save.
        func changedUnseen(_ item: ModelItem, by other: ModelCopy, _ id: Int) -> Bool {
            // Made, brought back or kept against a delete since: a change too.
            if !other.seen.contains(item.created) { return true }
            let stamps = [item.title.stamp, item.note.stamp, item.done.stamp, item.parent.stamp]
            // Made since the shared save: every value it holds is a change.
            // A value changed and changed back is a change too: the delete did not know of it.
            return stamps.contains { !other.seen.contains($0) }
        }
        /// Whether `copy` put an item under `id` since the shared save (made it there or moved
        /// it there) that `other` has not seen: a delete in `other` did not know of it.
        func placedUnder(_ id: Int, in copy: ModelCopy, unseenBy other: ModelCopy) -> Bool {
            copy.items.contains { child, item in
                item.parent.value == id && !other.seen.contains(item.parent.stamp) && common[child]?.parent.value != id
            }
        }
        for id in Set(mine.items.keys).union(theirs.items.keys).union(mine.tombs.keys).union(theirs.tombs.keys).sorted() {
            switch (mine.items[id], theirs.items[id]) {
            case (nil, nil):
                continue
            case (nil, let t?):
                // Mine deleted it unseen (an item both made again, reverting, is one item), or
                // made since, had it and let it go.
                let mineDeleted =
                    mine.tombs[id].map { !theirs.seen.contains($0.stamp) } == true
                    || (common[id] == nil && mine.seen.contains(t.created))
                if mineDeleted {
                    guard changedUnseen(t, by: mine, id) || placedUnder(id, in: theirs, unseenBy: mine) else { continue }
                    conflicts += 1
                    guard prefer == .theirs else { continue }
                    // Brought back: what mine held when it let it go (when it held it), with
                    // theirs' changes over it (theirs' where both changed).
                    var item = held(mine, id).map { combine(id, $0, t).item } ?? t
                    // The object the delete took away: a copy that has seen the delete and
                    // every value deletes it again.
                    item.created = mine.tombs[id]?.stamp ?? t.created
                    result[id] = item
                    tombs[id] = nil
                    continue
                }
                let unseen = [t.created, t.title.stamp, t.note.stamp, t.done.stamp, t.parent.stamp].contains { !mine.seen.contains($0) }
                guard unseen else { continue }
                result[id] = t
                tombs[id] = nil
            case (let m?, nil):
                // Theirs deleted it since (or, made since, had it and let it go); or theirs has
                // seen every value of it, the making too (a delete's, when brought back), and
                // let it go.
                let theirsDeleted =
                    theirs.tombs[id].map { !mine.seen.contains($0.stamp) } == true
                    || (common[id] == nil && theirs.seen.contains(m.created))
                    || [m.created, m.title.stamp, m.note.stamp, m.done.stamp, m.parent.stamp].allSatisfy(theirs.seen.contains)
                guard theirsDeleted else { continue }
                let changed = changedUnseen(m, by: theirs, id) || placedUnder(id, in: mine, unseenBy: theirs)
                if changed { conflicts += 1 }
                if !changed || prefer == .theirs {
                    result[id] = nil
                    tombs[id] = Tomb(
                        stamp: theirs.tombs[id]?.stamp ?? stamp, parent: theirs.tombs[id]?.parent ?? m.parent.value, item: m, heldAt: stamp)
                } else if prefer == .mine {
                    // Kept, as this merge's change (a copy that holds the delete has not seen
                    // it), with the changes theirs made to it before letting it go (mine's
                    // where both changed).
                    var item = held(theirs, id).map { combine(id, m, $0).item } ?? m
                    item.created = stamp
                    result[id] = item
                }
            case (let m?, let t?):
                var (item, clashed) = combine(id, m, t)
                if clashed { conflicts += 1 }
                // Theirs made it again (a revert brought it back) unseen, over a making theirs
                // has seen: the making is theirs'.
                if !mine.seen.contains(t.created) && theirs.seen.contains(m.created) { item.created = t.created }
                result[id] = item
            }
        }
        if conflicts > 0 && prefer == nil { return nil }
        /// Where a deleted item was: its parent as each copy last held it (now, or when it
        /// let it go), merged as a value: the one copy's that moved it, the greater when both
        /// did, else the one both hold.
        func formerParent(_ id: Int) -> Int? {
            let m = mine.items[id] ?? held(mine, id)
            let t = theirs.items[id] ?? held(theirs, id)
            let mineMoved = m.map { !theirs.seen.contains($0.parent.stamp) } ?? false
            let theirsMoved = t.map { !mine.seen.contains($0.parent.stamp) } ?? false
            switch (mineMoved ? m : nil, theirsMoved ? t : nil) {
            case (let m?, let t?):
                return max(m.parent.value ?? 0, t.parent.value ?? 0) == 0 ? nil : max(m.parent.value ?? 0, t.parent.value ?? 0)
            case (let m?, nil) where !theirsMoved: return m.parent.value
            case (nil, let t?) where !mineMoved: return t.parent.value
            default: return (t ?? m).map { $0.parent.value } ?? common[id]?.parent.value
            }
        }
        // An item under a parent that is gone goes under that parent's nearest surviving
        // ancestor, where the copies last held it.
        for id in result.keys.sorted() {
            guard let parent = result[id]!.parent.value, result[parent] == nil else { continue }
            var place: Int? = parent
            var seen: Set<Int> = []
            while let node = place, result[node] == nil, seen.insert(node).inserted {
                place = formerParent(node)
            }
            // The store records the new place as the merge's change for an item mine held; an
            // item new to mine keeps the maker of theirs' place.
            result[id]!.parent = Stamped(value: place, stamp: mine.items[id] == nil ? result[id]!.parent.stamp : stamp)
        }
        mine.items = result
        mine.tombs = tombs
        graph.parents[stamp] = [mine.head!, theirsHead]
        mine.record(stamp, graph: graph)
        return conflicts
    }

    /// Goes back to the state after save `index` of the copy's line, as a save `stamp`, as
    /// the store's revert does: over the copy's own edits alone, the values they changed go
    /// back as the revert's own changes (items they deleted come back made by it); over one
    /// merge alone (undoing it), the merge is taken back: the state is the one before it, with
    /// the makers it held, and what only the merge brought is no longer seen. Nil for any
    /// other revert (over edits and merges both, or over reverts), which the schedules do not
    /// make, and for one that changes nothing.
    private static func revert(_ copy: ModelCopy, to index: Int, stamp: Int, graph: inout Graph) -> ModelCopy? {
        let target = copy.line[index]
        let later = copy.line[(index + 1)...]
        guard !later.isEmpty, !later.contains(where: { copy.reverts.contains($0.stamp) || copy.takenBack.contains($0.stamp) }),
            !copy.takenBack.contains(target.stamp)
        else { return nil }
        var result = copy
        if later.allSatisfy({ copy.edits.contains($0.stamp) }) {
            var items: [Int: ModelItem] = [:]
            var tombs = target.tombs
            for (id, old) in target.items {
                guard let now = copy.items[id] else {
                    // Deleted since: made again by the revert.
                    func mark<V>(_ value: Stamped<V>) -> Stamped<V> { Stamped(value: value.value, stamp: stamp) }
                    items[id] = ModelItem(
                        title: mark(old.title), note: mark(old.note), done: mark(old.done), parent: mark(old.parent),
                        order: mark(old.order),
                        created: stamp)
                    continue
                }
                func back<V: Equatable>(_ old: Stamped<V>, _ now: Stamped<V>) -> Stamped<V> {
                    old.value == now.value ? now : Stamped(value: old.value, stamp: stamp)
                }
                items[id] = ModelItem(
                    title: back(old.title, now.title), note: back(old.note, now.note), done: back(old.done, now.done),
                    parent: back(old.parent, now.parent), order: back(old.order, now.order), created: now.created)
            }
            for (id, now) in copy.items where target.items[id] == nil {
                // Made since: deleted by the revert.
                tombs[id] = Tomb(stamp: stamp, parent: now.parent.value, item: now, heldAt: stamp)
            }
            result.items = items
            result.tombs = tombs
        } else if later.count == 1, !copy.edits.contains(later.first!.stamp) {
            result.items = target.items
            result.tombs = target.tombs
            result.takenBack.insert(later.first!.stamp)
            graph.takings[stamp] = [(later.first!.stamp, target.stamp)]
        } else {
            return nil
        }
        guard result.items.mapValues(\.content) != copy.items.mapValues(\.content) else {
            graph.takings[stamp] = nil
            return nil
        }
        graph.parents[stamp] = [copy.head!]
        result.reverts.insert(stamp)
        result.record(stamp, graph: graph)
        return result
    }

    // MARK: Random edits, on a store and on the model alike

    private var nextStamp = 0
    /// The save graph: every save's parents (the save before it; for a merge, the other
    /// copy's newest save too).
    private var graph = Graph()
    /// The schedule running, for messages.
    private var seed: UInt64 = 0
    private var nextIdentity = 0
    /// How many deletes took children with them.
    private var subtreeDeletes = 0

    private func randomSave(_ store: PersistentStore, _ model: inout ModelCopy, _ random: inout SeededRandom) throws {
        nextStamp += 1
        let stamp = nextStamp
        var copy = model
        let saved = try ObjectContext(store: store).performAndWait { ctx -> Bool in
            for _ in 0..<(1 + random.below(3)) {
                let lists = try ItemLists(ctx)
                let items = lists.items
                func identity(_ item: ManagedObject) -> Int { Int(item[Item.created]!.timeIntervalSince1970) }
                func siblings(of parent: ManagedObject?) -> [ManagedObject] { lists.siblings(of: parent) }
                let target = items.randomElement(using: &random)
                switch random.below(8) {
                case 0, 1:
                    let parent = random.oneIn(3) ? nil : items.randomElement(using: &random)
                    nextIdentity += 1
                    let item = lists.insert(ctx, identity: nextIdentity, under: parent, random: &random)
                    copy.items[nextIdentity] = ModelItem(
                        title: Stamped(value: "n\(nextIdentity)", stamp: stamp), note: Stamped(value: nil, stamp: stamp),
                        done: Stamped(value: false, stamp: stamp), parent: Stamped(value: parent.map(identity), stamp: stamp),
                        order: Stamped(value: item[Item.order], stamp: stamp), created: stamp)
                case 2:
                    guard let target else { continue }
                    let title = "t\(random.below(4))"
                    guard target[Item.title] != title else { continue }
                    target[Item.title] = title
                    copy.items[identity(target)]!.title = Stamped(value: title, stamp: stamp)
                case 3:
                    guard let target else { continue }
                    let note = random.oneIn(3) ? nil : "note \(random.below(3))"
                    if target[Item.note] != note {
                        target[Item.note] = note
                        copy.items[identity(target)]!.note = Stamped(value: note, stamp: stamp)
                    }
                case 4:
                    guard let target else { continue }
                    target[Item.done] = !target[Item.done]
                    copy.items[identity(target)]!.done = Stamped(value: target[Item.done], stamp: stamp)
                case 5, 6:
                    // A leaf goes, or now and then a whole subtree (the children cascade).
                    guard let target, siblings(of: target).isEmpty || !random.oneIn(3) else { continue }
                    var gone: [(id: Int, parent: Int?)] = []
                    var pending = [target]
                    while let item = pending.popLast() {
                        gone.append((identity(item), (item[Item.parent] as ManagedObject?).map(identity)))
                        pending += siblings(of: item)
                    }
                    XCTAssertEqual(ctx.delete(target), gone.count, "seed \(seed): the children go with their parent")
                    if gone.count > 1 { subtreeDeletes += 1 }
                    // A delete records the values of the save before.
                    for (id, parent) in gone {
                        copy.tombs[id] = Tomb(stamp: stamp, parent: parent, item: model.items[id], heldAt: stamp)
                        copy.items[id] = nil
                    }
                default:
                    // An item moves to the top level, or within its list.
                    guard let target else { continue }
                    let oldParent = target[Item.parent] as ManagedObject?
                    let toTop = oldParent != nil && random.oneIn(2)
                    if toTop {
                        target[Item.parent] = nil
                        copy.items[identity(target)]!.parent = Stamped(value: nil, stamp: stamp)
                    }
                    let list = siblings(of: toTop ? nil : oldParent).filter { $0 !== target }
                    ItemLists.place(target, in: list, at: random.below(list.count + 1))
                }
                // Order keys changed by the edit (a list numbered afresh changes many).
                for item in try ItemLists(ctx).items {
                    let id = identity(item)
                    if let known = copy.items[id], known.order.value != item[Item.order] {
                        copy.items[id]!.order = Stamped(value: item[Item.order], stamp: stamp)
                    }
                }
            }
            guard ctx.hasChanges else { return false }
            // A save that changed no value (everything set back) leaves no history row, and is
            // no save in the model either.
            let rows = try store.history(limit: 1).first?.save
            try ctx.save()
            return try store.history(limit: 1).first?.save != rows
        }
        if saved {
            // A value set and set back within the save is no change: it keeps its maker.
            for (id, old) in model.items {
                guard var item = copy.items[id] else { continue }
                if item.title.value == old.title.value { item.title = old.title }
                if item.note.value == old.note.value { item.note = old.note }
                if item.done.value == old.done.value { item.done = old.done }
                if item.parent.value == old.parent.value { item.parent = old.parent }
                if item.order.value == old.order.value { item.order = old.order }
                copy.items[id] = item
            }
            model = copy
            graph.parents[stamp] = model.head.map { [$0] } ?? []
            model.edits.insert(stamp)
            model.record(stamp, graph: graph)
        }
    }

    // MARK: Helpers

    private let tree = OrderedTree(entity: "Item", parent: Item.parent, order: Item.order)

    private func content(_ store: PersistentStore) throws -> [Int: Content] {
        try ObjectContext(store: store).performAndWait { ctx in
            var result: [Int: Content] = [:]
            for item in try ctx.fetch(FetchRequest("Item")) {
                let identity = Int(item[Item.created]!.timeIntervalSince1970)
                XCTAssertNil(result[identity], "seed \(seed): item \(identity) is there twice (\(item.objectID))")
                result[identity] = Content(
                    title: item[Item.title], note: item[Item.note], done: item[Item.done],
                    parent: (item[Item.parent] as ManagedObject?).map { Int($0[Item.created]!.timeIntervalSince1970) },
                    order: item[Item.order])
            }
            return result
        }
    }

    /// Goes back to the state after save `save`, as `poddoc revert --to` does: the merges
    /// since are taken back.
    private func revert(_ store: PersistentStore, to save: Int) throws {
        XCTAssertEqual(try store.history(limit: 1).first?.save, try store.history().count, "seed \(seed): one save a history row")
        let past = try store.pastState(after: save)
        let merges = try store.mergeSaves(after: save)
        try ObjectContext(store: store).performAndWait { ctx in
            try ctx.revert(to: past)
            try ctx.save(storeMetadata: [:], note: SaveNote(description: "revert", takesBack: merges))
        }
    }

    private func logicalContent(_ store: PersistentStore) throws -> [UInt8] {
        var bytes: [UInt8] = []
        try store.streamLogicalContent { bytes += $0 }
        return bytes
    }

    /// Merges as `poddoc merge` does: refused while there are conflicts unless one side is
    /// preferred.
    private func merge(_ mine: PersistentStore, _ theirs: PersistentStore, prefer: MergeSide?) throws -> CopyMerge {
        try mergeAndSave(mine, theirs, trees: [tree], prefer: prefer)
    }

    /// Merges every copy into one along two schedules, on copies of the stores; whether both
    /// ran without conflicts (false when one met some), failing when their content differs.
    private func mergesAgreeInAnyOrder(_ stores: [PersistentStore], seed: UInt64) throws -> Bool {
        var sets: [[PersistentStore]] = []
        defer {
            for store in sets.joined() {
                let url = store.url!
                try? store.close()
                for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: url.path + suffix) }
            }
        }
        for schedule in 0..<2 {
            var set: [PersistentStore] = []
            for (index, store) in stores.enumerated() {
                try store.checkpoint()
                let url = folder.appending(path: "order-\(seed)-\(schedule)-\(index)")
                try FileManager.default.copyItem(at: store.url!, to: url)
                set.append(try PersistentStore(url: url, model: testModel))
            }
            sets.append(set)
        }
        func mergeClean(_ mine: PersistentStore, _ theirs: PersistentStore) throws -> Bool {
            let plan = try CopyMerge.plan(mine: mine, theirs: theirs, trees: [tree])
            guard plan.canApply else { return false }
            let done = try merge(mine, theirs, prefer: nil)
            if ProcessInfo.processInfo.environment["MERGE_SEED"] != nil { print("order check: \(done.outcome) \(try content(mine))") }
            return true
        }
        let one = sets[0]
        for index in one.indices.dropFirst() where !(try mergeClean(one[0], one[index])) { return false }
        let other = sets[1]
        for index in stride(from: other.count - 1, to: 1, by: -2) where !(try mergeClean(other[index - 1], other[index])) {
            return false
        }
        for index in other.indices.dropFirst().reversed() where !(try mergeClean(other[0], other[index])) { return false }
        let (a, b) = (try content(one[0]), try content(other[0]))
        XCTAssertEqual(a, b, "seed \(seed): every copy merged in two orders")
        return true
    }

    // MARK: The test

    func testRandomSchedulesOfManyCopiesMergeAsTheModelSays() throws {
        let only = ProcessInfo.processInfo.environment["MERGE_SEED"].flatMap { UInt64($0) }
        let schedules = ProcessInfo.processInfo.environment["MERGE_SCHEDULES"].flatMap { UInt64($0) } ?? 1_000
        var conflicted = 0
        var merges = 0
        var fastForwards = 0
        var orderChecks = 0
        var reverts = 0
        for seed in only.map({ $0...$0 }) ?? UInt64(1)...schedules {
            // Every other schedule plans its merges a few objects' rows at a time, as a large
            // merge does; half of them write merges to the objects of a context first, the
            // others straight to the store as rows (as `poddoc merge` does).
            let slices = seed % 2 == 0 ? 3 : MergePlanner.rowsAtOnce
            let goOn = try MergeWriting.$asObjects.withValue(seed % 4 < 2) {
                try MergePlanner.$rowsAtOnce.withValue(slices) { () throws -> Bool in
                    self.seed = seed
                    var random = SeededRandom(seed: seed &* 7919)
                    nextStamp = 0
                    nextIdentity = 0
                    graph = Graph()
                    let count = 3 + random.below(3)
                    let baseURL = folder.appending(path: "base-\(seed)")
                    let base = try PersistentStore(url: baseURL, model: testModel)
                    var baseModel = ModelCopy()
                    for _ in 0..<(1 + random.below(2)) { try randomSave(base, &baseModel, &random) }
                    if only != nil { print("base: \(try content(base))") }
                    try base.checkpoint()
                    try base.close()
                    var stores: [PersistentStore] = []
                    var models: [ModelCopy] = []
                    for index in 0..<count {
                        let url = folder.appending(path: "copy-\(seed)-\(index)")
                        try FileManager.default.copyItem(at: baseURL, to: url)
                        stores.append(try PersistentStore(url: url, model: testModel))
                        models.append(baseModel)
                    }
                    defer {
                        for store in stores { try? store.close() }
                        for index in 0..<count { try? FileManager.default.removeItem(at: folder.appending(path: "copy-\(seed)-\(index)")) }
                        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: baseURL.path + suffix) }
                    }
                    let message = "seed \(seed)"
                    for step in 0..<(6 + random.below(10)) {
                        let at = "\(message), step \(step)"
                        if random.below(5) < 2 {
                            let index = random.below(count)
                            try randomSave(stores[index], &models[index], &random)
                            if only != nil { print("step \(step): save on \(index): \(try content(stores[index]))") }
                            continue
                        }
                        if random.oneIn(6) {
                            // Undo (the last save) or revert (to an earlier one).
                            let index = random.below(count)
                            let line = models[index].line
                            guard line.count > 1 else { continue }
                            let target = random.oneIn(2) ? line.count - 2 : random.below(line.count - 1)
                            nextStamp += 1
                            guard let reverted = Self.revert(models[index], to: target, stamp: nextStamp, graph: &graph) else { continue }
                            try revert(stores[index], to: target + 1)
                            models[index] = reverted
                            reverts += 1
                            let got = try content(stores[index])
                            if only != nil {
                                print("step \(step): revert \(index) to save \(target + 1): \(got)")
                                try ObjectContext(store: stores[index]).performAndWait { ctx in
                                    print(
                                        "  ids: \(try ctx.fetch(FetchRequest("Item")).map { "\($0.objectID) \(Int($0[Item.created]!.timeIntervalSince1970))" })"
                                    )
                                }
                            }
                            XCTAssertEqual(got, reverted.items.mapValues(\.content), "\(at): copy \(index) reverted to save \(target + 1)")
                            if got != reverted.items.mapValues(\.content) { return false }
                            continue
                        }
                        let mine = random.below(count)
                        var theirs = random.below(count - 1)
                        if theirs >= mine { theirs += 1 }
                        nextStamp += 1
                        let stamp = nextStamp
                        var expected = models[mine]
                        let found = Self.merge(&expected, models[theirs], prefer: nil, stamp: stamp, graph: &graph)
                        let plan = try CopyMerge.plan(mine: stores[mine], theirs: stores[theirs], trees: [tree])
                        XCTAssertEqual(plan.canApply, found != nil, "\(at): conflicts found as the model finds them")
                        let side: MergeSide? = found != nil ? nil : random.oneIn(3) ? .mine : .theirs
                        if found == nil {
                            conflicted += 1
                            expected = models[mine]
                            XCTAssertNotNil(Self.merge(&expected, models[theirs], prefer: side, stamp: stamp, graph: &graph))
                        }
                        let done = try merge(stores[mine], stores[theirs], prefer: side)
                        if done.outcome == .fastForward { fastForwards += 1 }
                        if only != nil {
                            print(
                                "step \(step): merge \(theirs) into \(mine): \(done.outcome) \(side.map { "prefer \($0)" } ?? "") \(try content(stores[mine]))"
                            )
                        }
                        merges += 1
                        models[mine] = expected
                        let got = try content(stores[mine])
                        XCTAssertEqual(got, expected.items.mapValues(\.content), "\(at): copy \(mine) after merging copy \(theirs)")
                        if got != expected.items.mapValues(\.content) {
                            print("SEED \(seed) step \(step) merge \(theirs) into \(mine) (\(done.outcome))")
                            for id in Set(got.keys).union(expected.items.keys).sorted() where got[id] != expected.items[id]?.content {
                                print(
                                    "  \(id): got \(got[id].map(String.init(describing:)) ?? "none"), want \(expected.items[id].map { String(describing: $0.content) } ?? "none")"
                                )
                            }
                            return false
                        }
                        // Merging again changes nothing.
                        let again = try CopyMerge.plan(mine: stores[mine], theirs: stores[theirs], trees: [tree])
                        XCTAssertTrue(
                            again.outcome == .upToDate || (again.conflicts.isEmpty && again.changedObjects == 0), "\(at): merging again")
                    }
                    // Any order, any grouping: all copies merged into one along two schedules (one
                    // after another into the first; in pairs from the last, then into the first)
                    // give the same items, values and sibling order, when no merge on the way meets
                    // a conflict (a conflict's resolution depends on who merges whom).
                    if try mergesAgreeInAnyOrder(stores, seed: seed) { orderChecks += 1 }
                    // Everyone merges everyone: copy 0 takes each in turn, then each takes copy 0.
                    for other in 1..<count {
                        let plan = try merge(stores[0], stores[other], prefer: .theirs)
                        if only != nil { print("final: merge \(other) into 0: \(plan.outcome) \(try content(stores[0]))") }
                    }
                    for other in 1..<count {
                        let plan = try merge(stores[other], stores[0], prefer: .theirs)
                        if only != nil { print("final: merge 0 into \(other): \(plan.outcome) \(try content(stores[other]))") }
                        XCTAssertTrue(plan.outcome != .merged, "\(message): copy \(other) takes copy 0's state as it is")
                    }
                    let first = try logicalContent(stores[0])
                    for other in 1..<count {
                        if try logicalContent(stores[other]) != first {
                            XCTFail(
                                "\(message): copy \(other) ends as copy 0: \(try content(stores[other])) against \(try content(stores[0]))")
                        }
                        XCTAssertEqual(
                            try CopyMerge.plan(mine: stores[0], theirs: stores[other], trees: [tree]).outcome, .upToDate, message)
                    }
                    for store in stores { XCTAssertEqual(try store.integrityProblems(), [], message) }
                    if only != nil { print("seed \(seed): \(merges) merges") }
                    return true
                }
            }
            guard goOn else { return }
        }
        if only == nil {
            XCTAssertGreaterThan(conflicted, 50, "the schedules meet conflicts")
            XCTAssertGreaterThan(fastForwards, 50, "and copies that take another's state")
            XCTAssertGreaterThan(orderChecks, 100, "and merges of every copy in two orders")
            XCTAssertGreaterThan(reverts, 100, "and copies that undo and revert")
            XCTAssertGreaterThan(subtreeDeletes, 50, "and deletes of whole subtrees")
        }
    }
}
