import Foundation
import PodDocDocument
import PodDocRandom
import PodDocStore

/// Random edits of a document of any kind, made from its model alone: inserts with a value of
/// every attribute's type, updates of one attribute, deletes (with what the delete rules
/// take), relationships set and cleared, moves in the ordered trees the model describes, and
/// undo. For an app's own kind, which the crash test knows only through the model its store
/// records.
@MainActor
final class ModelWorkload: ChildWorkload {
    private let document: ManagedDocument
    private let log: OperationLog
    private let model: ObjectModel
    /// Entities with at least one attribute or to-one relationship to edit.
    private let entities: [EntityDescription]
    private let trees: [String: OrderedTree]

    /// Most objects of an entity before deletions take over.
    private static let largestEntity = 120

    init(document: ManagedDocument, log: OperationLog) throws {
        self.document = document
        self.log = log
        model = document.model
        entities = model.entities
        trees = Dictionary(uniqueKeysWithValues: model.merging.trees.map { ($0.entity, $0) })
        guard !entities.isEmpty else {
            throw CrashTestError(.usage, "The document's model has no entity to edit.")
        }
    }

    func edit(using random: inout SeededRandom) async throws {
        let context = document.mainContext
        let entity = entities[random.below(entities.count)]
        let ids = try context.fetchIDs(FetchRequest(entity.name))
        var choice = random.below(10)
        if ids.isEmpty { choice = 0 } else if ids.count > Self.largestEntity { choice = 7 }
        let target = ids.isEmpty ? nil : ids[random.below(ids.count)]
        switch choice {
        case 0, 1, 2:
            try document.undoManager.group("Insert \(entity.name)") {
                let object = context.insert(entity.name)
                for attribute in entity.attributes {
                    object.setValue(Self.value(for: attribute, unique: unique(entity, attribute), using: &random), forKey: attribute.name)
                }
                try link(object, entity: entity, using: &random, only: nil)
                log.record("insert \(entity.name)")
            }
        case 3, 4, 5:
            guard let target, let object = try context.existingObject(with: target) else { return }
            let editable = entity.attributes.filter { !unique(entity, $0) }
            guard !editable.isEmpty else { return }
            let attribute = editable[random.below(editable.count)]
            let value = Self.value(for: attribute, unique: false, using: &random)
            try document.undoManager.group("Set \(attribute.name)") {
                object.setValue(value, forKey: attribute.name)
                log.record("set \(target) \(attribute.name)")
            }
        case 6:
            // A move: a new destination for one to-one relationship (a new parent and place
            // in an ordered tree).
            guard let target, let object = try context.existingObject(with: target) else { return }
            let relationships = entity.relationships.filter { !$0.isToMany }
            guard !relationships.isEmpty else { return }
            let relationship = relationships[random.below(relationships.count)]
            try document.undoManager.group("Move \(entity.name)") {
                try link(object, entity: entity, using: &random, only: relationship.name)
                log.record("move \(target) by \(relationship.name)")
            }
        case 7, 8:
            guard let target, let object = try context.existingObject(with: target) else { return }
            try document.undoManager.group("Delete \(entity.name)") {
                try context.delete(object)
                log.record("delete \(target)")
            }
        default:
            log.record(document.undoManager.canUndo ? "undo" : "undo (nothing)")
            document.undoManager.undo()
        }
    }

    /// Sets `object`'s to-one relationships (or the one named `only`) to random objects of
    /// their destinations, or to none. In an ordered tree, a parent is an object of a lower
    /// id (so no edit makes a cycle), and the order key is a fresh one.
    private func link(_ object: ManagedObject, entity: EntityDescription, using random: inout SeededRandom, only: String?) throws {
        let context = document.mainContext
        for relationship in entity.relationships where !relationship.isToMany && (only == nil || relationship.name == only) {
            let key = ToOne(relationship.name, to: relationship.destination, inverse: relationship.inverse)
            var candidates = try context.fetchIDs(FetchRequest(relationship.destination, limit: 50))
            if relationship.destination == entity.name {
                let own = object.objectID.rowID ?? .max
                candidates = candidates.filter { $0 != object.objectID && ($0.rowID ?? .max) < own }
            }
            let destination =
                candidates.isEmpty || random.oneIn(4) ? nil : try context.existingObject(with: candidates[random.below(candidates.count)])
            object[key] = destination
            if let tree = trees[entity.name], tree.parent == relationship.name {
                object.setValue(.integer(Int64(SiblingOrder.spaced(random.below(64)))), forKey: tree.order)
            }
        }
    }

    /// Whether the attribute's values must differ from object to object: unique, or part of
    /// a unique key (such values are drawn from 64 random bits, and never updated).
    private func unique(_ entity: EntityDescription, _ attribute: AttributeDescription) -> Bool {
        attribute.isUnique || entity.uniqueKeys.contains { $0.contains(attribute.name) }
    }

    /// A random value of the attribute's type (NULL now and then when it is optional).
    private static func value(for attribute: AttributeDescription, unique: Bool, using random: inout SeededRandom) -> StoreValue {
        if attribute.isOptional, !unique, random.oneIn(6) { return .null }
        let n = random.next()
        switch attribute.type {
        case .string: return .text(unique ? "u\(n)" : "word \(n % 10_000)")
        case .json: return .text(#"{"n":\#(n % 1_000)}"#)
        case .integer: return .integer(unique ? Int64(bitPattern: n >> 1) : Int64(n % 100_000))
        case .bool: return .integer(Int64(n % 2))
        case .double: return .real(Double(n % 1_000_000) / 100)
        case .date: return .real(1_700_000_000 + Double(n % 100_000_000) / 10)
        case .data: return .blob(Data((0..<Int(n % 24)).map { UInt8(truncatingIfNeeded: n >> ($0 % 8)) }))
        }
    }
}
