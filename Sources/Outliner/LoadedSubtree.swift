import OutlineInterchange
import PodDocStore

// MARK: - LoadedSubtree

/// The items below one item, read into memory with their children in order: what exporting
/// and printing work from. Entry 0 is the start item.
struct LoadedSubtree {
    /// One item and the entries of its children, in order.
    struct Entry {
        var item: OutlineItem
        var order: Int
        var children: [Int] = []
    }

    var entries: [Entry]

    /// Calls `body` for every item below the start, depth-first, parents before children:
    /// with its entry, its depth (1 for the start's children) and its position among its
    /// siblings (from 1). An explicit stack, never recursion.
    func walk(_ body: (_ entry: Int, _ depth: Int, _ position: Int) -> Void) {
        var stack: [(entry: Int, next: Int)] = [(0, 0)]
        while let top = stack.last {
            let children = entries[top.entry].children
            guard top.next < children.count else {
                stack.removeLast()
                continue
            }
            stack[stack.count - 1].next += 1
            body(children[top.next], stack.count, top.next + 1)
            stack.append((children[top.next], 0))
        }
    }
}

// MARK: - Loading

extension OutlineStore {
    /// Reads the items below `start` (entry 0 holding `first`), at most `maxDepth` levels of
    /// them (all when nil); with
    /// `titlesOnly`, each item's title alone (notes and attributes stay unread, so printing
    /// costs nothing for them however long they are).
    ///
    /// With a depth limit the levels are read one at a time, a batch of parents per query, so
    /// printing the top of a million-item outline reads only its top. Without one, the whole
    /// subtree comes from one recursive query, then its values in batches: a chain 100,000
    /// levels deep costs as little as a flat list.
    func loadSubtree(
        below start: ObjectID, holding first: OutlineItem, maxDepth: Int?, titlesOnly: Bool = false
    ) throws(OutlineError)
        -> LoadedSubtree
    {
        var loader = SubtreeLoader(context: context, titlesOnly: titlesOnly, start: LoadedSubtree.Entry(item: first, order: 0), id: start)
        if let maxDepth {
            try loader.loadLevels(below: start, maxDepth: maxDepth)
        } else {
            try loader.loadAll(below: start)
        }
        return loader.finish()
    }
}

/// Builds a ``LoadedSubtree`` from items read in batches.
private struct SubtreeLoader {
    static let batchSize = 500

    let context: ObjectContext
    /// Whether items are read with their titles alone (`ObjectContext.values(of:reading:presenceOf:)`)
    /// rather than as objects.
    let titlesOnly: Bool
    var entries: [LoadedSubtree.Entry]
    var parents: [Int] = [-1]
    /// Each entry's row id: siblings with one order key sort by it.
    var rowIDs: [Int64] = [0]
    var indexes: [ObjectID: Int]

    init(context: ObjectContext, titlesOnly: Bool, start: LoadedSubtree.Entry, id: ObjectID) {
        self.context = context
        self.titlesOnly = titlesOnly
        self.entries = [start]
        self.indexes = [id: 0]
    }

    /// One item read: what it holds, its order among its siblings, and its parent.
    private typealias Read = (id: ObjectID, item: OutlineItem, order: Int, parent: ObjectID?)

    mutating func loadAll(below start: ObjectID) throws(OutlineError) {
        let context = self.context
        let links = try OutlineStore.reading("reading the outline") {
            try context.descendantLinks(of: [start], following: OutlineSchema.parent)
        }
        entries.reserveCapacity(links.count + 1)
        parents.reserveCapacity(links.count + 1)
        rowIDs.reserveCapacity(links.count + 1)
        indexes.reserveCapacity(links.count + 1)
        for batch in stride(from: 0, to: links.count, by: SubtreeLoader.batchSize) {
            let slice = links[batch..<min(batch + SubtreeLoader.batchSize, links.count)]
            let read = try self.read(slice.map(\.object))
            for (link, item) in zip(slice, read) { try add((link.object, item.item, item.order, link.destination)) }
        }
    }

    mutating func loadLevels(below start: ObjectID, maxDepth: Int) throws(OutlineError) {
        let context = self.context
        var level = [start]
        for _ in 0..<maxDepth where !level.isEmpty {
            var next: [ObjectID] = []
            for batch in stride(from: 0, to: level.count, by: SubtreeLoader.batchSize) {
                let parents = level[batch..<min(batch + SubtreeLoader.batchSize, level.count)]
                let request = FetchRequest(OutlineSchema.entityName, where: OutlineSchema.parent.in(parents))
                let ids = try OutlineStore.reading("reading the outline") { try context.fetchIDs(request) }
                for item in try read(ids) {
                    try add(item)
                    next.append(item.id)
                }
            }
            level = next
        }
    }

    /// Reads these items (which exist), in order: as objects, or their titles alone.
    private func read(_ ids: [ObjectID]) throws(OutlineError) -> [Read] {
        let context = self.context
        if titlesOnly {
            let values = try OutlineStore.reading("reading the outline") {
                try context.values(of: ids, reading: [OutlineSchema.title, OutlineSchema.order, OutlineSchema.parent])
            }
            return zip(ids, values).compactMap { id, values in
                values.map {
                    (
                        id, OutlineItem(title: String.fromStoreValue($0.values[0]) ?? ""), Int.fromStoreValue($0.values[1]) ?? 0,
                        $0.destinations[0]
                    )
                }
            }
        }
        let objects = ids.map { context.object(with: $0) }
        try OutlineStore.reading("reading the outline") { try context.prefetch(objects) }
        var read: [Read] = []
        for object in objects {
            read.append((object.objectID, try OutlineItem(object), object[OutlineSchema.order], object.destinationID(OutlineSchema.parent)))
        }
        return read
    }

    private mutating func add(_ read: Read) throws(OutlineError) {
        guard let parent = read.parent, let parentIndex = indexes[parent] else {
            throw OutlineError.damaged("\(read.id) was read before its parent")
        }
        indexes[read.id] = entries.count
        entries.append(LoadedSubtree.Entry(item: read.item, order: read.order))
        parents.append(parentIndex)
        rowIDs.append(read.id.rowID ?? .max)
    }

    /// The entries with their children in order.
    func finish() -> LoadedSubtree {
        var subtree = LoadedSubtree(entries: entries)
        for index in entries.indices.dropFirst() { subtree.entries[parents[index]].children.append(index) }
        for index in subtree.entries.indices where subtree.entries[index].children.count > 1 {
            subtree.entries[index].children.sort { (entries[$0].order, rowIDs[$0]) < (entries[$1].order, rowIDs[$1]) }
        }
        return subtree
    }
}
