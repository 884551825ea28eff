import PodDocStore

// MARK: - OutlineDiff

/// What changed between two states of one outline, in the outline's terms: items added,
/// removed, moved, renamed, notes changed, other properties changed. Items are matched by
/// their object IDs, so the two states are two copies of one document, or one document at two
/// saves.
///
/// ```swift
/// let diff = try OutlineDiff(from: before.store, to: after.store)
/// for change in diff.changes { print(change.kind, change.path, change.title) }
/// ```
public struct OutlineDiff: Sendable {
    /// One difference.
    public struct Change: Sendable, Hashable, Encodable {
        /// What happened to the item.
        public enum Kind: String, Sendable, Hashable, Encodable {
            /// Only in the later state (with `below` items under it that came with it).
            case added
            /// Only in the earlier state (with `below` items under it that went with it).
            case removed
            /// Under another parent, or in another place among the same siblings.
            case moved
            /// Its title changed (`from` holds the old one).
            case renamed
            /// Its note changed.
            case noteChanged
            /// Other properties changed (`properties` names them): its OPML attributes, or
            /// the outline's head fields and version, on the root.
            case changed
        }

        /// What happened.
        public let kind: Kind
        /// The item's title (the earlier one for a removed item).
        public let title: String
        /// Where it is, as positions from 1 (`1.3.2`; where it was, for a removed item);
        /// empty for the outline itself (its head fields).
        public let path: String
        /// Where it was, for a moved item; the old title, for a renamed one.
        public let from: String?
        /// For an added or removed item, how many items below it came or went with it.
        public let below: Int?
        /// For ``Kind/changed``, the properties.
        public let properties: [String]?
    }

    /// The differences: removed items first (in the earlier outline's order), then the rest
    /// in the later outline's order.
    public let changes: [Change]

    /// Compares the outlines two stores hold.
    ///
    /// - Throws: ``OutlineError`` (`storeFailed`) when a store cannot be read.
    public init(from earlier: PersistentStore, to later: PersistentStore) throws(OutlineError) {
        let a = try Tree(earlier, skipping: Self.shownElsewhere)
        let b = try Tree(later, skipping: Self.shownElsewhere)
        var changes: [Change] = []

        // Removed: each removed subtree once, at its top.
        for id in a.preorder where b.index[id] == nil {
            let item = a.index[id]!
            // Below a removed item (not the root: an outline may gain a new root), it went
            // with that item.
            if let parent = a.parents[item], parent != a.root, b.index[parent] == nil { continue }
            changes.append(
                Change(
                    kind: .removed, title: a.titles[item], path: a.path(id), from: nil,
                    below: a.count(below: id) { b.index[$0] == nil }, properties: nil))
        }
        let moved = Self.movedWithinTheirParents(a, b)
        for id in b.preorder {
            let item = b.index[id]!
            let title = b.titles[item]
            let parent = b.parents[item]
            guard let old = a.index[id] else {
                if let parent, parent != b.root, a.index[parent] == nil { continue }  // came with an added item above it
                changes.append(
                    Change(
                        kind: .added, title: title, path: b.path(id), from: nil, below: b.count(below: id) { a.index[$0] == nil },
                        properties: nil))
                continue
            }
            if a.parents[old] != parent || moved.contains(id) {
                changes.append(Change(kind: .moved, title: title, path: b.path(id), from: a.path(id), below: nil, properties: nil))
            }
            if a.titles[old] != title, parent != nil {
                changes.append(Change(kind: .renamed, title: title, path: b.path(id), from: a.titles[old], below: nil, properties: nil))
            }
            if a.notes[old] != b.notes[item] {
                changes.append(Change(kind: .noteChanged, title: title, path: b.path(id), from: nil, below: nil, properties: nil))
            }
            let others = b.propertiesDiffering(at: item, from: a, at: old)
            if !others.isEmpty {
                changes.append(Change(kind: .changed, title: title, path: b.path(id), from: nil, below: nil, properties: others))
            }
        }
        self.changes = changes
    }

    /// Properties reported by their own kinds of change, or that change with every edit.
    private static let shownElsewhere: Set<String> = [
        OutlineSchema.title.name, OutlineSchema.note.name, OutlineSchema.order.name, OutlineSchema.parent.name,
        OutlineSchema.modified.name,
    ]

