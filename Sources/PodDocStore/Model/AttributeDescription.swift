/// One typed attribute of an entity, as the model declares it.
public struct AttributeDescription: Sendable, Hashable {
    /// The attribute's name, also its column name.
    public let name: String
    /// How the value is typed and stored.
    public let type: AttributeType
    /// Whether the attribute may be nil when the object is saved.
    public let isOptional: Bool
    /// The value a newly inserted object starts with (`.null` for none).
    public let defaultValue: StoreValue
    /// Whether the column gets an index.
    public let isIndexed: Bool
    /// Whether no two objects of the entity may share a value (a unique index).
    public let isUnique: Bool
    /// Whether the column's case-folded text gets an index too (see ``TextFolding``), for fast
    /// case-insensitive prefix predicates. Text attributes only.
    public let hasCaseInsensitiveIndex: Bool
    /// The names the attribute had in earlier versions of the model, oldest first: a store
    /// written with one of them is migrated by renaming the column, keeping its values (Core
    /// Data's renaming identifier). Keep every earlier name, so that a store several versions
    /// old is renamed too.
    public let renamedFrom: [String]

    /// Describes an attribute; most code declares it through ``Attribute`` instead.
    public init(
        name: String, type: AttributeType, isOptional: Bool, defaultValue: StoreValue = .null,
        isIndexed: Bool = false, isUnique: Bool = false, hasCaseInsensitiveIndex: Bool = false,
        renamedFrom: [String] = []
    ) {
        self.renamedFrom = renamedFrom
        precondition(!hasCaseInsensitiveIndex || type == .string, "only text attributes have a case-insensitive index")
        self.hasCaseInsensitiveIndex = hasCaseInsensitiveIndex
        self.name = name
        self.type = type
        self.isOptional = isOptional
        self.defaultValue = defaultValue
        self.isIndexed = isIndexed
        self.isUnique = isUnique
    }
}

/// What deleting an object does to the objects its relationship points at.
public enum DeleteRule: String, Sendable, Hashable {
    /// Clear the inverse of each destination (the default).
    case nullify
    /// Delete each destination too.
    case cascade
    /// Refuse to save the delete while any destination exists.
    case deny
}

/// One relationship of an entity, as the model declares it.
///
/// Every relationship has an inverse, kept in step automatically. To-one relationships whose
/// inverse is to-many hold the foreign key column; a to-many relationship is the set of
/// destinations whose inverse points back. Many-to-many is modelled with an intermediate
/// entity (two to-many relationships to it).
public struct RelationshipDescription: Sendable, Hashable {
    /// The relationship's name.
    public let name: String
    /// The destination entity's name.
    public let destination: String
    /// The name of the inverse relationship on the destination.
    public let inverse: String
    /// Whether it leads to many objects.
    public let isToMany: Bool
    /// What deleting the source does to the destinations.
    public let deleteRule: DeleteRule

    /// Describes a relationship; most code declares it through ``ToOne`` or ``ToMany``.
    public init(name: String, destination: String, inverse: String, isToMany: Bool, deleteRule: DeleteRule) {
        self.name = name
        self.destination = destination
        self.inverse = inverse
        self.isToMany = isToMany
        self.deleteRule = deleteRule
    }
}
