// MARK: - LevelTreeBuilder

/// Builds an ``OutlineTree`` from items that arrive in reading order with a nesting level
/// (0 for top level), as the line-based formats produce them.
struct LevelTreeBuilder {
    private var tree = OutlineTree()
    /// The last item at each level of the current path.
    private var path: [OutlineTree.NodeID] = []
    /// The note lines of the most recent item, joined when the next item starts.
    private var noteLines: [String] = []

    /// Whether an item has been appended yet.
    var hasItems: Bool { !path.isEmpty }

    /// Whether a head has been set.
    var hasHead: Bool { !tree.head.isEmpty }

    /// Appends `item` at `level`.
    ///
    /// - precondition: `level` is at most one deeper than the previous item's level.
    mutating func append(_ item: OutlineItem, atLevel level: Int) {
        precondition(level <= path.count, "an item can be at most one level deeper than the one before it")
        attachNote()
        path.removeSubrange(level...)
        path.append(tree.appendChild(item, to: path.last ?? tree.root))
    }

    /// Adds a line to the note of the most recent item; lines are joined with line feeds.
    ///
    /// - precondition: An item has been appended.
    mutating func appendNoteLine(_ line: String) {
        precondition(hasItems, "a note line needs an item before it")
        noteLines.append(line)
    }

    /// Sets the head fields of the tree being built.
    mutating func setHead(_ head: [OutlineAttribute]) {
        tree.head = head
    }

    /// The finished tree.
    mutating func finish() -> OutlineTree {
        attachNote()
        return tree
    }

    private mutating func attachNote() {
        guard let id = path.last, !noteLines.isEmpty else { return }
        tree[id].note = noteLines.joined(separator: "\n")
        noteLines.removeAll()
    }
}