    /// Items that kept their parent but not their place among the siblings both outlines
    /// have: those outside a longest run that kept its order (so inserting or removing a
    /// sibling moves nothing, and moving one item reports that item alone).
    private static func movedWithinTheirParents(_ a: Tree, _ b: Tree) -> Set<Int64> {
        var moved: Set<Int64> = []
        for (parent, childrenB) in b.children {
            guard let childrenA = a.children[parent] else { continue }
            var rankInB: [Int64: Int] = [:]
            for (rank, id) in childrenB.enumerated() { rankInB[id] = rank }
            let common = childrenA.filter { id in
                guard rankInB[id] != nil, let inA = a.index[id], let inB = b.index[id] else { return false }
                return a.parents[inA] == b.parents[inB]
            }
            let kept = Set(ResultsDiff.longestIncreasingSubsequence(common.map { rankInB[$0]! }).map { common[$0] })
            moved.formUnion(common.filter { !kept.contains($0) })
        }
        return moved
    }
}

/// One outline, read whole but kept compact (a hundred thousand items take a few megabytes):
/// each item's title, note, parent and a hash of each other property, in arrays by position
/// (``index`` finds an item's), its children in order, and the items in outline order.
private struct Tree {
    /// Each item's position in the arrays below, by row id.
    private(set) var index: [Int64: Int] = [:]
    private(set) var titles: [String] = []
    private(set) var notes: [String?] = []
    private(set) var parents: [Int64?] = []
    /// The properties compared by hash (those no other kind of change reports), and the
    /// hashes: `propertyNames.count` an item, in the items' order.
    private var propertyNames: [String] = []
    private var hashes: [Int] = []
    /// Children in order, by parent.
    private(set) var children: [Int64: [Int64]] = [:]
    /// Every item but the root, parents before children, siblings in order.
    private(set) var preorder: [Int64] = []
    private(set) var root: Int64?
    /// Each item's position among its siblings, from 1, in the items' order.
    private var positions: [Int32] = []

    init(_ store: PersistentStore, skipping shownElsewhere: Set<String>) throws(OutlineError) {
        var orders: [Int64: Int] = [:]
        do {
            try store.readSnapshot { snapshot in
                let rows = try snapshot.rows(FetchRequest(OutlineSchema.entityName))
                while let row = try rows.next() {
                    guard let id = row.objectID.rowID else { continue }
                    let parent = row[OutlineSchema.parent]?.rowID
                    let properties = row.propertyHashes(skipping: shownElsewhere)
                    if propertyNames.isEmpty { propertyNames = properties.map(\.name) }
                    index[id] = titles.count
                    titles.append(row[OutlineSchema.title])
                    notes.append(row[OutlineSchema.note])
                    parents.append(parent)
                    hashes.append(contentsOf: properties.map(\.hash))
                    orders[id] = row[OutlineSchema.order]
                    if let parent { children[parent, default: []].append(id) } else if root == nil { root = id }
                }
            }
        } catch {
            throw OutlineError.storeFailed(error, while: "reading the outline to compare")
        }
        positions = Array(repeating: 0, count: titles.count)
        for (parent, ids) in children {
            let sorted = ids.sorted { (orders[$0]!, $0) < (orders[$1]!, $1) }
            children[parent] = sorted
            for (position, id) in sorted.enumerated() { positions[index[id]!] = Int32(position + 1) }
        }
        var stack = (root.flatMap { children[$0] } ?? []).reversed() as [Int64]
        while let id = stack.popLast() {
            preorder.append(id)
            stack.append(contentsOf: (children[id] ?? []).reversed())
        }
    }

    /// The names of the hashed properties of the item at `item` that differ from those of the
    /// item at `other` of `earlier`.
    func propertiesDiffering(at item: Int, from earlier: Tree, at other: Int) -> [String] {
        let count = propertyNames.count
        guard count == earlier.propertyNames.count else { return propertyNames }
        return (0..<count).filter { hashes[item * count + $0] != earlier.hashes[other * count + $0] }.map { propertyNames[$0] }
    }

    /// `1.3.2`; empty for the root.
    func path(_ id: Int64) -> String {
        var parts: [Int] = []
        var current: Int64? = id
        while let node = current, node != root, let item = index[node], positions[item] > 0, parts.count <= titles.count {
            parts.append(Int(positions[item]))
            current = parents[item]
        }
        return parts.reversed().map(String.init).joined(separator: ".")
    }

    /// How many items below `id` satisfy `condition`, counting down while they do.
    func count(below id: Int64, where condition: (Int64) -> Bool) -> Int {
        var count = 0
        var stack = children[id] ?? []
        while let node = stack.popLast() {
            guard condition(node) else { continue }
            count += 1
            stack.append(contentsOf: children[node] ?? [])
        }
        return count
    }
}
