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
    /// Reads the items below `start`, at most `maxDepth` levels of them (all when nil).
    ///
    /// With a depth limit the levels are read one at a time, a batch of parents per query, so
    /// printing the top of a million-item outline reads only its top. Without one, the whole
    /// subtree comes from one recursive query, then its values in batches: a chain 100,000
    /// levels deep costs as little as a flat list.
    func loadSubtree(below start: ManagedObject, maxDepth: Int?) throws(OutlineError) -> LoadedSubtree {
        var loader = SubtreeLoader(context: context, start: try LoadedSubtree.Entry(item: OutlineItem(start), order: 0), id: start.objectID)
        if let maxDepth {
            try loader.loadLevels(below: start.objectID, maxDepth: maxDepth)
        } else {
            try loader.loadAll(below: start.objectID)
        }
        return loader.finish()
    }
}

/// Builds a ``LoadedSubtree`` from objects read in batches.
private struct SubtreeLoader {
    static let batchSize = 500

    let context: ObjectContext
    var entries: [LoadedSubtree.Entry]
    var parents: [Int] = [-1]
    var indexes: [ObjectID: Int]

    init(context: ObjectContext, start: LoadedSubtree.Entry, id: ObjectID) {
        self.context = context
        self.entries = [start]
        self.indexes = [id: 0]
    }

    mutating func loadAll(below start: ObjectID) throws(OutlineError) {
        let context = self.context
        let links = try OutlineStore.reading("reading the outline") {
            try context.descendantLinks(of: [start], following: OutlineSchema.parent)
        }
        entries.reserveCapacity(links.count + 1)
        parents.reserveCapacity(links.count + 1)
        indexes.reserveCapacity(links.count + 1)
        for batch in stride(from: 0, to: links.count, by: SubtreeLoader.batchSize) {
            let slice = links[batch..<min(batch + SubtreeLoader.batchSize, links.count)]
            let objects = slice.map { context.object(with: $0.object) }
            try OutlineStore.reading("reading the outline") { try context.prefetch(objects) }
            for (link, object) in zip(slice, objects) {
                try add(object, id: link.object, parent: link.destination)
            }
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
                for object in try OutlineStore.reading("reading the outline", { try context.fetch(request) }) {
                    try add(object, id: object.objectID, parent: object.destinationID(OutlineSchema.parent))
                    next.append(object.objectID)
                }
            }
            level = next
        }
    }

    private mutating func add(_ object: ManagedObject, id: ObjectID, parent: ObjectID?) throws(OutlineError) {
        guard let parent, let parentIndex = indexes[parent] else {
            throw OutlineError.damaged("\(id) was read before its parent")
        }
        indexes[id] = entries.count
        entries.append(LoadedSubtree.Entry(item: try OutlineItem(object), order: object[OutlineSchema.order]))
        parents.append(parentIndex)
    }

    /// The entries with their children in order.
    func finish() -> LoadedSubtree {
        var subtree = LoadedSubtree(entries: entries)
        for index in entries.indices.dropFirst() { subtree.entries[parents[index]].children.append(index) }
        for index in subtree.entries.indices where subtree.entries[index].children.count > 1 {
            subtree.entries[index].children.sort { (entries[$0].order, $0) < (entries[$1].order, $1) }
        }
        return subtree
    }
}
