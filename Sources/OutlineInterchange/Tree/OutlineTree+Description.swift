// MARK: - CustomStringConvertible

extension OutlineTree: CustomStringConvertible {
    /// A one-line summary, for example
    /// `OutlineTree(5 items, 3 levels, OPML 2.0, head: title, ownerName)`; it stays short
    /// however large the outline is.
    public var description: String {
        var parts = ["\(count) items", "\(maxDepth) levels"]
        if let opmlVersion { parts.append("OPML \(opmlVersion)") }
        if !head.isEmpty { parts.append("head: " + head.map(\.name).joined(separator: ", ")) }
        return "OutlineTree(" + parts.joined(separator: ", ") + ")"
    }
}
