/// The complete description of what a store holds: its entities and model version.
///
/// The model is checked when it is made: every relationship needs a destination and a
/// matching inverse, names must be unique, and `id` / `_version` are reserved.
///
/// A store records the whole model it was written with. Opening it with a later version
/// migrates it in one transaction by the steps inferred from the two models (attributes and
/// entities added, removed or renamed through `renamedFrom`, optionality, indexes,
/// uniqueness, relationships; see docs/DESIGN.md "Model versions") and the custom stages
/// (``SchemaMigration``). Change the model, raise ``version``.
///
/// ```swift
/// let model = try ObjectModel(version: 1, entities: [itemEntity])
/// ```
public struct ObjectModel: Sendable {
    /// The model version; stored in SQLite's `user_version`. It goes up whenever the model
    /// changes.
    public let version: Int
    /// The entities, in declaration order.
    public let entities: [EntityDescription]
    /// How copies of its objects merge beyond property by property: ordered trees and
    /// latest values. A store records it with the model.
    public let merging: MergeDescription
    /// Custom stages of migrations to ``version``, in version order.
    public let migrations: [SchemaMigration]
    /// Earlier versions of the model: the source of the migration of a store that records no
    /// model (one written before poddoc recorded it) at one of their versions.
    public let earlierVersions: [ObjectModel]
    /// The SHA-256 of what shapes the stored rows, per entity (Core Data's entity version
    /// hashes): the same when two models store an entity's objects alike, whatever their
    /// indexes, full-text attributes, defaults and earlier names.
    public let entityVersionHashes: [String: String]
    /// The SHA-256 of the model's version and entity hashes: a store written with a model of
    /// another shape has another hash.
    public let versionHash: String

    let layouts: [String: EntityLayout]
    /// The model as a store records it (``ModelRecord``), and its JSON.
    let record: ModelRecord
    let recordJSON: String

    /// Makes and checks a model.
    ///
    /// - Parameters:
    ///   - version: The model version, from 1.
    ///   - entities: The entities.
    ///   - merging: How copies merge: ordered trees and latest values.
    ///   - migrations: Custom stages, for what inference cannot do.
    ///   - earlierVersions: Earlier versions of the model, for stores that do not record theirs.
    /// - Throws: ``StoreError`` with code ``StoreError/Code/invalidModel`` naming the problem.
    public init(
        version: Int = 1, entities: [EntityDescription], merging: MergeDescription = MergeDescription(),
        migrations: [SchemaMigration] = [], earlierVersions: [ObjectModel] = []
    ) throws {
        guard version >= 1 else { throw StoreError.invalidModel("the version must be 1 or more, not \(version)") }
        if let later = earlierVersions.first(where: { $0.version >= version }) {
            throw StoreError.invalidModel("an earlier version of the model is version \(later.version), not below \(version)")
        }
        self.version = version
        self.entities = entities
        self.migrations = migrations.sorted { $0.version < $1.version }
        self.earlierVersions = earlierVersions
        self.layouts = try ObjectModel.makeLayouts(entities)
        try merging.check(against: layouts.mapValues(\.description))
        self.merging = merging
        let record = ModelRecord(version: version, entities: entities, merging: merging)
        self.record = record
        self.recordJSON = record.json()
        self.entityVersionHashes = Dictionary(uniqueKeysWithValues: record.entities.map { ($0.name, ModelRecord.versionHash(of: $0)) })
        self.versionHash = record.versionHash
    }

    /// The declaration of the named entity, if the model has it.
    public func entity(named name: String) -> EntityDescription? {
        layouts[name]?.description
    }

    /// The layout of an entity the caller knows exists.
    func layout(_ name: String) -> EntityLayout {
        guard let layout = layouts[name] else {
            preconditionFailure("The object model has no entity '\(name)'")
        }
        return layout
    }

    // MARK: - Checking and layout

    private static let reservedNames: Set<String> = ["id", "_version"]

