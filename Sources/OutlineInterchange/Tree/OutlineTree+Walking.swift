// MARK: - Depth-first walk

extension OutlineTree {
    /// One item met during a depth-first walk.
    public struct Visit: Sendable {
        /// The item's ID in the walked tree.
        public var id: NodeID
        /// The item's depth: 1 for a top-level item, 2 for its children, and so on.
        public var depth: Int
        /// The item's content.
        public var item: OutlineItem
    }

    /// A sequence of every item in depth-first pre-order (a parent before its children,
    /// siblings in order), with its depth. The walk uses an explicit stack, never recursion.
    public struct DepthFirstSequence: Sequence, Sendable {
        let tree: OutlineTree
        /// The positions of the top-level items whose subtrees are walked; nil for all.
        var topLevel: Range<Int>? = nil

        /// Returns an iterator over the walk.
        public func makeIterator() -> Iterator {
            Iterator(tree: tree, steps: TraversalIterator(nodes: tree.nodes, topLevel: topLevel))
        }

        /// The iterator of a ``DepthFirstSequence``.
        public struct Iterator: IteratorProtocol {
            let tree: OutlineTree
            var steps: TraversalIterator

            /// Returns the next item in pre-order, or `nil` when the walk is over.
            public mutating func next() -> Visit? {
                while let step = steps.next() {
                    if case .enter(let id, let depth) = step {
                        return Visit(id: id, depth: depth, item: tree.nodes[id.index].item)
                    }
                }
                return nil
            }
        }
    }

    /// Every item in depth-first pre-order with its depth.
    ///
    /// For example, to print an indented outline:
    /// ```swift
    /// for visit in tree.depthFirst() {
    ///     print(String(repeating: "\t", count: visit.depth - 1) + visit.item.title)
    /// }
    /// ```
    public func depthFirst() -> DepthFirstSequence {
        DepthFirstSequence(tree: self)
    }

    /// The items of the subtrees of the top-level items at the positions `topLevel` (from 0),
    /// in depth-first pre-order with their depths: one part of ``depthFirst()``, so that
    /// parts of a large outline can be walked on threads of their own.
    ///
    /// - Precondition: `topLevel` lies within the top-level items.
    public func depthFirst(topLevel: Range<Int>) -> DepthFirstSequence {
        precondition(topLevel.upperBound <= nodes[0].children.count, "the tree has \(nodes[0].children.count) top-level items")
        return DepthFirstSequence(tree: self, topLevel: topLevel)
    }

    /// How many items each top-level item's subtree holds, itself included, in order.
    public var topLevelSubtreeSizes: [Int] {
        let topLevel = nodes[0].children
        var position = [Int](repeating: -1, count: nodes.count)
        for (offset, index) in topLevel.enumerated() { position[index] = offset }
        var sizes = [Int](repeating: 0, count: topLevel.count)
        // Parents are always stored before their children: a node's top-level item is known
        // once its parent's is.
        for index in nodes.indices.dropFirst() {
            if position[index] < 0, let parent = nodes[index].parent { position[index] = position[parent] }
            sizes[position[index]] += 1
        }
        return sizes
    }

    /// The depth of the deepest item: 0 for an empty outline, 1 for a flat list.
    public var maxDepth: Int {
        var depths = [Int](repeating: 0, count: nodes.count)
        var deepest = 0
        // Parents are always stored before their children, so one forward pass suffices.
        for index in nodes.indices.dropFirst() {
            let depth = depths[nodes[index].parent ?? 0] + 1
            depths[index] = depth
            deepest = max(deepest, depth)
        }
        return deepest
    }
}
