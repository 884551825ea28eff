import Foundation
import PodDocStore

/// An outline item: a tree with ordered children.
enum Item {
    static let title = Attribute<String>("title", default: "")
    static let order = Attribute<Int>("order", default: 0, indexed: true)
    static let note = Attribute<String?>("note")
    static let done = Attribute<Bool>("done", default: false)
    static let created = Attribute<Date?>("created")
    static let parent = ToOne("parent", to: "Item", inverse: "children")
    static let children = ToMany("children", to: "Item", inverse: "parent", deleteRule: .cascade)
    static let entity = EntityDescription("Item", members: [title, order, note, done, created, parent, children])
}

/// A record keyed by a unique string, as imports use.
enum Pod {
    static let key = Attribute<String>("key", unique: true)
    static let name = Attribute<String>("name", indexed: true)
    static let version = Attribute<String>("version")
    static let summary = Attribute<String?>("summary")
    static let score = Attribute<Double>("score", default: 0)
    static let payload = Attribute<Data?>("payload")
    static let json = Attribute<JSONText?>("json")
    static let entity = EntityDescription("Pod", members: [key, name, version, summary, score, payload, json])
}

/// One-to-one: a person and a passport.
enum Person {
    static let name = Attribute<String>("name", default: "")
    static let passport = ToOne("passport", to: "Passport", inverse: "holder", deleteRule: .cascade)
    static let entity = EntityDescription("Person", members: [name, passport])
}

enum Passport {
    static let number = Attribute<String>("number", default: "")
    static let holder = ToOne("holder", to: "Person", inverse: "passport")
    static let entity = EntityDescription("Passport", members: [number, holder])
}

/// A folder that may not be deleted while it holds documents.
enum Folder {
    static let name = Attribute<String>("name", default: "")
    static let documents = ToMany("documents", to: "Document", inverse: "folder", deleteRule: .deny)
    static let entity = EntityDescription("Folder", members: [name, documents])
}

enum Document {
    static let name = Attribute<String>("name", default: "")
    static let folder = ToOne("folder", to: "Folder", inverse: "documents")
    static let entity = EntityDescription("Document", members: [name, folder])
}

let testModel: ObjectModel = {
    do {
        return try ObjectModel(
            version: 1, entities: [Item.entity, Pod.entity, Person.entity, Passport.entity, Folder.entity, Document.entity])
    } catch {
        fatalError("test model: \(error)")
    }
}()
