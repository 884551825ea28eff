// MARK: - Equatable

extension OutlineTree: Equatable {
    /// Two outlines are equal when their OPML version, head fields, body attributes and items (titles, notes,
    /// attributes and order, at every depth) are equal. How the trees were built (the order in
    /// which items were appended) does not matter. The comparison is iterative.
    public static func == (lhs: OutlineTree, rhs: OutlineTree) -> Bool {
        lhs.opmlVersion == rhs.opmlVersion && lhs.head == rhs.head && lhs.bodyAttributes == rhs.bodyAttributes
            && lhs.hasSameItems(as: rhs)
    }
}

// MARK: - Item comparison

extension OutlineTree {
    /// Whether both outlines have the same items (titles, notes, attributes, order and
    /// nesting), ignoring the head fields, body attributes and OPML version.
    public func hasSameItems(as other: OutlineTree) -> Bool {
        hasSameItems(as: other) { $0 == $1 }
    }

    /// Whether both outlines have the same shape (nesting and order) and every pair of items in
    /// the same position satisfies `areEquivalent`. Use it to compare through a format that
    /// keeps only part of an item, for example titles and notes for Markdown.
    ///
    /// For example:
    /// ```swift
    /// original.hasSameItems(as: reimported) { $0.title == $1.title }
    /// ```
    public func hasSameItems(
        as other: OutlineTree,
        by areEquivalent: (OutlineItem, OutlineItem) -> Bool
    ) -> Bool {
        guard nodes.count == other.nodes.count else { return false }
        var pending: [(Int, Int)] = [(0, 0)]
        while let (left, right) = pending.popLast() {
            let leftNode = nodes[left]
            let rightNode = other.nodes[right]
            guard leftNode.children.count == rightNode.children.count else { return false }
            if left != 0 && !areEquivalent(leftNode.item, rightNode.item) { return false }
            pending.append(contentsOf: zip(leftNode.children, rightNode.children))
        }
        return true
    }
}
