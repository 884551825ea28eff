import OutlineInterchange
import PodDocStore

// MARK: - OutlineMatch

/// An item found by ``OutlineStore/find(_:status:limit:)``.
public struct OutlineMatch: Sendable, Equatable {
    /// The item's ID.
    public let id: ObjectID
    /// Where it is: positions from the top, each from 1 (as in ``OutlinePath/indexes(_:)``).
    public let indexPath: [Int]
    /// Its title (the note is not read: read the item with ``OutlineStore/item(_:)``).
    public let title: String
}

// MARK: - Addressing items

extension OutlineStore {
    /// The item a path leads to (the root for an empty path).
    ///
    /// ```swift
    /// let eggs = try outline.itemID(at: OutlinePath(parsing: "1.2"))
    /// ```
    ///
    /// - Throws: ``OutlineError``: `notFound` naming the first step that leads nowhere,
    ///   `ambiguousPath` when a title matches several siblings (with their index paths).
    public func itemID(at path: OutlinePath) throws(OutlineError) -> ObjectID {
        // IDs and positions only: the items passed on the way (their notes) stay unread.
        var current = rootID
        var reached: [Int] = []
        let context = self.context
        switch path {
        case .indexes(let positions):
            for position in positions {
                let request = FetchRequest(
                    OutlineSchema.entityName, where: OutlineSchema.parent == current, sortBy: [FetchSort(OutlineSchema.order)],
                    limit: 1, offset: position - 1)
                let child = position < 1 ? nil : try OutlineStore.reading("following a path") { try context.fetchIDs(request).first }
                guard let child else {
                    let parent = current
                    let count = try OutlineStore.reading("following a path") {
                        try context.count(for: FetchRequest(OutlineSchema.entityName, where: OutlineSchema.parent == parent))
                    }
                    throw OutlineError.notFound(
                        "There is no item \(OutlinePath.indexes(reached + [position])): \(describe(reached)) has \(count) \(count == 1 ? "child" : "children")."
                    )
                }
                current = child
                reached.append(position)
            }
        case .titles(let titles):
            for title in titles {
                let request = FetchRequest(
                    OutlineSchema.entityName, where: OutlineSchema.parent == current && OutlineSchema.title == title,
                    sortBy: [FetchSort(OutlineSchema.order)])
                let matches = try OutlineStore.reading("following a path") { try context.fetchIDs(request) }
                let parent = current
                let orders = try matches.count == 1 ? [] : positions(of: matches.prefix(5).map { ($0, parent) }).map { $0 + 1 }
                guard let match = matches.first else {
                    throw OutlineError.notFound("There is no item titled \(ActionName.quoted(title)) in \(describe(reached)).")
                }
                guard matches.count == 1 else {
                    let paths = orders.prefix(5).map { OutlinePath.indexes(reached + [$0]).description }
                    throw OutlineError(
                        .ambiguousPath,
                        "\(matches.count) items are titled \(ActionName.quoted(title)) in \(describe(reached)) (\(paths.joined(separator: ", "))\(matches.count > 5 ? ", …" : "")); address the one you mean by its index path."
                    )
                }
                reached.append(try positions(of: [(match, current)])[0] + 1)
                current = match
            }
        }
        return current
    }

    /// Where an item is: its positions from the top, each from 1 (empty for the root).
    ///
    /// - Throws: ``OutlineError/Code/notFound`` when there is no such item.
    public func indexPath(of id: ObjectID) throws(OutlineError) -> [Int] {
        _ = try title(of: id)
        return try indexPaths(of: [context.resolve(id)])[0]
    }

