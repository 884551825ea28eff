/// A description of objects to fetch: entity, predicate, order, and paging.
///
/// ```swift
/// var request = FetchRequest("Pod", where: Pod.name.hasPrefix("AF"),
///                            sortBy: [FetchSort(Pod.name), FetchSort(Pod.version, collation: .version)])
/// request.limit = 50
/// let pods = try context.fetch(request)
/// ```
public struct FetchRequest: Sendable, Hashable {
    /// The entity to fetch.
    public var entityName: String
    /// Which objects; `.all` by default.
    public var predicate: ObjectPredicate
    /// The order; ties are always broken by object ID, so the order is total.
    public var sortBy: [FetchSort]
    /// At most this many objects (nil: no limit).
    public var limit: Int?
    /// Skip this many objects first.
    public var offset: Int
    /// When positive, ``ObjectContext/fetch(_:)`` loads values this many objects at a time,
    /// as the results are read, instead of all at once.
    public var batchSize: Int

    /// Makes a request.
    ///
    /// - Parameters:
    ///   - entityName: The entity to fetch.
    ///   - predicate: Which objects.
    ///   - sortBy: The order.
    ///   - limit: At most this many objects.
    ///   - offset: Skip this many first.
    ///   - batchSize: Load values this many objects at a time (0: all at once).
    public init(
        _ entityName: String, where predicate: ObjectPredicate = .all, sortBy: [FetchSort] = [],
        limit: Int? = nil, offset: Int = 0, batchSize: Int = 0
    ) {
        precondition(limit.map { $0 >= 0 } ?? true && offset >= 0 && batchSize >= 0, "limit, offset and batchSize cannot be negative")
        self.entityName = entityName
        self.predicate = predicate
        self.sortBy = sortBy
        self.limit = limit
        self.offset = offset
        self.batchSize = batchSize
    }
}

/// One key of a fetch order.
public struct FetchSort: Sendable, Hashable {
    /// The attribute sorted on.
    public let attribute: String
    /// Ascending (true) or descending.
    public let ascending: Bool
    /// How text compares: bytes, ASCII case-insensitive, or version-aware.
    public let collation: Collation

    /// Sorts on a typed attribute key.
    public init<Value>(_ key: Attribute<Value>, ascending: Bool = true, collation: Collation = .binary) {
        self.init(attribute: key.name, ascending: ascending, collation: collation)
    }

    /// Sorts on an attribute by name.
    public init(attribute: String, ascending: Bool = true, collation: Collation = .binary) {
        self.attribute = attribute
        self.ascending = ascending
        self.collation = collation
    }
}
