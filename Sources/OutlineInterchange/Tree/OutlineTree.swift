// MARK: - OutlineTree

/// A whole outline as a value: items with titles, notes and attributes, in order, at any depth,
/// plus the document's head fields and OPML version.
///
/// The tree is stored flat (an array of nodes that refer to each other by index), never as
/// nested values, so building, walking, comparing, encoding and destroying a tree never
/// recurse: a chain 100,000 items deep is as safe as a flat list.
///
/// Items are addressed by ``NodeID``. The invisible ``root`` is the parent of the top-level
/// items; it has no item of its own.
///
/// For example:
/// ```swift
/// var tree = OutlineTree(head: [OutlineAttribute("title", "Trip")])
/// let packing = tree.appendChild(OutlineItem(title: "Packing"), to: tree.root)
/// tree.appendChild(OutlineItem(title: "Passport", note: "Check the expiry date"), to: packing)
/// for visit in tree.depthFirst() { print(String(repeating: "  ", count: visit.depth - 1) + visit.item.title) }
/// ```
public struct OutlineTree: Sendable {
    /// The OPML version the outline was read from (`"1.0"`, `"2.0"`), or `nil` if it did not
    /// come from OPML. The OPML writer writes this version back, or `"2.0"` when it is `nil`.
    public var opmlVersion: String?
    /// The head fields (OPML `<head>` elements such as `title`, `dateCreated`, `ownerName`,
    /// `expansionState`), in their original order.
    public var head: [OutlineAttribute]
    /// Attributes of the OPML `<body>` element, in order (some editors store the document's
    /// name there as `text`). Empty for most outlines.
    public var bodyAttributes: [OutlineAttribute]

    /// All nodes; index 0 is the root. A node's children are listed in order by index.
    var nodes: [Node]

    /// Creates an empty outline.
    ///
    /// - Parameters:
    ///   - opmlVersion: The OPML version to record, if any.
    ///   - head: The head fields, in order.
    ///   - bodyAttributes: The attributes of the OPML `<body>` element, in order.
    public init(opmlVersion: String? = nil, head: [OutlineAttribute] = [], bodyAttributes: [OutlineAttribute] = []) {
        self.opmlVersion = opmlVersion
        self.head = head
        self.bodyAttributes = bodyAttributes
        self.nodes = [Node(item: OutlineItem(title: ""), parent: nil)]
    }
}

// MARK: - Node identity

extension OutlineTree {
    /// The identity of one node in one tree.
    ///
    /// An ID is only meaningful for the tree that returned it (and copies of that tree).
    public struct NodeID: Hashable, Sendable {
        /// The node's index in the tree's storage.
        let index: Int
    }

    /// One stored node: the item, its parent and its ordered children.
    struct Node: Sendable {
        var item: OutlineItem
        var parent: Int?
        var children: [Int] = []
    }

    /// The invisible parent of the top-level items.
    public var root: NodeID { NodeID(index: 0) }

    /// The number of items, not counting the root.
    public var count: Int { nodes.count - 1 }

    /// Whether the outline has no items.
    public var isEmpty: Bool { nodes.count == 1 }
}

// MARK: - Access

extension OutlineTree {
    /// The item stored at `id`.
    ///
    /// - precondition: `id` comes from this tree and is not ``root`` (the root has no item).
    public subscript(id: NodeID) -> OutlineItem {
        get {
            checkItem(id)
            return nodes[id.index].item
        }
        set {
            checkItem(id)
            nodes[id.index].item = newValue
        }
    }

    /// The children of `id`, in order. Pass ``root`` for the top-level items.
    ///
    /// - precondition: `id` comes from this tree.
    public func children(of id: NodeID) -> [NodeID] {
        checkNode(id)
        return nodes[id.index].children.map(NodeID.init(index:))
    }

    /// The parent of `id`: ``root`` for a top-level item, `nil` for the root itself.
    ///
    /// - precondition: `id` comes from this tree.
    public func parent(of id: NodeID) -> NodeID? {
        checkNode(id)
        return nodes[id.index].parent.map(NodeID.init(index:))
    }

    func checkNode(_ id: NodeID) {
        precondition(id.index >= 0 && id.index < nodes.count, "NodeID \(id.index) does not belong to this tree")
    }

    func checkItem(_ id: NodeID) {
        checkNode(id)
        precondition(id.index != 0, "the root of an OutlineTree has no item")
    }
}
