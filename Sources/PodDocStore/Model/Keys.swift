/// Something an entity declares: an attribute or a relationship.
public protocol EntityMember: Sendable {
    /// The member's name.
    var name: String { get }
    /// The member as the model stores it.
    var member: EntityMemberDescription { get }
}

/// An attribute or relationship declaration, without its Swift type.
public enum EntityMemberDescription: Sendable, Hashable {
    case attribute(AttributeDescription)
    case relationship(RelationshipDescription)
}

/// A typed key for an attribute: declares it in the model and reads or writes it on objects.
///
/// ```swift
/// enum Item {
///     static let title = Attribute<String>("title")
///     static let note = Attribute<String?>("note")
///     static let order = Attribute<Int>("order", default: 0, indexed: true)
/// }
/// object[Item.title] = "Groceries"
/// let request = FetchRequest("Item", where: Item.title == "Groceries")
/// ```
public struct Attribute<Value: AttributeValue>: EntityMember, Hashable {
    /// The attribute as the model stores it.
    public let attribute: AttributeDescription

    /// The attribute's name.
    public var name: String { attribute.name }
    public var member: EntityMemberDescription { .attribute(attribute) }

    /// Declares an attribute.
    ///
    /// - Parameters:
    ///   - name: The attribute (and column) name.
    ///   - defaultValue: The value new objects start with; required attributes without one
    ///     must be set before the object is saved.
    ///   - indexed: Whether to index the column for fast predicates and sorts.
    ///   - unique: Whether values must be unique across the entity (implies an index).
    ///   - caseInsensitiveIndex: Whether the case-folded text gets an index too, for fast
    ///     case-insensitive prefix predicates (see ``TextFolding``); text attributes only.
    ///   - renamedFrom: The attribute's names in earlier versions of the model, oldest first
    ///     (see ``AttributeDescription/renamedFrom``).
    public init(
        _ name: String, default defaultValue: Value? = nil, indexed: Bool = false, unique: Bool = false,
        caseInsensitiveIndex: Bool = false, renamedFrom: [String] = []
    ) {
        self.attribute = AttributeDescription(
            name: name, type: Value.attributeType, isOptional: Value.admitsNil,
            defaultValue: defaultValue?.storeValue ?? .null,
            isIndexed: indexed || unique, isUnique: unique, hasCaseInsensitiveIndex: caseInsensitiveIndex,
            renamedFrom: renamedFrom)
    }
}

/// What ``ToOne`` and ``ToMany`` share: a key naming one relationship of the model.
public protocol RelationshipKey: EntityMember {
    /// The relationship as the model stores it.
    var relationship: RelationshipDescription { get }
}

extension RelationshipKey {
    public var name: String { relationship.name }
    public var member: EntityMemberDescription { .relationship(relationship) }
}

/// A typed key for a to-one relationship.
///
/// ```swift
/// static let parent = ToOne("parent", to: "Item", inverse: "children")
/// child[Item.parent] = folder
/// ```
public struct ToOne: RelationshipKey, Hashable {
    /// The relationship as the model stores it.
    public let relationship: RelationshipDescription

    /// Declares a to-one relationship.
    ///
    /// - Parameters:
    ///   - name: The relationship name (and, when this side holds the foreign key, its column).
    ///   - destination: The destination entity.
    ///   - inverse: The inverse relationship's name on the destination.
    ///   - deleteRule: What deleting the source does to the destination.
    public init(_ name: String, to destination: String, inverse: String, deleteRule: DeleteRule = .nullify) {
        relationship = RelationshipDescription(
            name: name, destination: destination, inverse: inverse,
            isToMany: false, deleteRule: deleteRule)
    }
}

/// A typed key for a to-many relationship: the destinations whose inverse points back.
///
/// ```swift
/// static let children = ToMany("children", to: "Item", inverse: "parent", deleteRule: .cascade)
/// let kids = folder[Item.children]
/// ```
public struct ToMany: RelationshipKey, Hashable {
    /// The relationship as the model stores it.
    public let relationship: RelationshipDescription

    /// Declares a to-many relationship.
    ///
    /// - Parameters:
    ///   - name: The relationship name.
    ///   - destination: The destination entity.
    ///   - inverse: The to-one inverse on the destination.
    ///   - deleteRule: What deleting the source does to the destinations.
    public init(_ name: String, to destination: String, inverse: String, deleteRule: DeleteRule = .nullify) {
        relationship = RelationshipDescription(
            name: name, destination: destination, inverse: inverse,
            isToMany: true, deleteRule: deleteRule)
    }
}
