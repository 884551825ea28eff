// MARK: - Building

extension OutlineTree {
    /// Appends `item` as the last child of `parent` and returns the new item's ID.
    ///
    /// For example: `let top = tree.appendChild(OutlineItem(title: "Inbox"), to: tree.root)`.
    ///
    /// - precondition: `parent` comes from this tree.
    @discardableResult
    public mutating func appendChild(_ item: OutlineItem, to parent: NodeID) -> NodeID {
        checkNode(parent)
        let index = nodes.count
        nodes.append(Node(item: item, parent: parent.index))
        nodes[parent.index].children.append(index)
        return NodeID(index: index)
    }

    /// Appends a new item with the given content as the last child of `parent`.
    ///
    /// For example: `tree.appendChild(title: "Milk", to: groceries)`.
    ///
    /// - precondition: `parent` comes from this tree.
    @discardableResult
    public mutating func appendChild(
        title: String,
        note: String? = nil,
        attributes: [OutlineAttribute] = [],
        to parent: NodeID
    ) -> NodeID {
        appendChild(OutlineItem(title: title, note: note, attributes: attributes), to: parent)
    }
}
