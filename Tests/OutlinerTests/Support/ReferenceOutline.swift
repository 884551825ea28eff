import OutlineInterchange
import Outliner

// MARK: - ReferenceOutline

/// An outline as plain values, edited by the simplest possible code: the oracle the
/// property test holds the store to. Items are named by keys; 0 is the root.
struct ReferenceOutline {
    private(set) var items: [Int: OutlineItem] = [:]
    private(set) var children: [Int: [Int]] = [0: []]
    private var parents: [Int: Int] = [:]
    private var nextKey = 1

    /// A copy of `tree`'s items.
    init(_ tree: OutlineTree) {
        var pending = [(tree.root, 0)]
        while let (node, key) = pending.popLast() {
            for child in tree.children(of: node) { pending.append((child, add(tree[child], under: key, at: children[key]!.count))) }
        }
    }

    /// The items as an ``OutlineTree`` (no head).
    var tree: OutlineTree {
        var tree = OutlineTree()
        var pending = [(0, tree.root)]
        while let (key, node) = pending.popLast() {
            for child in children[key]! { pending.append((child, tree.appendChild(items[child]!, to: node))) }
        }
        return tree
    }

    /// Every item with its index path (from 1), parents first.
    var paths: [(key: Int, path: [Int])] {
        var result: [(Int, [Int])] = []
        var pending = [(0, [Int]())]
        while let (key, path) = pending.popLast() {
            for (position, child) in children[key]!.enumerated() {
                result.append((child, path + [position + 1]))
                pending.append((child, path + [position + 1]))
            }
        }
        return result
    }

    func parent(of key: Int) -> Int { parents[key]! }
    func position(of key: Int) -> Int { children[parents[key]!]!.firstIndex(of: key)! }

    /// Whether `target` is `key` or lies below it.
    func isInside(_ target: Int, _ key: Int) -> Bool {
        var current: Int? = target
        while let node = current {
            if node == key { return true }
            current = parents[node]
        }
        return false
    }

    // MARK: - Edits

    @discardableResult
    mutating func add(_ item: OutlineItem, under parent: Int, at index: Int) -> Int {
        let key = nextKey
        nextKey += 1
        items[key] = item
        children[key] = []
        children[parent]!.insert(key, at: index)
        parents[key] = parent
        return key
    }

    mutating func rename(_ key: Int, to title: String) { items[key]!.title = title }
    mutating func setNote(_ key: Int, to note: String?) { items[key]!.note = note }

    mutating func move(_ key: Int, under parent: Int, at index: Int) {
        children[parents[key]!]!.removeAll { $0 == key }
        children[parent]!.insert(key, at: index)
        parents[key] = parent
    }

    /// Deletes `key` and everything below it; returns how many items went.
    mutating func delete(_ key: Int) -> Int {
        children[parents[key]!]!.removeAll { $0 == key }
        var pending = [key]
        var count = 0
        while let node = pending.popLast() {
            pending += children.removeValue(forKey: node)!
            items[node] = nil
            parents[node] = nil
            count += 1
        }
        return count
    }
}
