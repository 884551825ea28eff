import ArgumentParser
import Foundation
import PodDocDocument
import PodDocStore

// MARK: - Reading any document's objects

/// What the object listings print: an object's id and properties, in the form of
/// `export --format objects` (docs/FORMAT.md), for any model.
struct ObjectShape: Encodable {
    let entity: String
    let id: Int64
    /// Attributes, then to-one relationships (a destination's id), in the model's order.
    let properties: [(name: String, value: PropertyValue)]

    /// A property's value as JSON: what `export --format objects` writes.
    enum PropertyValue: Encodable {
        case null
        case bool(Bool)
        case integer(Int64)
        case real(Double)
        /// Text, JSON text, or data as base64.
        case text(String)
        /// The id of a to-one relationship's destination.
        case reference(Int64)

        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .null: try container.encodeNil()
            case .bool(let b): try container.encode(b)
            case .integer(let n), .reference(let n): try container.encode(n)
            case .real(let d) where d.isFinite: try container.encode(d)
            case .real(let d): try container.encode(d.isNaN ? "NaN" : d > 0 ? "Infinity" : "-Infinity")
            case .text(let s): try container.encode(s)
            }
        }

        /// Text in double quotes, its backslashes and quotes escaped.
        static func quoted(_ text: String) -> String {
            "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
        }

        /// The value in a line of text: text quoted (cut after `length` characters, saying how
        /// long it is), dates in ISO 8601, data by its size.
        func text(as type: AttributeType?, entity destination: String?, length: Int) -> String {
            switch self {
            case .null: return "null"
            case .bool(let b): return b ? "true" : "false"
            case .integer(let n) where type == .date: return Date(timeIntervalSince1970: TimeInterval(n)).formatted(.iso8601)
            case .real(let d) where type == .date: return Date(timeIntervalSince1970: d).formatted(.iso8601)
            case .integer(let n): return String(n)
            case .real(let d): return "\(d)"
            case .reference(let n): return "\(destination ?? "object") \(n)"
            case .text(let s) where type == .data: return "<\(Data(base64Encoded: s)?.count ?? 0) bytes>"
            case .text(let s) where s.count > length: return Self.quoted(String(s.prefix(length))) + "… (\(s.count) characters)"
            case .text(let s): return Self.quoted(s)
            }
        }
    }

    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ name: String) { stringValue = name }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(entity, forKey: Key("entity"))
        try container.encode(id, forKey: Key("id"))
        for (name, value) in properties { try container.encode(value, forKey: Key(name)) }
    }

    /// Reads `object` (on its context's queue) as `entity` describes it.
    init(_ object: ManagedObject, entity: EntityDescription, model: ObjectModel) {
        self.entity = entity.name
        id = object.objectID.rowID ?? 0
        var properties: [(String, PropertyValue)] = entity.attributes.map { attribute in
            let value: PropertyValue =
                switch (object.value(forKey: attribute.name), attribute.type) {
                case (.null, _): .null
                case (.integer(let n), .bool): .bool(n != 0)
                case (.integer(let n), _): .integer(n)
                case (.real(let d), _): .real(d)
                case (.text(let s), _): .text(s)
                case (.blob(let data), _): .text(data.base64EncodedString())
                }
            return (attribute.name, value)
        }
        for relationship in entity.relationships where !relationship.isToMany {
            let key = ToOne(relationship.name, to: relationship.destination, inverse: relationship.inverse)
            properties.append((relationship.name, object.destinationID(key).flatMap(\.rowID).map(PropertyValue.reference) ?? .null))
        }
        self.properties = properties
    }

    /// `Task 3  title="Buy milk" done=false list=TaskList 1`.
    func line(in model: ObjectModel) -> String {
        let entity = model.entity(named: self.entity)
        let parts = properties.map { name, value in
            let attribute = entity?.attributes.first { $0.name == name }
            let destination = entity?.relationships.first { $0.name == name }?.destination
            return "\(name)=\(value.text(as: attribute?.type, entity: destination, length: 60))"
        }
        return TerminalText.oneLine("\(self.entity) \(id)  " + parts.joined(separator: " "))
    }
}

extension DocumentSession {
    /// The entity `name` names in the document's model.
    ///
    /// - Throws: ``CommandFailure`` naming the entities there are.
    func entity(named name: String) throws -> EntityDescription {
        let model = document.model
        guard let entity = model.entity(named: name) else {
            throw CommandFailure(
                .badInput, code: "notFound",
                "The document has no entity '\(name)'; its entities are \(model.entities.map(\.name).joined(separator: ", ")).")
        }
        return entity
    }
}

