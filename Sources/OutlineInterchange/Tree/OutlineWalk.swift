// MARK: - OutlineWalk

/// An outline handed over item by item, depth first (a parent before its children, siblings
/// in order): what the format writers read. An ``OutlineTree`` is one; so is an outline read
/// straight from a document's store (`StoredOutline`), which an export of any size then
/// writes holding one item at a time instead of the whole tree.
public protocol OutlineWalk {
    /// The OPML version to write back, if the outline came from OPML.
    var opmlVersion: String? { get }
    /// The head fields, in order.
    var head: [OutlineAttribute] { get }
    /// The attributes of the OPML `<body>` element, in order.
    var bodyAttributes: [OutlineAttribute] { get }
    /// Calls `body` with every item and its depth (1 for a top-level item), depth first. A
    /// depth is at most one more than the depth before it.
    ///
    /// - Throws: what `body` throws, or the walk's own failure to read.
    func forEachItem(_ body: (_ item: OutlineItem, _ depth: Int) throws -> Void) throws
}

/// The size an outline takes in a format (see ``OutlineWalk/estimatedSize(format:)``).
public struct OutlineSize: Sendable, Equatable {
    /// About how many bytes the whole output takes.
    public var bytes = 0
    /// How many of them are indentation.
    public var indentation = 0
    /// The depth of the deepest item: 0 for an empty outline, 1 for a flat list.
    public var maxDepth = 0
    /// How many items hold a note.
    public var notes = 0
    /// How many items hold attributes besides their title and note.
    public var itemsWithAttributes = 0
    /// How many items are tasks (open or done).
    public var tasks = 0

    /// What writing an outline of this size in `format` leaves out: Markdown drops attributes
    /// and the head fields but its title; indented text keeps titles only. Zero for OPML and
    /// JSON.
    ///
    /// - Parameters:
    ///   - format: The format written.
    ///   - head: The outline's head fields.
    public func dropped(
        by format: OutlineFormat, head: [OutlineAttribute]
    ) -> (notes: Int, itemsWithAttributes: Int, tasks: Int, headFields: Int) {
        switch format {
        case .markdown: return (0, itemsWithAttributes, 0, head.filter { $0.name != "title" }.count)
        case .plainText: return (notes, itemsWithAttributes, tasks, head.count)
        case .opml, .json: return (0, 0, 0, 0)
        }
    }
}

extension OutlineWalk {
    /// Writes the outline in `format` as UTF-8, handing the bytes on in chunks of about a
    /// megabyte as they are made: memory holds one chunk and what the walk holds (one item
    /// for a `StoredOutline`), not the whole output.
    ///
    /// - Parameters:
    ///   - format: The format to write.
    ///   - deliver: Receives each chunk, in order.
    /// - Throws: ``OutlineFormatError/Code/unrepresentable`` for OPML, when the outline holds
    ///   something XML cannot; the walk's own failure to read. Chunks delivered before the
    ///   error are not taken back.
    public func write(format: OutlineFormat, inChunks deliver: @escaping ([UInt8]) -> Void) throws {
        let chunks = OutputChunks(deliver)
        switch format {
        case .opml: _ = try OPMLWriter.write(self, chunks: chunks)
        case .markdown: _ = try MarkdownWriter.write(self, chunks: chunks)
        case .plainText: _ = try PlainTextWriter.write(self, chunks: chunks)
        case .json: _ = try JSONOutlineWriter.write(self, chunks: chunks)
        }
    }

    /// About how many bytes the outline takes in `format`, and how many of them are
    /// indentation: Markdown and indented text indent each level, so their size grows with
    /// the square of a deep outline's depth (OPML caps its indentation, JSON has none).
    ///
    /// - Throws: the walk's own failure to read.
    public func estimatedSize(format: OutlineFormat) throws -> OutlineSize {
        var size = OutlineSize()
        try forEachItem { item, depth in
            let text = item.title.utf8.count + (item.note?.utf8.count ?? 0) + 4
            let indent: Int
            switch format {
            case .markdown: indent = 2 * (depth - 1) * (item.note == nil ? 1 : 2) + (item.note == nil ? 0 : 2)
            case .plainText: indent = depth - 1
            case .opml: indent = 2 * min(depth + 1, OPMLWriter.maximumIndentation)
            case .json: indent = 0
            }
            size.bytes += text + indent
            size.indentation += indent
            size.maxDepth = max(size.maxDepth, depth)
            if item.note != nil { size.notes += 1 }
            if !item.attributes.isEmpty { size.itemsWithAttributes += 1 }
            if item.status != nil { size.tasks += 1 }
        }
        return size
    }

    /// Calls `body` with the walk as steps into and out of each item: one item of lookahead
    /// tells whether an item has children (OPML writes a leaf as one self-closing tag).
    func forEachStep(_ body: (OutlineStep) throws -> Void) throws {
        var pending: (item: OutlineItem, depth: Int)?
        // For each item entered and not yet left, outermost first: whether it has children.
        var open: [Bool] = []
        func advance(to depth: Int) throws {
            if let entered = pending {
                let hasChildren = depth > entered.depth
                try body(.enter(entered.item, depth: entered.depth, hasChildren: hasChildren))
                open.append(hasChildren)
                pending = nil
            }
            while open.count >= depth {
                let hadChildren = open.removeLast()
                try body(.exit(depth: open.count + 1, hadChildren: hadChildren))
            }
        }
        try forEachItem { item, depth in
            try advance(to: depth)
            pending = (item, depth)
        }
        try advance(to: 1)
    }
}

/// A step of ``OutlineWalk/forEachStep(_:)``.
enum OutlineStep {
    /// Into an item, before its children.
    case enter(OutlineItem, depth: Int, hasChildren: Bool)
    /// Out of an item, after its children.
    case exit(depth: Int, hadChildren: Bool)
}

// MARK: - A tree in memory

extension OutlineTree: OutlineWalk {
    /// Calls `body` with every item and its depth, depth first (see ``depthFirst()``).
    public func forEachItem(_ body: (_ item: OutlineItem, _ depth: Int) throws -> Void) rethrows {
        for visit in depthFirst() { try body(visit.item, visit.depth) }
    }

    /// Runs a writer over this tree, whose walk fails only as `body` does: the writer's own
    /// format errors are all that can come out.
    func writing<T>(_ body: () throws -> T) throws(OutlineFormatError) -> T {
        do {
            return try body()
        } catch let error as OutlineFormatError {
            throw error
        } catch {
            preconditionFailure("a tree in memory is walked without errors of its own: \(error)")
        }
    }

    /// Runs a writer that cannot fail (Markdown, indented text, JSON) over this tree.
    func writingInfallibly<T>(_ body: () throws -> T) -> T {
        do {
            return try body()
        } catch {
            preconditionFailure("writing a tree in memory as Markdown, text or JSON cannot fail: \(error)")
        }
    }
}
