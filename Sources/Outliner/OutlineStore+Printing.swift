import OutlineInterchange
import PodDocStore

// MARK: - Printing

extension OutlineStore {
    /// Deeper items are not indented further, but show their depth: `[42] 1. Title`.
    public static let printedIndentLimit = 32

    /// The items below `id` (the whole outline, for the root) as numbered, indented lines,
    /// at most `maxDepth` levels deep:
    ///
    /// ```
    /// 1. Groceries
    ///   1. Milk
    ///   2. Eggs
    /// 2. Work
    /// ```
    ///
    /// Each number is the item's position in its list, so the item `Eggs` above is `1.2`.
    /// Titles are escaped onto one line (`\n` for a line break). Past
    /// ``printedIndentLimit`` levels lines stop moving right and show their depth instead.
    ///
    /// Titles alone are read, never notes. With a depth limit only those levels are read;
    /// printing the first level of a million-item outline reads its first level only.
    ///
    /// - Throws: ``OutlineError``: `notFound`; `invalidArgument` when `maxDepth` is below 1.
    public func printTree(from id: ObjectID? = nil, maxDepth: Int? = nil) throws(OutlineError) -> String {
        if let maxDepth, maxDepth < 1 {
            throw OutlineError(.invalidArgument, "The depth to print must be at least 1, not \(maxDepth).")
        }
        let start = id ?? rootID
        let subtree = try loadSubtree(below: start, holding: OutlineItem(title: title(of: start)), maxDepth: maxDepth, titlesOnly: true)
        var text: [UInt8] = []
        subtree.walk { entry, depth, position in
            let indent = min(depth - 1, OutlineStore.printedIndentLimit)
            text.append(contentsOf: repeatElement(ASCII.space, count: 2 * indent))
            if depth - 1 > OutlineStore.printedIndentLimit { text.append(contentsOf: "[\(depth)] ".utf8) }
            text.append(contentsOf: "\(position). ".utf8)
            text.append(contentsOf: LineEscaping.escape(subtree.entries[entry].item.title))
            text.append(ASCII.lineFeed)
        }
        return String(decoding: text, as: UTF8.self)
    }
}
