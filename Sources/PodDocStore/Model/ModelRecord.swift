internal import Crypto
import Foundation

/// The whole of an ``ObjectModel`` as a store records it (`_poddoc_store` key `model`), so
/// that any later poddoc can compare a store's model with its own, and infer the steps
/// between them, without the code of the old model.
///
/// Its JSON (keys sorted, no spaces) is described in docs/FORMAT.md; its shape only grows.
/// The ``versionHash`` covers what shapes the stored rows (names, types, optionality,
/// relationships, uniqueness), as Core Data's entity version hashes: not what is derived
/// from the rows (indexes, the full-text index), which any writable open brings in line,
/// nor defaults and earlier names, which only a migration or an insert reads.
struct ModelRecord: Codable, Equatable, Sendable {
    struct Attribute: Codable, Equatable, Sendable {
        var name: String
        var type: String
        var optional: Bool
        var defaultValue: Value?
        var indexed: Bool
        var unique: Bool
        var caseInsensitiveIndex: Bool
        var renamedFrom: [String]?
    }

    struct Relationship: Codable, Equatable, Sendable {
        var name: String
        var destination: String
        var inverse: String
        var toMany: Bool
        var deleteRule: String
    }

    struct Entity: Codable, Equatable, Sendable {
        var name: String
        var attributes: [Attribute]
        var relationships: [Relationship]
        var uniqueKeys: [[String]]
        var indexes: [[String]]
        var fullTextAttributes: [String]
        var fullTextWeights: [Double]
        var renamedFrom: [String]?
    }

    /// A default value, tagged by its storage class.
    enum Value: Codable, Equatable, Sendable {
        case integer(Int64)
        case real(Double)
        case text(String)
        case blob(Data)
    }

    /// A model's merge description (``MergeDescription``), by names.
    struct Merging: Codable, Equatable, Sendable {
        struct Tree: Codable, Equatable, Sendable {
            var entity: String
            var parent: String
            var order: String
        }
        struct Latest: Codable, Equatable, Sendable {
            var entity: String
            var attribute: String
        }
        var trees: [Tree]
        var latest: [Latest]
    }

    var version: Int
    var entities: [Entity]
    /// Absent when every property merges on its own (and in records made before models
    /// carried their merge description).
    var merging: Merging?

    /// The record of a model's entities and merge description.
    init(version: Int, entities: [EntityDescription], merging: MergeDescription = MergeDescription()) {
        self.version = version
        self.merging =
            merging == MergeDescription()
            ? nil
            : Merging(
                trees: merging.trees.map { Merging.Tree(entity: $0.entity, parent: $0.parent, order: $0.order) },
                latest: merging.latestValues.map { Merging.Latest(entity: $0.entity, attribute: $0.attribute) })
        self.entities = entities.map { entity in
            Entity(
                name: entity.name,
                attributes: entity.attributes.map { a in
                    Attribute(
                        name: a.name, type: a.type.rawValue, optional: a.isOptional, defaultValue: Value(a.defaultValue),
                        indexed: a.isIndexed, unique: a.isUnique, caseInsensitiveIndex: a.hasCaseInsensitiveIndex,
                        renamedFrom: a.renamedFrom.isEmpty ? nil : a.renamedFrom)
                },
                relationships: entity.relationships.map { r in
                    Relationship(
                        name: r.name, destination: r.destination, inverse: r.inverse, toMany: r.isToMany,
                        deleteRule: r.deleteRule.rawValue)
                },
                uniqueKeys: entity.uniqueKeys, indexes: entity.indexes, fullTextAttributes: entity.fullTextAttributes,
                fullTextWeights: entity.fullTextWeights, renamedFrom: entity.renamedFrom.isEmpty ? nil : entity.renamedFrom)
        }
    }

