/// How one entity is laid out in memory and in its table, derived once from the model.
///
/// A row in memory is the attribute values (``RowData/values``, in attribute order) plus the
/// foreign keys of the to-one relationships this entity holds (``RowData/refs``).
final class EntityLayout: Sendable {
    /// How a relationship is stored.
    enum RelationshipStorage: Sendable {
        /// This entity holds the foreign key, at this index of `refs`.
        case foreignKey(Int)
        /// The destination holds the foreign key (at its `refs` index) pointing back here.
        case inverse(destinationForeignKey: Int)
    }

    struct Relationship: Sendable {
        let description: RelationshipDescription
        let destination: String
        let storage: RelationshipStorage
    }

    let name: String
    /// The entity's position in the model.
    let ordinal: Int
    let description: EntityDescription
    let attributes: [AttributeDescription]
    let attributeIndex: [String: Int]
    /// To-one relationships whose foreign key this entity's table holds.
    let foreignKeys: [RelationshipDescription]
    let foreignKeyIndex: [String: Int]
    let relationships: [String: Relationship]
    /// Relationships in declaration order (for delete rules).
    let orderedRelationships: [Relationship]
    /// The quoted table name.
    let table: String
    /// The default values of a newly inserted object.
    let defaultRow: RowData
    /// The attribute indexes kept in the full-text index (empty: none).
    let fullTextFields: [Int]
    /// The quoted name of the full-text table.
    let fullTextTable: String

    init(description: EntityDescription, ordinal: Int, foreignKeys: [RelationshipDescription], relationships: [Relationship]) {
        self.name = description.name
        self.ordinal = ordinal
        self.description = description
        self.attributes = description.attributes
        self.attributeIndex = Dictionary(uniqueKeysWithValues: description.attributes.enumerated().map { ($1.name, $0) })
        self.foreignKeys = foreignKeys
        self.foreignKeyIndex = Dictionary(uniqueKeysWithValues: foreignKeys.enumerated().map { ($1.name, $0) })
        self.relationships = Dictionary(uniqueKeysWithValues: relationships.map { ($0.description.name, $0) })
        self.orderedRelationships = relationships
        self.table = SQL.quote(description.name)
        self.defaultRow = RowData(
            values: description.attributes.map(\.defaultValue),
            refs: Array(repeating: nil, count: foreignKeys.count))
        let attributeIndex = self.attributeIndex
        self.fullTextFields = description.fullTextAttributes.compactMap { attributeIndex[$0] }
        self.fullTextTable = SQL.quote(description.fullTextTable)
    }

    /// The insert of one row's text into the full-text table (`rowid`, then the text fields in
    /// order), each value in the form the index holds (``SearchText``).
    var fullTextInsertSQL: String {
        let columns = fullTextFields.map { ", " + SQL.quote(attributes[$0].name) }.joined()
        let values = String(repeating: ", \(SearchText.sqlFunction)(?)", count: fullTextFields.count)
        return "INSERT INTO \(fullTextTable) (\"rowid\"\(columns)) VALUES (?\(values))"
    }

    /// The copy of stored rows' text into the full-text table, for the rows whose ids lie in
    /// `?1 < id <= ?2`: one statement for many rows (a batch's new rows), which FTS5 takes
    /// faster than a statement a row.
    var fullTextCopySQL: String {
        let names = fullTextFields.map { SQL.quote(attributes[$0].name) }
        let columns = names.map { ", " + $0 }.joined()
        let values = names.map { ", \(SearchText.sqlFunction)(\($0))" }.joined()
        return "INSERT INTO \(fullTextTable) (\"rowid\"\(columns)) SELECT \"id\"\(values) FROM \(table) WHERE \"id\" > ?1 AND \"id\" <= ?2"
    }

    /// The index of a named attribute, or a precondition failure naming the entity.
    func attributeIndex(of name: String) -> Int {
        if attributes.count <= 16 {
            // Comparing a few short names beats hashing one.
            for (index, attribute) in attributes.enumerated() where attribute.name == name { return index }
        }
        guard let index = attributeIndex[name] else {
            preconditionFailure("Entity '\(self.name)' has no attribute '\(name)'")
        }
        return index
    }

    /// The layout of a named relationship, or a precondition failure naming the entity.
    func relationship(named name: String) -> Relationship {
        guard let relationship = relationships[name] else {
            preconditionFailure("Entity '\(self.name)' has no relationship '\(name)'")
        }
        return relationship
    }

    /// The name of field `index` of a row: attributes first, then foreign keys.
    func fieldName(_ index: Int) -> String {
        index < attributes.count ? attributes[index].name : foreignKeys[index - attributes.count].name
    }

    var fieldCount: Int { attributes.count + foreignKeys.count }
}
