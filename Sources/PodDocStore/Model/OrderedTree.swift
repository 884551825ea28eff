// MARK: - Ordered trees

/// An entity whose objects form ordered trees (an outline's items), for a merge of two
/// copies (``CopyMerge``): it never makes a cycle, never leaves an object under a parent
/// that is gone, and merges each object's place (its parent and its order key) as it merges
/// any other value, so siblings come out in one order whatever order copies merge in.
///
/// Siblings sort by their order key, then by id (see ``SiblingOrder``).
public struct OrderedTree: Sendable, Hashable {
    /// The entity.
    public let entity: String
    /// The to-one relationship to the parent.
    public let parent: String
    /// The integer attribute holding the order key among the siblings.
    public let order: String

    /// Describes an ordered tree.
    public init(entity: String, parent: ToOne, order: Attribute<Int>) {
        self.entity = entity
        self.parent = parent.name
        self.order = order.name
    }

    /// Describes an ordered tree by names (a recorded model's).
    init(entity: String, parent: String, order: String) {
        self.entity = entity
        self.parent = parent
        self.order = order
    }
}

// MARK: - Order keys

/// The order keys of a sibling list in an ordered tree.
///
/// Siblings sort by key, then by id. Keys are sparse: a list numbered afresh takes keys
/// ``spacing`` apart, and an item inserted or moved between two neighbours takes a key
/// between theirs, so it changes one object however long the list is. Only when two
/// neighbours leave no room is the list numbered afresh (``spaced(_:)``).
///
/// Because an item's place is its own key, never its rank, a merge takes each item's key
/// as it takes any value: two copies that each insert among the same siblings get one
/// order in every copy, whatever the order of the merges (ties fall to the ids, which are
/// the same in every copy).
///
/// ```swift
/// let siblings: [Int] = [0, 65_536, 131_072]
/// let key = SiblingOrder.key(between: siblings[0], and: siblings[1])  // 32_768
/// ```
public enum SiblingOrder {
    /// The room between neighbours in a list numbered afresh: sixteen halvings before two
    /// neighbours run out of room.
    public static let spacing = 1 << 16

    /// The key of the item at `index` (from 0) of a list numbered afresh.
    public static func spaced(_ index: Int) -> Int { index * spacing }

    /// A key between `before` and `after` (nil for the start or the end of the list), or nil
    /// when they leave no room: number the list afresh then.
    public static func key(between before: Int?, and after: Int?) -> Int? {
        keys(1, between: before, and: after)?.first
    }

    /// `count` increasing keys between `before` and `after` (nil for the start or the end
    /// of the list), evenly spread; nil when they leave no room.
    public static func keys(_ count: Int, between before: Int?, and after: Int?) -> [Int]? {
        guard count > 0 else { return [] }
        let (span, spanOverflow) = count.multipliedReportingOverflow(by: spacing)
        switch (before, after) {
        case (nil, nil):
            return spanOverflow ? nil : (0..<count).map(spaced)
        case (let low?, nil):
            guard !spanOverflow, low <= Int.max - span else { return nil }
            return (1...count).map { low + $0 * spacing }
        case (nil, let high?):
            guard !spanOverflow, high >= Int.min + span else { return nil }
            return (0..<count).map { high - (count - $0) * spacing }
        case (let low?, let high?):
            let (room, roomOverflow) = high.subtractingReportingOverflow(low)
            guard !roomOverflow, room > count else { return nil }
            let step = room / (count + 1)
            return (1...count).map { low + $0 * step }
        }
    }
}