    private static func makeLayouts(_ entities: [EntityDescription]) throws -> [String: EntityLayout] {
        var byName: [String: EntityDescription] = [:]
        for entity in entities {
            guard !entity.name.isEmpty, !entity.name.hasPrefix("_"), !entity.name.hasPrefix("sqlite_") else {
                throw StoreError.invalidModel("'\(entity.name)' is not a usable entity name")
            }
            guard byName.updateValue(entity, forKey: entity.name) == nil else {
                throw StoreError.invalidModel("two entities are named '\(entity.name)'")
            }
            var seen = Set<String>()
            for name in entity.attributes.map(\.name) + entity.relationships.map(\.name) {
                guard !reservedNames.contains(name), !name.isEmpty else {
                    throw StoreError.invalidModel("'\(entity.name).\(name)' uses a reserved name (id, _version)")
                }
                guard seen.insert(name).inserted else {
                    throw StoreError.invalidModel("'\(entity.name)' declares '\(name)' twice")
                }
            }
            for name in entity.fullTextAttributes {
                guard let attribute = entity.attributes.first(where: { $0.name == name }),
                    attribute.type == .string || attribute.type == .json
                else {
                    throw StoreError.invalidModel(
                        "the full-text index of '\(entity.name)' names '\(name)', which is not a text attribute of it")
                }
            }
            if !entity.fullTextAttributes.isEmpty, entities.contains(where: { $0.name == entity.fullTextTable }) {
                throw StoreError.invalidModel("'\(entity.fullTextTable)' is both an entity and the full-text table of '\(entity.name)'")
            }
            for key in entity.uniqueKeys {
                for name in key where !entity.attributes.contains(where: { $0.name == name }) {
                    throw StoreError.invalidModel("unique key of '\(entity.name)' names unknown attribute '\(name)'")
                }
            }
            for index in entity.indexes {
                if index.isEmpty { throw StoreError.invalidModel("an index of '\(entity.name)' names no attribute") }
                for name in index
                where !entity.attributes.contains(where: { $0.name == name })
                    && !entity.relationships.contains(where: { $0.name == name && !$0.isToMany })
                {
                    throw StoreError.invalidModel(
                        "an index of '\(entity.name)' names '\(name)', which is no attribute or to-one relationship")
                }
            }
        }
        // Which to-one relationships hold the foreign key.
        func holdsForeignKey(_ entity: EntityDescription, _ r: RelationshipDescription) throws -> Bool {
            guard let destination = byName[r.destination] else {
                throw StoreError.invalidModel("'\(entity.name).\(r.name)' leads to unknown entity '\(r.destination)'")
            }
            guard let inverse = destination.relationships.first(where: { $0.name == r.inverse }) else {
                throw StoreError.invalidModel(
                    "'\(entity.name).\(r.name)' names inverse '\(r.inverse)', which '\(r.destination)' does not declare")
            }
            guard inverse.destination == entity.name, inverse.inverse == r.name else {
                throw StoreError.invalidModel("'\(entity.name).\(r.name)' and '\(r.destination).\(r.inverse)' are not each other's inverse")
            }
            if r.isToMany && inverse.isToMany {
                throw StoreError.invalidModel(
                    "'\(entity.name).\(r.name)' is many-to-many; model it with an intermediate entity holding two to-one relationships")
            }
            if r.isToMany { return false }
            if inverse.isToMany { return true }
            // One-to-one: the side that sorts first holds the key.
            return (entity.name, r.name) < (destination.name, inverse.name)
        }
        var foreignKeys: [String: [RelationshipDescription]] = [:]
        for entity in entities {
            foreignKeys[entity.name] = try entity.relationships.filter { try holdsForeignKey(entity, $0) }
        }
        var layouts: [String: EntityLayout] = [:]
        for (ordinal, entity) in entities.enumerated() {
            let own = foreignKeys[entity.name] ?? []
            let relationships = entity.relationships.map { r -> EntityLayout.Relationship in
                if let index = own.firstIndex(of: r) {
                    return .init(description: r, destination: r.destination, storage: .foreignKey(index))
                }
                let theirs = foreignKeys[r.destination] ?? []
                let index = theirs.firstIndex { $0.name == r.inverse }!
                return .init(description: r, destination: r.destination, storage: .inverse(destinationForeignKey: index))
            }
            layouts[entity.name] = EntityLayout(description: entity, ordinal: ordinal, foreignKeys: own, relationships: relationships)
        }
        return layouts
    }
}
