/// An entity as the application declares it: a name, attributes, relationships and
/// unique keys. Each entity becomes one SQLite table.
///
/// ```swift
/// let item = EntityDescription("Item", members: [Item.title, Item.order, Item.parent, Item.children])
/// ```
public struct EntityDescription: Sendable, Hashable {
    /// The entity (and table) name.
    public let name: String
    /// The attributes, in declaration order.
    public let attributes: [AttributeDescription]
    /// The relationships, in declaration order.
    public let relationships: [RelationshipDescription]
    /// Sets of attribute names whose combined values must be unique (beyond single unique attributes).
    public let uniqueKeys: [[String]]
    /// Compound indexes, each a list of attribute and to-one relationship names: a query
    /// filtered on the first and sorted by the rest (the children of a parent by their
    /// order) reads the index alone, never the rows. Derived from the rows, they are made on
    /// any writable open of a store that lacks them.
    public let indexes: [[String]]
    /// Text attributes kept in an SQLite FTS5 full-text index (empty: no index).
    ///
    /// The store keeps the index, a table named ``fullTextTable``, in step with every save, in
    /// the same transaction; search it with ``PersistentStore/search(_:in:limit:)``.
    public let fullTextAttributes: [String]
    /// How much a match in each of ``fullTextAttributes`` counts in the ranking, in the same
    /// order: by default the first counts twice, the others once. A weight well above the
    /// others ranks every match there first (a pod's name over its summary).
    public let fullTextWeights: [Double]
    /// The entity's names in earlier versions of the model, oldest first: a store written
    /// with one of them is migrated by renaming the table, keeping its objects.
    public let renamedFrom: [String]

    /// Declares an entity.
    ///
    /// - Parameters:
    ///   - name: The entity name; also the table name.
    ///   - members: Attribute and relationship keys (``Attribute``, ``ToOne``, ``ToMany``).
    ///   - uniqueKeys: Compound unique keys, each a list of attribute names.
    ///   - indexes: Compound indexes, each a list of attribute and to-one relationship names.
    ///   - fullTextAttributes: Text attributes to keep in a full-text index (FTS5).
    ///   - fullTextWeights: Each full-text attribute's weight in the ranking (nil: 2 for the
    ///     first, 1 for the others; a missing weight is 1).
    ///   - renamedFrom: The entity's names in earlier versions of the model, oldest first.
    public init(
        _ name: String, members: [any EntityMember], uniqueKeys: [[String]] = [], indexes: [[String]] = [],
        fullTextAttributes: [String] = [], fullTextWeights: [Double]? = nil, renamedFrom: [String] = []
    ) {
        var attributes: [AttributeDescription] = []
        var relationships: [RelationshipDescription] = []
        for member in members {
            switch member.member {
            case .attribute(let a): attributes.append(a)
            case .relationship(let r): relationships.append(r)
            }
        }
        self.init(
            name, attributes: attributes, relationships: relationships, uniqueKeys: uniqueKeys, indexes: indexes,
            fullTextAttributes: fullTextAttributes, fullTextWeights: fullTextWeights, renamedFrom: renamedFrom)
    }

    /// Declares an entity from its attribute and relationship descriptions.
    public init(
        _ name: String, attributes: [AttributeDescription], relationships: [RelationshipDescription],
        uniqueKeys: [[String]] = [], indexes: [[String]] = [], fullTextAttributes: [String] = [],
        fullTextWeights: [Double]? = nil, renamedFrom: [String] = []
    ) {
        self.name = name
        self.renamedFrom = renamedFrom
        self.attributes = attributes
        self.relationships = relationships
        self.uniqueKeys = uniqueKeys
        self.indexes = indexes
        self.fullTextAttributes = fullTextAttributes
        let weights = fullTextWeights ?? fullTextAttributes.indices.map { $0 == 0 ? 2 : 1 }
        self.fullTextWeights = fullTextAttributes.indices.map { $0 < weights.count ? weights[$0] : 1 }
    }

    /// The name of the FTS5 table of ``fullTextAttributes``: the entity name and `_fts`.
    public var fullTextTable: String { name + "_fts" }
}
