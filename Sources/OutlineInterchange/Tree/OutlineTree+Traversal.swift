// MARK: - Traversal steps

extension OutlineTree {
    /// One step of a depth-first walk: entering an item (before its children) or leaving it
    /// (after its children). Writers that need closing tags or brackets use both.
    enum TraversalStep {
        case enter(NodeID, depth: Int)
        case exit(NodeID, depth: Int)
    }

    /// Walks the tree depth-first with an explicit stack (no recursion) and yields every
    /// item's enter and exit steps. Depth 1 is a top-level item.
    struct TraversalIterator: IteratorProtocol {
        private let nodes: [Node]
        /// The open path: each node with the position of its next child to visit.
        private var stack: [(node: Int, nextChild: Int)]
        /// Where the walk of the root's children stops.
        private let topLevelEnd: Int

        /// A walk of the whole tree, or of the subtrees of the top-level items at the
        /// positions `topLevel`.
        init(nodes: [Node], topLevel: Range<Int>? = nil) {
            self.nodes = nodes
            stack = [(0, topLevel?.lowerBound ?? 0)]
            topLevelEnd = topLevel?.upperBound ?? .max
        }

        mutating func next() -> TraversalStep? {
            while let top = stack.last {
                let children = nodes[top.node].children
                if top.nextChild < (top.node == 0 ? min(children.count, topLevelEnd) : children.count) {
                    stack[stack.count - 1].nextChild += 1
                    let child = children[top.nextChild]
                    stack.append((child, 0))
                    return .enter(NodeID(index: child), depth: stack.count - 1)
                }
                stack.removeLast()
                if top.node != 0 {
                    return .exit(NodeID(index: top.node), depth: stack.count)
                }
            }
            return nil
        }
    }

    /// Calls `body` for every enter and exit step of a depth-first walk.
    func traverse<Failure: Error>(_ body: (TraversalStep) throws(Failure) -> Void) throws(Failure) {
        var steps = TraversalIterator(nodes: nodes)
        while let step = steps.next() {
            try body(step)
        }
    }
}