    /// The index paths of items that exist: one walk up per item, and the positions of
    /// every item met read in one batch.
    func indexPaths(of ids: [ObjectID]) throws(OutlineError) -> [[Int]] {
        let root = rootID
        var chains: [[ObjectID]] = []
        for id in ids {
            let above = try OutlineStore.reading("walking up the outline") {
                try context.ancestorIDs(of: id, following: OutlineSchema.parent)
            }
            guard id == root || above.last == root else {
                throw OutlineError.damaged("\(id) is not below the root item")
            }
            chains.append(Array(above.dropLast().reversed()) + (id == root ? [] : [id]))
        }
        // Each item with its parent: the one before it on its chain, or the root.
        var met: [ObjectID: ObjectID] = [:]
        for chain in chains {
            for (index, id) in chain.enumerated() { met[id] = index == 0 ? root : chain[index - 1] }
        }
        let items = Array(met)
        let found = try positions(of: items.map { ($0.key, $0.value) })
        var positions: [ObjectID: Int] = [:]
        for (item, position) in zip(items, found) { positions[item.key] = position + 1 }
        return chains.map { chain in chain.compactMap { positions[$0] } }
    }

    /// The positions (from 0) of items among the children of their parents: for each, the
    /// siblings with a smaller key counted in the `(parent, order)` index, and those sharing
    /// its key (rare) read to place it among them by id. No sibling list is read whole, and
    /// no item's note.
    private func positions(of items: [(id: ObjectID, parent: ObjectID)]) throws(OutlineError) -> [Int] {
        let context = self.context
        let keys = try OutlineStore.reading("reading positions") { try context.values(of: items.map(\.id), reading: [OutlineSchema.order]) }
        var result: [Int] = []
        for ((id, parent), values) in zip(items, keys) {
            let key = values.flatMap { Int.fromStoreValue($0.values[0]) } ?? 0
            let position = try OutlineStore.reading("reading positions") { () -> Int in
                let before = try context.count(
                    for: FetchRequest(OutlineSchema.entityName, where: OutlineSchema.parent == parent && OutlineSchema.order < key))
                let alike = try context.fetchIDs(
                    FetchRequest(
                        OutlineSchema.entityName, where: OutlineSchema.parent == parent && OutlineSchema.order == key,
                        sortBy: [FetchSort(OutlineSchema.order)]))
                return before + (alike.map(context.resolve).firstIndex(of: context.resolve(id)) ?? 0)
            }
            result.append(position)
        }
        return result
    }

    /// "the outline" or "item 1.3", for messages.
    private func describe(_ path: [Int]) -> String {
        path.isEmpty ? "the outline" : "item \(OutlinePath.indexes(path))"
    }
}

// MARK: - Finding items

extension OutlineStore {
    /// The items whose title contains every word of `text` (ASCII letters in either case),
    /// in outline order, at most `limit` of them. Titles and positions are read, never notes.
    ///
    /// ```swift
    /// for match in try outline.find("milk eggs") {
    ///     print(OutlinePath.indexes(match.indexPath), match.title)
    /// }
    /// ```
    ///
    /// When more items match than `limit`, the ones returned are the first `limit` made.
    ///
    /// - Throws: ``OutlineError/Code/invalidArgument`` when `text` has no word or `limit`
    ///   is not positive.
    public func find(_ text: String, status: OutlineStatus? = nil, limit: Int = 100) throws(OutlineError) -> [OutlineMatch] {
        let words = text.split(whereSeparator: \.isWhitespace).map(String.init)
        guard !words.isEmpty || status != nil, limit > 0 else {
            throw OutlineError(
                .invalidArgument,
                limit > 0 ? "Give at least one word to look for, or a status." : "The number of results must be at least 1, not \(limit).")
        }
        var conditions = words.map { OutlineSchema.title.contains($0, caseInsensitive: true) }
        if let status { conditions.append(OutlineSchema.status == status.rawValue) }
        let predicate = conditions.dropFirst().reduce(conditions[0]) { $0 && $1 }
        let request = FetchRequest(OutlineSchema.entityName, where: predicate, limit: limit)
        let context = self.context
        let (found, titles) = try OutlineStore.reading("searching titles") {
            let ids = try context.fetchIDs(request)
            return (ids, try context.values(of: ids, reading: [OutlineSchema.title]))
        }
        let paths = try indexPaths(of: found)
        var matches: [OutlineMatch] = []
        for ((id, title), path) in zip(zip(found, titles), paths) {
            matches.append(OutlineMatch(id: id, indexPath: path, title: title.flatMap { String.fromStoreValue($0.values[0]) } ?? ""))
        }
        return matches.sorted { $0.indexPath.lexicographicallyPrecedes($1.indexPath) }
    }
}
