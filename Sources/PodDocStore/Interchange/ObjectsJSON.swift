import Foundation
import PodDocJSON

/// Every object of every entity of a store as one JSON file, with the model it was written
/// with: a store taken apart with standard tools (`jq`, a script) and rebuilt
/// (``ObjectsJSON/Contents/insert(into:)``) whatever its model. docs/FORMAT.md describes it:
///
/// ```json
/// {"format": "poddoc-objects", "version": 1, "kind": "org.example.tasks",
///  "model": {"entities": [...], "version": 2},
///  "objects": {
///   "Task": [
///    {"id": 1, "title": "Buy milk", "done": false, "due": 1798761600, "list": 1}
///   ]
///  }}
/// ```
///
/// Each object is one line: `id`, then each attribute (text and JSON attributes as strings,
/// numbers as numbers, booleans as `true`/`false`, dates as seconds since 1970 UTC, data as
/// base64, NULL as `null`; a double that is not finite as `"Infinity"`, `"-Infinity"` or
/// `"NaN"`), then each to-one relationship the entity holds as the id of its destination (or
/// `null`). To-many relationships are their inverses, read from the other side. Ids name
/// objects within the file; a rebuilt store numbers its objects afresh, in the file's order.
/// A file made by hand may leave out an attribute that has a default, or is optional.
public enum ObjectsJSON {
    /// The `format` member.
    public static let formatName = "poddoc-objects"
    /// The `version` member this poddoc writes and reads.
    public static let formatVersion = 1

    /// What a write or an insert handled.
    public struct Counts: Sendable, Equatable {
        /// The objects, by entity name.
        public var objects: [String: Int] = [:]
        /// None yet.
        public init() {}
        /// All objects.
        public var total: Int { objects.values.reduce(0, +) }
    }

    // MARK: - Writing

    /// Writes every saved object of `store`, entity by entity in the model's order and by id,
    /// in one consistent state, handing the text to `sink` a piece at a time (memory stays
    /// flat however many objects there are).
    ///
    /// - Parameters:
    ///   - store: The store.
    ///   - kind: What the file says it holds (a document kind's identifier).
    ///   - sink: Takes each piece of the text, in order.
    /// - Throws: ``StoreError`` when the store cannot be read; what `sink` throws.
    @discardableResult
    public static func write(_ store: PersistentStore, kind: String, to sink: (UnsafeRawBufferPointer) throws -> Void) throws -> Counts {
        var out: [UInt8] = []
        out.reserveCapacity(1 << 16)
        func flush(_ force: Bool = false) throws {
            guard force || out.count >= 1 << 16 else { return }
            try out.withUnsafeBytes { try sink($0) }
            out.removeAll(keepingCapacity: true)
        }
        out += #"{"format": "\#(formatName)", "version": \#(formatVersion), "kind": "#.utf8
        JSONEscaping.appendQuoted(kind, to: &out)
        out += ",\n \"model\": ".utf8
        out += store.model.recordJSON.utf8
        out += ",\n \"objects\": {".utf8
        var counts = Counts()
        try store.readSnapshot { snapshot in
            for (index, entity) in store.model.entities.enumerated() {
                out += (index == 0 ? "\n  " : ",\n  ").utf8
                JSONEscaping.appendQuoted(entity.name, to: &out)
                out += ": [".utf8
                let rows = try snapshot.rows(FetchRequest(entity.name))  // in id order
                var count = 0
                while let row = try rows.next() {
                    out += (count == 0 ? "\n   {\"id\": " : ",\n   {\"id\": ").utf8
                    out += String(row.objectID.rowID ?? 0).utf8
                    for attribute in entity.attributes {
                        out += ", ".utf8
                        JSONEscaping.appendQuoted(attribute.name, to: &out)
                        out += ": ".utf8
                        append(row.value(ofAttribute: attribute.name), as: attribute.type, to: &out)
                    }
                    for name in row.heldRelationships {
                        out += ", ".utf8
                        JSONEscaping.appendQuoted(name, to: &out)
                        out += ": ".utf8
                        out += (row.destination(ofRelationship: name)?.rowID.map(String.init) ?? "null").utf8
                    }
                    out += "}".utf8
                    count += 1
                    try flush()
                }
                out += (count == 0 ? "]" : "\n  ]").utf8
                counts.objects[entity.name] = count
            }
        }
        out += "\n }}\n".utf8
        try flush(true)
        return counts
    }