/// `ls [ENTITY] [--limit N]`: the entities of any document with their counts, or one
/// entity's objects.
struct ListObjects: DocumentOperation {
    static let name = "ls"
    static let examples = [
        "poddoc objects ls Chores.poddoc",
        "poddoc objects ls Chores.poddoc Task --limit 20",
        "poddoc objects ls Chores.poddoc Task --json",
    ]
    static let abstract = "List the entities of any document with their counts, or the objects of one entity."
    static let kind: DocumentKind? = nil
    static let changesDocument = false

    @Argument(help: "The entity whose objects to list (leave out for the entities).")
    var entity: String?

    @Option(help: "Show at most this many objects, by id.")
    var limit = 50

    func validate() throws {
        guard limit > 0 else { throw ValidationError("--limit takes a positive number of objects.") }
    }

    struct EntitiesShape: Encodable {
        struct Entity: Encodable {
            let name: String
            let count: Int
        }
        let kind: String
        let entities: [Entity]
    }

    struct ObjectsShape: Encodable {
        let entity: String
        let count: Int
        let objects: [ObjectShape]
    }

    func perform(in session: DocumentSession) async throws {
        let model = session.document.model
        guard let name = entity else {
            let names = model.entities.map(\.name)
            let counts = try await session.reader().perform { context in
                try names.map { try context.count(for: FetchRequest($0)) }
            }
            let shape = EntitiesShape(
                kind: session.document.metadata.kind.rawValue,
                entities: zip(names, counts).map { EntitiesShape.Entity(name: $0, count: $1) })
            let width = names.map(\.count).max() ?? 0
            session.output.emit(
                shape,
                text: shape.entities.map {
                    $0.name.padding(toLength: width + 2, withPad: " ", startingAt: 0) + "\($0.count) object\($0.count == 1 ? "" : "s")"
                }.joined(separator: "\n"))
            return
        }
        let entity = try session.entity(named: name)
        let limit = self.limit
        let (count, objects) = try await session.reader().perform { context in
            let count = try context.count(for: FetchRequest(name))
            let objects = try context.fetch(FetchRequest(name, limit: limit)).map { ObjectShape($0, entity: entity, model: model) }
            return (count, objects)
        }
        var lines = objects.map { $0.line(in: model) }
        if count > objects.count { lines.append("… and \(count - objects.count) more (--limit)") }
        session.output.emit(
            ObjectsShape(entity: name, count: count, objects: objects),
            text: lines.isEmpty ? "No \(name) objects." : lines.joined(separator: "\n"))
    }
}

/// `show ENTITY ID`: one object of any document, every property on its line.
struct ShowObject: DocumentOperation {
    static let name = "show"
    static let examples = [
        "poddoc objects show Chores.poddoc Task 1",
        "poddoc objects show Chores.poddoc TaskList 1 --json",
    ]
    static let abstract = "Show one object of any document: its attributes, and its relationships by id."
    static let kind: DocumentKind? = nil
    static let changesDocument = false

    @Argument(help: "Its entity.")
    var entity: String

    @Argument(help: "Its id (`poddoc objects ls DOC ENTITY` lists them).")
    var id: Int64

    func perform(in session: DocumentSession) async throws {
        let model = session.document.model
        let entity = try session.entity(named: self.entity)
        let id = self.id
        let found = try await session.reader().perform { context -> (ObjectShape, [(String, String, [Int64])])? in
            let objectID = ObjectID.permanent(entity: entity.name, rowID: id)
            guard let object = try context.existingObject(with: objectID) else { return nil }
            let toMany = entity.relationships.filter(\.isToMany).map { relationship in
                let key = ToMany(relationship.name, to: relationship.destination, inverse: relationship.inverse)
                return (relationship.name, relationship.destination, object[key].compactMap(\.objectID.rowID).sorted())
            }
            return (ObjectShape(object, entity: entity, model: model), toMany)
        }
        guard let (shape, toMany) = found else {
            throw CommandFailure(
                .document, code: "notFound",
                "The document has no \(entity.name) \(id); `poddoc objects ls DOC \(entity.name)` lists its objects.")
        }
        var lines = ["\(entity.name) \(id)"]
        let width = (shape.properties.map(\.name.count) + toMany.map(\.0.count)).max() ?? 0
        for (name, value) in shape.properties {
            let attribute = entity.attributes.first { $0.name == name }
            let destination = entity.relationships.first { $0.name == name }?.destination
            lines.append(
                "  " + (name + ":").padding(toLength: width + 2, withPad: " ", startingAt: 0)
                    + TerminalText.oneLine(value.text(as: attribute?.type, entity: destination, length: 400)))
        }
        for (name, destination, ids) in toMany {
            let listed = ids.prefix(20).map(String.init).joined(separator: ", ") + (ids.count > 20 ? ", …" : "")
            lines.append(
                "  " + (name + ":").padding(toLength: width + 2, withPad: " ", startingAt: 0)
                    + "\(ids.count) \(destination)\(ids.isEmpty ? "" : " (\(listed))")")
        }
        session.output.emit(shape, text: lines.joined(separator: "\n"))
    }
}
