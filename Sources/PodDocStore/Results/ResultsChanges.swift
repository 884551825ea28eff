/// A position in a results controller: section, then item within the section.
public struct ResultsIndexPath: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The section number.
    public let section: Int
    /// The item number within the section.
    public let item: Int

    /// Makes an index path.
    public init(section: Int, item: Int) {
        self.section = section
        self.item = item
    }

    public static func < (lhs: ResultsIndexPath, rhs: ResultsIndexPath) -> Bool {
        (lhs.section, lhs.item) < (rhs.section, rhs.item)
    }

    public var description: String { "[\(section), \(item)]" }
}

/// One section of a results controller: the objects sharing a value of the section key.
public struct ResultsSection: Hashable, Sendable {
    /// The section key's value (`.null` when the controller has no sections).
    public let key: StoreValue
    /// The objects of the section, in order.
    public var ids: [ObjectID]

    /// Makes a section.
    public init(key: StoreValue, ids: [ObjectID]) {
        self.key = key
        self.ids = ids
    }
}

/// What changed in a results controller's contents, in the form a table view applies:
/// remove deleted and moved-from rows at their old index paths and deleted sections; insert
/// new sections, then inserted and moved-to rows at their new index paths in ascending order.
/// Rows of a deleted section that are not moved elsewhere go with it. Updates name rows that
/// stayed in place (old index paths) but whose values changed.
public struct ResultsChanges: Sendable, Hashable {
    /// Sections removed, by old index.
    public var deletedSections: [Int] = []
    /// Sections added, by new index, with their key.
    public var insertedSections: [(index: Int, key: StoreValue)] = []
    /// Rows removed, at old index paths.
    public var deletes: [ResultsIndexPath] = []
    /// Rows added, at new index paths.
    public var inserts: [(indexPath: ResultsIndexPath, id: ObjectID)] = []
    /// Rows moved, from old to new index paths.
    public var moves: [(from: ResultsIndexPath, to: ResultsIndexPath, id: ObjectID)] = []
    /// Rows changed in place, at old index paths.
    public var updates: [ResultsIndexPath] = []
    /// Objects whose IDs became permanent (apply before the rest).
    public var renamed: [ObjectID: ObjectID] = [:]

    /// Whether nothing changed.
    public var isEmpty: Bool {
        deletedSections.isEmpty && insertedSections.isEmpty && deletes.isEmpty && inserts.isEmpty
            && moves.isEmpty && updates.isEmpty && renamed.isEmpty
    }

    /// Applies these changes to the contents they were computed from.
    public func apply(to old: [ResultsSection]) -> [ResultsSection] {
        var sections = old.map { section in
            ResultsSection(key: section.key, ids: section.ids.map { renamed[$0] ?? $0 })
        }
        var removals = Dictionary(grouping: deletes + moves.map(\.from), by: \.section).mapValues { Set($0.map(\.item)) }
        for index in sections.indices {
            guard let items = removals.removeValue(forKey: index) else { continue }
            sections[index].ids = sections[index].ids.enumerated().filter { !items.contains($0.offset) }.map(\.element)
        }
        for index in deletedSections.sorted(by: >) { sections.remove(at: index) }
        for (index, key) in insertedSections.sorted(by: { $0.index < $1.index }) {
            sections.insert(ResultsSection(key: key, ids: []), at: index)
        }
        let additions = (inserts.map { ($0.indexPath, $0.id) } + moves.map { ($0.to, $0.id) }).sorted { $0.0 < $1.0 }
        for (indexPath, id) in additions {
            sections[indexPath.section].ids.insert(id, at: indexPath.item)
        }
        return sections
    }

    public static func == (lhs: ResultsChanges, rhs: ResultsChanges) -> Bool {
        lhs.deletedSections == rhs.deletedSections
            && lhs.insertedSections.map(\.index) == rhs.insertedSections.map(\.index)
            && lhs.insertedSections.map(\.key) == rhs.insertedSections.map(\.key)
            && lhs.deletes == rhs.deletes
            && lhs.inserts.map(\.indexPath) == rhs.inserts.map(\.indexPath) && lhs.inserts.map(\.id) == rhs.inserts.map(\.id)
            && lhs.moves.map(\.from) == rhs.moves.map(\.from) && lhs.moves.map(\.to) == rhs.moves.map(\.to)
            && lhs.updates == rhs.updates && lhs.renamed == rhs.renamed
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(deletes)
        hasher.combine(updates)
        hasher.combine(deletedSections)
    }
}