    private static func append(_ value: StoreValue, as type: AttributeType, to out: inout [UInt8]) {
        switch value {
        case .null: out += "null".utf8
        case .integer(let n) where type == .bool: out += (n != 0 ? "true" : "false").utf8
        case .integer(let n): out += String(n).utf8
        case .real(let d) where d.isNaN: out += #""NaN""#.utf8
        case .real(let d) where d.isInfinite: out += (d > 0 ? #""Infinity""# : #""-Infinity""#).utf8
        case .real(let d): out += "\(d)".utf8
        case .text(let s): JSONEscaping.appendQuoted(s, to: &out)
        case .blob(let data): JSONEscaping.appendQuoted(data.base64EncodedString(), to: &out)
        }
    }

    // MARK: - Reading

    /// A file read and checked: its kind, its model, and its objects, ready to insert.
    public struct Contents: Sendable {
        /// What the file says it holds.
        public let kind: String
        /// The model the objects were written with.
        public let model: ObjectModel
        fileprivate let objects: [(entity: String, objects: [ParsedObject])]

        /// The number of objects, by entity.
        public var counts: Counts {
            var counts = Counts()
            for (entity, objects) in self.objects { counts.objects[entity, default: 0] += objects.count }
            return counts
        }

        /// Inserts every object into `context` (on its queue), its to-one relationships
        /// pointing at the objects inserted for the ids they name. Nothing is saved.
        ///
        /// - Throws: ``StoreError`` (`.validation`) when `context`'s model is not the file's.
        @discardableResult
        public func insert(into context: ObjectContext) throws -> Counts {
            guard context.store.model.versionHash == model.versionHash else {
                throw StoreError(.validation, "The objects were written with another model than the store's; nothing was inserted.")
            }
            var inserted: [String: [Int64: ManagedObject]] = [:]
            for (entity, objects) in objects {
                var byID: [Int64: ManagedObject] = [:]
                byID.reserveCapacity(objects.count)
                for parsed in objects {
                    let object = context.insert(entity)
                    for (name, value) in parsed.values { object.setValue(value, forKey: name) }
                    byID[parsed.id] = object
                }
                inserted[entity] = byID
            }
            for (entity, objects) in objects {
                guard let description = model.entity(named: entity) else { continue }
                for parsed in objects where !parsed.references.isEmpty {
                    guard let object = inserted[entity]?[parsed.id] else { continue }
                    for (name, id) in parsed.references {
                        guard let relationship = description.relationships.first(where: { $0.name == name }) else { continue }
                        let key = ToOne(name, to: relationship.destination, inverse: relationship.inverse)
                        object[key] = inserted[relationship.destination]?[id]
                    }
                }
            }
            return counts
        }
    }

    fileprivate struct ParsedObject: Sendable {
        var id: Int64
        var values: [(String, StoreValue)]
        var references: [(String, Int64)]
    }

    /// Reads and checks a file ``write(_:kind:to:)`` wrote (or a tool made in its form): its
    /// structure, its model, every value against its attribute's type, every id and every
    /// reference. Hostile input is refused with the place it went wrong.
    ///
    /// - Throws: ``StoreError`` (`.validation`) saying what is wrong and where.
    public static func read(_ data: Data) throws -> Contents {
        do {
            return try data.withUnsafeBytes { raw in
                var scanner = JSONScanner(raw.bindMemory(to: UInt8.self), maxDepth: 64, loneSurrogates: .reject)
                return try Reader.read(&scanner)
            }
        } catch let error as JSONScanner.SyntaxError {
            throw StoreError(.validation, "The objects file is not valid JSON at byte \(error.offset): \(error.reason).")
        }
    }

    private enum Reader {
        static func invalid(_ what: String) -> StoreError {
            StoreError(.validation, "The objects file is not one poddoc reads: \(what).")
        }

        static func read(_ scanner: inout JSONScanner) throws -> Contents {
            var format: String?
            var version: Int?
            var kind: String?
            var model: ObjectModel?
            var objects: [(entity: String, objects: [ParsedObject])]?
            scanner.skipSpace()
            guard scanner.peek() == UInt8(ascii: "{") else { throw invalid("it is no JSON object") }
            var seen = Set<String>()
            try scanner.forEachMember { key, scanner in
                guard seen.insert(key).inserted else { throw invalid("'\(key)' appears twice") }
                switch key {
                case "format": format = try scanner.parseValue().text
                case "version":
                    guard case .number(let text) = try scanner.parseValue() else { throw invalid("its 'version' is no number") }
                    version = Int(text)
                case "kind": kind = try Self.string(scanner.parseValue())
                case "model":
                    let start = scanner.index
                    try scanner.skipValue()
                    let text = String(decoding: UnsafeBufferPointer(rebasing: scanner.bytes[start..<scanner.index]), as: UTF8.self)
                    guard let record = ModelRecord.decode(text) else { throw invalid("its 'model' is not the record of a model") }
                    do {
                        model = try record.model()
                    } catch let error as StoreError {
                        throw invalid("its 'model' describes no valid model (\(error.message))")
                    }
                case "objects":
                    guard let model else { throw invalid("'objects' comes before 'model'") }
                    objects = try readObjects(&scanner, model)
                default:
                    throw invalid("it has a member '\(key)' (it holds format, version, kind, model and objects)")
                }
            }
            scanner.skipSpace()
            guard scanner.isAtEnd() else { throw invalid("text follows the object") }
            guard format == formatName else { throw invalid("its 'format' is not \"\(formatName)\"") }
            guard let version, version >= 1 else { throw invalid("its 'version' is no whole number") }
            guard version <= formatVersion else {
                throw StoreError(
                    .validation,
                    "The objects file is of version \(version); this poddoc reads version \(formatVersion). Use a newer poddoc.")
            }
            guard let kind else { throw invalid("it has no 'kind'") }
            guard let model, let objects else { throw invalid("it has no '\(model == nil ? "model" : "objects")'") }
            try Self.checkReferences(objects, model: model)
            return Contents(kind: kind, model: model, objects: objects)
        }

        private static func string(_ value: JSONValue) throws -> String {
            guard case .string(let text) = value else { throw invalid("its 'kind' is \(value.kindName), not a string") }
            return text
        }

        static func readObjects(_ scanner: inout JSONScanner, _ model: ObjectModel) throws -> [(entity: String, objects: [ParsedObject])] {
            var result: [(entity: String, objects: [ParsedObject])] = []
            var seen = Set<String>()
            try scanner.forEachMember { entityName, scanner in
                guard let entity = model.entity(named: entityName) else {
                    throw invalid("'objects' names '\(entityName)', no entity of its model")
                }
                guard seen.insert(entityName).inserted else { throw invalid("'objects' lists '\(entityName)' twice") }
                let attributes = Dictionary(uniqueKeysWithValues: entity.attributes.map { ($0.name, $0) })
                let held = model.layout(entityName).foreignKeys.map(\.name)
                var ids = Set<Int64>()
                var parsed: [ParsedObject] = []
                try scanner.forEachElement { scanner in
                    guard case .object(let members) = try scanner.parseValue(depth: 2) else {
                        throw invalid("an element of '\(entityName)' is no object")
                    }
                    let place = "\(entityName) #\(parsed.count + 1)"
                    var object = ParsedObject(id: 0, values: [], references: [])
                    var names = Set<String>()
                    for (key, value) in members {
                        guard names.insert(key).inserted else { throw invalid("\(place) has '\(key)' twice") }
                        if key == "id" {
                            guard let id = value.wholeNumber, id > 0 else {
                                throw invalid("\(place) has an 'id' that is no positive whole number")
                            }
                            guard ids.insert(id).inserted else { throw invalid("two objects of '\(entityName)' have id \(id)") }
                            object.id = id
                        } else if let attribute = attributes[key] {
                            object.values.append((key, try storeValue(value, for: attribute, at: "\(place) '\(key)'")))
                        } else if held.contains(key) {
                            if case .null = value { continue }
                            guard let id = value.wholeNumber, id > 0 else {
                                throw invalid("\(place) '\(key)' is \(value.kindName), not the id of an object or null")
                            }
                            object.references.append((key, id))
                        } else {
                            throw invalid("\(place) has '\(key)', which is no attribute or to-one relationship of \(entityName)")
                        }
                    }
                    guard names.contains("id") else { throw invalid("\(place) has no 'id'") }
                    // A missing attribute takes its default; one with none must be given.
                    for attribute in entity.attributes where !names.contains(attribute.name) {
                        if !attribute.defaultValue.isNull {
                            object.values.append((attribute.name, attribute.defaultValue))
                        } else if !attribute.isOptional {
                            throw invalid("\(place) has no '\(attribute.name)', which has no default and cannot be null")
                        }
                    }
                    parsed.append(object)
                }
                result.append((entityName, parsed))
            }
            return result
        }

        private static func storeValue(_ value: JSONValue, for attribute: AttributeDescription, at place: String) throws -> StoreValue {
            func wrong() -> StoreError { invalid("\(place) is \(value.kindName), not a value of type \(attribute.type.rawValue)") }
            switch (value, attribute.type) {
            case (.null, _):
                guard attribute.isOptional else { throw invalid("\(place) is null, but it cannot be") }
                return .null
            case (.string(let s), .string), (.string(let s), .json): return .text(s)
            case (.bool(let b), .bool): return .integer(b ? 1 : 0)
            case (.number, .integer):
                guard let n = value.wholeNumber else { throw invalid("\(place) is no whole number that fits 64 bits") }
                return .integer(n)
            case (.number(let text), .double), (.number(let text), .date):
                guard let d = Double(text), d.isFinite else { throw invalid("\(place) is no finite number") }
                return .real(d)
            case (.string("NaN"), .double): return .real(.nan)
            case (.string("Infinity"), .double): return .real(.infinity)
            case (.string("-Infinity"), .double): return .real(-.infinity)
            case (.string(let base64), .data):
                guard let data = Data(base64Encoded: base64) else { throw invalid("\(place) is no base64 text") }
                return .blob(data)
            default: throw wrong()
            }
        }

        static func checkReferences(_ objects: [(entity: String, objects: [ParsedObject])], model: ObjectModel) throws {
            let ids = Dictionary(objects.map { ($0.entity, Set($0.objects.map(\.id))) }, uniquingKeysWith: { $0.union($1) })
            for (entity, list) in objects {
                guard let description = model.entity(named: entity) else { continue }
                for object in list {
                    for (name, id) in object.references {
                        guard let destination = description.relationships.first(where: { $0.name == name })?.destination,
                            ids[destination]?.contains(id) == true
                        else {
                            throw StoreError(
                                .validation,
                                "The objects file is not one poddoc reads: \(entity) \(object.id) '\(name)' names object \(id), which the file does not hold."
                            )
                        }
                    }
                }
            }
        }
    }
}

extension JSONValue {
    /// The number as a 64-bit whole number, if it is one written as such.
    fileprivate var wholeNumber: Int64? {
        guard case .number(let text) = self else { return nil }
        return Int64(text)
    }
}