    /// The model the record describes, checked as any model is.
    ///
    /// - Throws: ``StoreError`` (`.corrupt`) when it names an unknown type or rule, or
    ///   describes no valid model.
    func model() throws -> ObjectModel {
        func corrupt(_ what: String) -> StoreError {
            StoreError(.corrupt, "The model the store records is damaged: \(what).")
        }
        let entities = try self.entities.map { entity -> EntityDescription in
            let attributes = try entity.attributes.map { a -> AttributeDescription in
                guard let type = AttributeType(rawValue: a.type) else { throw corrupt("'\(entity.name).\(a.name)' has type '\(a.type)'") }
                guard !a.caseInsensitiveIndex || type == .string else {
                    throw corrupt("'\(entity.name).\(a.name)' has a case-insensitive index but is no text")
                }
                return AttributeDescription(
                    name: a.name, type: type, isOptional: a.optional, defaultValue: a.defaultValue?.storeValue ?? .null,
                    isIndexed: a.indexed, isUnique: a.unique, hasCaseInsensitiveIndex: a.caseInsensitiveIndex,
                    renamedFrom: a.renamedFrom ?? [])
            }
            let relationships = try entity.relationships.map { r -> RelationshipDescription in
                guard let rule = DeleteRule(rawValue: r.deleteRule) else {
                    throw corrupt("'\(entity.name).\(r.name)' has delete rule '\(r.deleteRule)'")
                }
                return RelationshipDescription(
                    name: r.name, destination: r.destination, inverse: r.inverse, isToMany: r.toMany, deleteRule: rule)
            }
            return EntityDescription(
                entity.name, attributes: attributes, relationships: relationships, uniqueKeys: entity.uniqueKeys,
                indexes: entity.indexes, fullTextAttributes: entity.fullTextAttributes, fullTextWeights: entity.fullTextWeights,
                renamedFrom: entity.renamedFrom ?? [])
        }
        let merging = MergeDescription(
            trees: self.merging?.trees.map { OrderedTree(entity: $0.entity, parent: $0.parent, order: $0.order) } ?? [],
            latestValues: self.merging?.latest.map { LatestValue(entity: $0.entity, attribute: $0.attribute) } ?? [])
        do {
            return try ObjectModel(version: version, entities: entities, merging: merging)
        } catch let error as StoreError {
            throw corrupt(error.message)
        }
    }

    // MARK: - JSON and hashes

    private static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    /// The record as the store keeps it.
    func json() -> String {
        // Encoding plain strings, numbers and arrays cannot fail.
        String(decoding: try! Self.encoder().encode(self), as: UTF8.self)
    }

    /// Reads a record the store kept; nil when it is not one.
    static func decode(_ json: String) -> ModelRecord? {
        try? JSONDecoder().decode(ModelRecord.self, from: Data(json.utf8))
    }

    /// The SHA-256 of what shapes one entity's rows: its record without what is derived from
    /// the rows, defaults and earlier names.
    static func versionHash(of entity: Entity) -> String {
        var shape = entity
        shape.renamedFrom = nil
        shape.indexes = []
        shape.fullTextAttributes = []
        shape.fullTextWeights = []
        shape.attributes = shape.attributes.map { attribute in
            var a = attribute
            a.renamedFrom = nil
            a.defaultValue = nil
            a.indexed = a.unique
            a.caseInsensitiveIndex = false
            return a
        }
        let digest = SHA256.hash(data: try! encoder().encode(shape))
        return digest.map { String(format: "%02x", $0) }.joined()
    }

    /// The SHA-256 of the model's shape: its version and each entity's hash, by name.
    var versionHash: String {
        let parts = ["version \(version)"] + entities.map { "\($0.name) \(Self.versionHash(of: $0))" }.sorted()
        return SHA256.hash(data: Data(parts.joined(separator: "\n").utf8)).map { String(format: "%02x", $0) }.joined()
    }
}

extension ModelRecord.Value {
    init?(_ value: StoreValue) {
        switch value {
        case .null: return nil
        case .integer(let v): self = .integer(v)
        case .real(let v): self = .real(v)
        case .text(let v): self = .text(v)
        case .blob(let v): self = .blob(v)
        }
    }

    var storeValue: StoreValue {
        switch self {
        case .integer(let v): .integer(v)
        case .real(let v): .real(v)
        case .text(let v): .text(v)
        case .blob(let v): .blob(v)
        }
    }
}
