import Foundation
import GRDB
import PodDocRandom
import XCTest

@testable import PodDocStore

/// Stores written with one model, opened with another: the steps are inferred, run in one
/// transaction, and leave the rows a store written directly with the new model holds.
final class InferredMigrationTests: StoreTestCase {
    // MARK: - Helpers

    /// Writes a store with `model` holding `rows` of `entity` (values by attribute name), in
    /// id order from 1.
    private func write(_ url: URL, _ model: ObjectModel, _ entity: String, _ rows: [[String: StoreValue]]) throws {
        let store = try PersistentStore(url: url, model: model)
        let root = ObjectContext(store: store)
        try root.performAndWait { ctx in
            for row in rows {
                let object = ctx.insert(entity)
                for (name, value) in row { object.setValue(value, forKey: name) }
            }
            try ctx.save()
        }
    }

    /// Every object's values, as the store's SQL reads them, by id.
    private func rows(_ url: URL, _ model: ObjectModel, _ entity: String) throws -> [Int64: [String: StoreValue]] {
        let store = try PersistentStore(url: url, model: model, options: .init(readOnly: true))
        let root = ObjectContext(store: store)
        return try root.performAndWait { ctx in
            var rows: [Int64: [String: StoreValue]] = [:]
            for object in try ctx.fetch(FetchRequest(entity)) {
                rows[object.objectID.rowID!] = Dictionary(
                    uniqueKeysWithValues: model.entity(named: entity)!.attributes.map { ($0.name, object.value(forKey: $0.name)) })
            }
            return rows
        }
    }

    /// The store's canonical content (``PersistentStore/streamLogicalContent(_:)``).
    private func content(_ url: URL, _ model: ObjectModel) throws -> Data {
        let store = try PersistentStore(url: url, model: model, options: .init(readOnly: true))
        var data = Data()
        try store.streamLogicalContent { data.append(contentsOf: $0) }
        return data
    }

    private func userVersion(_ url: URL) throws -> Int {
        try DatabaseQueue(path: url.path).read { try Int.fetchOne($0, sql: "PRAGMA user_version") ?? 0 }
    }

    private func expectMigrationFailure(_ url: URL, _ model: ObjectModel, mentioning texts: [String], line: UInt = #line) {
        XCTAssertThrowsError(try PersistentStore(url: url, model: model), line: line) { error in
            XCTAssertEqual((error as? StoreError)?.code, .migrationFailed, "\(error)", line: line)
            for text in texts { XCTAssertTrue("\(error)".contains(text), "\(error)", line: line) }
            XCTAssertTrue("\(error)".contains("unchanged") || "\(error)".contains("Nothing changed"), "\(error)", line: line)
        }
    }

    // MARK: - Attributes

    func testAttributesAddedRemovedAndRenamedAcrossVersionsKeepTheirValues() throws {
        let v1 = try ObjectModel(
            version: 1,
            entities: [
                EntityDescription(
                    "Pod", members: [Attribute<String>("title"), Attribute<String?>("gone"), Attribute<Int>("stars", default: 0)])
            ])
        try write(storeURL, v1, "Pod", [["title": .text("A"), "gone": .text("x"), "stars": .integer(3)], ["title": .text("B")]])
        // Version 3: `title` became `name` in version 2 and `label` in 3; `gone` went; `note`
        // and `size` are new; `stars` is the same.
        let v3 = try ObjectModel(
            version: 3,
            entities: [
                EntityDescription(
                    "Pod",
                    members: [
                        Attribute<String>("label", indexed: true, renamedFrom: ["title", "name"]), Attribute<Int>("stars", default: 0),
                        Attribute<String?>("note"), Attribute<Int>("size", default: 7),
                    ])
            ])
        _ = try PersistentStore(url: storeURL, model: v3)
        XCTAssertEqual(
            try rows(storeURL, v3, "Pod"),
            [
                1: ["label": .text("A"), "stars": .integer(3), "note": .null, "size": .integer(7)],
                2: ["label": .text("B"), "stars": .integer(0), "note": .null, "size": .integer(7)],
            ])
        let direct = folder.appending(path: "direct")
        try write(
            direct, v3, "Pod",
            [["label": .text("A"), "stars": .integer(3), "size": .integer(7)], ["label": .text("B"), "size": .integer(7)]])
        XCTAssertEqual(try content(storeURL, v3), try content(direct, v3), "the rows a store written with version 3 holds")
        XCTAssertEqual(try userVersion(storeURL), 3)
        let indexes = try DatabaseQueue(path: storeURL.path).read { db in
            try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'Pod' ORDER BY name")
        }
        XCTAssertEqual(indexes, ["Pod_label"])
    }

    func testOptionalMadeRequiredTakesTheDefaultAndWithoutOneIsRefusedNamingTheCount() throws {
        let v1 = try ObjectModel(version: 1, entities: [EntityDescription("Pod", members: [Attribute<String?>("kind")])])
        try write(storeURL, v1, "Pod", [["kind": .text("lib")], [:], [:]])
        let noDefault = try ObjectModel(version: 2, entities: [EntityDescription("Pod", members: [Attribute<String>("kind")])])
        expectMigrationFailure(
            storeURL, noDefault, mentioning: ["'Pod.kind' is required now, with no default for the 2 objects without one"])
        XCTAssertEqual(try userVersion(storeURL), 1)
        let withDefault = try ObjectModel(
            version: 2, entities: [EntityDescription("Pod", members: [Attribute<String>("kind", default: "app")])])
        _ = try PersistentStore(url: storeURL, model: withDefault)
        XCTAssertEqual(
            try rows(storeURL, withDefault, "Pod"), [1: ["kind": .text("lib")], 2: ["kind": .text("app")], 3: ["kind": .text("app")]])
    }

    func testATypeChangeAndANewRequiredAttributeWithoutDefaultAreRefusedBeforeAnythingChanges() throws {
        let v1 = try ObjectModel(version: 1, entities: [EntityDescription("Pod", members: [Attribute<String>("size")])])
        try write(storeURL, v1, "Pod", [["size": .text("big")]])
        let retyped = try ObjectModel(version: 2, entities: [EntityDescription("Pod", members: [Attribute<Int>("size")])])
        expectMigrationFailure(storeURL, retyped, mentioning: ["'Pod.size' changed type from string to integer", "custom stage"])
        let required = try ObjectModel(
            version: 2, entities: [EntityDescription("Pod", members: [Attribute<String>("size"), Attribute<Int>("count")])])
        expectMigrationFailure(storeURL, required, mentioning: ["'Pod.count' is new and required, with no default for the 1 objects"])
        let columns = try DatabaseQueue(path: storeURL.path).read { db in
            try String.fetchAll(db, sql: "SELECT name FROM pragma_table_info('Pod')")
        }
        XCTAssertEqual(columns, ["id", "_version", "size"], "the added column was rolled back")
        XCTAssertEqual(try userVersion(storeURL), 1)
    }

    func testAUniquenessTheRowsBreakIsRefusedWithTheValues() throws {
        let v1 = try ObjectModel(version: 1, entities: [EntityDescription("Pod", members: [Attribute<String>("name")])])
        try write(storeURL, v1, "Pod", [["name": .text("AFNetworking")], ["name": .text("AFNetworking")], ["name": .text("Alamofire")]])
        let unique = try ObjectModel(version: 2, entities: [EntityDescription("Pod", members: [Attribute<String>("name", unique: true)])])
        expectMigrationFailure(storeURL, unique, mentioning: [#"'Pod' must be unique by name, but 2 objects have name "AFNetworking""#])
        XCTAssertEqual(try userVersion(storeURL), 1)
        // Once the rows allow it, the unique index is made.
        let store = try PersistentStore(url: storeURL, model: v1)
        try ObjectContext(store: store).performAndWait { ctx in
            try ctx.fetch(FetchRequest("Pod")).first.map { ctx.delete($0) }
            try ctx.save()
        }
        try store.close()
        _ = try PersistentStore(url: storeURL, model: unique)
        let sql = try DatabaseQueue(path: storeURL.path).read { db in
            try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE name = 'Pod_name'")
        }
        XCTAssertEqual(sql, #"CREATE UNIQUE INDEX "Pod_name" ON "Pod"("name")"#)
    }

    // MARK: - Entities and relationships

    private enum Shelf {
        static let name = Attribute<String>("name")
        static let books = ToMany("books", to: "Book", inverse: "shelf")
    }

    private enum Book {
        static let title = Attribute<String>("title")
        static let shelf = ToOne("shelf", to: "Shelf", inverse: "books")
    }

    func testEntitiesAddedRemovedAndRenamedAndARelationshipRemovedByATableRebuild() throws {
        let v1 = try ObjectModel(
            version: 1,
            entities: [
                EntityDescription("Shelf", members: [Shelf.name, Shelf.books]),
                EntityDescription("Book", members: [Book.title, Book.shelf]),
                EntityDescription("Old", members: [Attribute<String?>("x")]),
            ])
        let store = try PersistentStore(url: storeURL, model: v1)
        try ObjectContext(store: store).performAndWait { ctx in
            let shelf = ctx.insert("Shelf")
            shelf.setValue(.text("Poems"), forKey: "name")
            for title in ["Odes", "Elegies"] {
                let book = ctx.insert("Book")
                book.setValue(.text(title), forKey: "title")
                book[Book.shelf] = shelf
            }
            ctx.insert("Old")
            try ctx.save()
        }
        try store.close()
        // Version 2: Book is Volume, without its shelf; Old is gone; Author is new.
        let v2 = try ObjectModel(
            version: 2,
            entities: [
                EntityDescription("Shelf", members: [Shelf.name]),
                EntityDescription("Volume", members: [Attribute<String>("title")], renamedFrom: ["Book"]),
                EntityDescription("Author", members: [Attribute<String>("name", default: "")]),
            ])
        _ = try PersistentStore(url: storeURL, model: v2)
        XCTAssertEqual(try rows(storeURL, v2, "Volume"), [1: ["title": .text("Odes")], 2: ["title": .text("Elegies")]])
        let tables = try DatabaseQueue(path: storeURL.path).read { db in
            try String.fetchAll(
                db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '\\_%' ESCAPE '\\' ORDER BY name")
        }
        XCTAssertEqual(tables, ["Author", "Shelf", "Volume"])
        let sequence = try DatabaseQueue(path: storeURL.path).read { db in
            try String.fetchAll(db, sql: "SELECT entity FROM _poddoc_sequence ORDER BY entity")
        }
        XCTAssertFalse(sequence.contains("Book") || sequence.contains("Old"), "\(sequence)")
        // New objects take ids after the old ones: none is given twice.
        let again = try PersistentStore(url: storeURL, model: v2)
        let id = try ObjectContext(store: again).performAndWait { ctx in
            let volume = ctx.insert("Volume")
            volume.setValue(.text("Hymns"), forKey: "title")
            try ctx.save()
            return volume.objectID.rowID
        }
        XCTAssertEqual(id, 3)
    }

    func testARenamedEntityKeepsTheRelationshipsThatLeadToIt() throws {
        let v1 = try ObjectModel(
            version: 1,
            entities: [
                EntityDescription("Shelf", members: [Shelf.name, Shelf.books]),
                EntityDescription("Book", members: [Book.title, Book.shelf]),
            ])
        let store = try PersistentStore(url: storeURL, model: v1)
        try ObjectContext(store: store).performAndWait { ctx in
            let shelf = ctx.insert("Shelf")
            shelf.setValue(.text("Poems"), forKey: "name")
            let book = ctx.insert("Book")
            book.setValue(.text("Odes"), forKey: "title")
            book[Book.shelf] = shelf
            try ctx.save()
        }
        try store.close()
        let v2 = try ObjectModel(
            version: 2,
            entities: [
                EntityDescription("Shelf", members: [Shelf.name, ToMany("books", to: "Volume", inverse: "shelf")]),
                EntityDescription("Volume", members: [Book.title, ToOne("shelf", to: "Shelf", inverse: "books")], renamedFrom: ["Book"]),
            ])
        let migrated = try PersistentStore(url: storeURL, model: v2)
        let titles = try ObjectContext(store: migrated).performAndWait { ctx in
            try ctx.fetch(FetchRequest("Shelf")).flatMap { $0[ToMany("books", to: "Volume", inverse: "shelf")] }.map { $0[Book.title] }
        }
        XCTAssertEqual(titles, ["Odes"])
        XCTAssertEqual(try migrated.unsafeRead { try Row.fetchAll($0, sql: "PRAGMA foreign_key_check") }.count, 0)
    }

    func testAToOneMadeToManyCarriesItsLinksToTheTableThatHoldsThemNow() throws {
        // One-to-one, the key held by `Person.desk` (Desk < Person: the key goes to `Desk.owner`).
        let v1 = try ObjectModel(
            version: 1,
            entities: [
                EntityDescription("Person", members: [Attribute<String>("name"), ToOne("desk", to: "Desk", inverse: "owner")]),
                EntityDescription("Desk", members: [Attribute<String>("room"), ToOne("owner", to: "Person", inverse: "desk")]),
            ])
        let store = try PersistentStore(url: storeURL, model: v1)
        try ObjectContext(store: store).performAndWait { ctx in
            for (name, room) in [("Ann", "1"), ("Bo", "2")] {
                let person = ctx.insert("Person")
                person.setValue(.text(name), forKey: "name")
                let desk = ctx.insert("Desk")
                desk.setValue(.text(room), forKey: "room")
                desk[ToOne("owner", to: "Person", inverse: "desk")] = person
            }
            try ctx.save()
        }
        try store.close()
        let held = try DatabaseQueue(path: storeURL.path).read { db in
            try String.fetchAll(db, sql: "SELECT name FROM pragma_table_info('Desk')")
        }
        XCTAssertTrue(held.contains("owner"), "the one-to-one key sits in Desk: \(held)")
        // Version 2: a person has many desks; each desk's owner is the key now, still in Desk;
        // and a desk has many people, the key moving to Person.
        let v2 = try ObjectModel(
            version: 2,
            entities: [
                EntityDescription("Person", members: [Attribute<String>("name"), ToOne("desk", to: "Desk", inverse: "owner")]),
                EntityDescription("Desk", members: [Attribute<String>("room"), ToMany("owner", to: "Person", inverse: "desk")]),
            ])
        _ = try PersistentStore(url: storeURL, model: v2)
        let links = try DatabaseQueue(path: storeURL.path).read { db in
            try Row.fetchAll(db, sql: #"SELECT p."name", d."room" FROM "Person" p JOIN "Desk" d ON p."desk" = d."id" ORDER BY p."name""#)
                .map { "\($0["name"] as String) \($0["room"] as String)" }
        }
        XCTAssertEqual(links, ["Ann 1", "Bo 2"])
        let columns = try DatabaseQueue(path: storeURL.path).read { db in
            try String.fetchAll(db, sql: "SELECT name FROM pragma_table_info('Desk')")
        }
        XCTAssertEqual(columns, ["id", "_version", "room"], "the old key went with a rebuild of Desk")
        let problems = try DatabaseQueue(path: storeURL.path).read { db in try Row.fetchAll(db, sql: "PRAGMA foreign_key_check") }
        XCTAssertEqual(problems.count, 0)
    }

    // MARK: - History

    func testSavesMadeBeforeAMigrationStillGoBackUnderTheNewNames() throws {
        let v1 = try ObjectModel(
            version: 1,
            entities: [
                EntityDescription(
                    "Pod", members: [Attribute<String>("title"), Attribute<String?>("gone"), Attribute<Int>("stars", default: 0)])
            ])
        let store = try PersistentStore(url: storeURL, model: v1)
        try ObjectContext(store: store).performAndWait { ctx in
            for title in ["a", "b"] {
                let pod = ctx.insert("Pod")
                pod.setValue(.text(title), forKey: "title")
                pod.setValue(.text("x"), forKey: "gone")
            }
            try ctx.save()
            let pods = try ctx.fetch(FetchRequest("Pod"))
            pods[0].setValue(.text("A"), forKey: "title")
            pods[0].setValue(.text("y"), forKey: "gone")
            pods[0].setValue(.integer(5), forKey: "stars")
            ctx.delete(pods[1])
            try ctx.save()
        }
        try store.close()
        let v2 = try ObjectModel(
            version: 2,
            entities: [
                EntityDescription(
                    "Item",
                    members: [
                        Attribute<String>("label", renamedFrom: ["title"]), Attribute<Int>("stars", default: 0),
                        Attribute<Int>("size", default: 7),
                    ],
                    renamedFrom: ["Pod"])
            ])
        let migrated = try PersistentStore(url: storeURL, model: v2)
        let root = ObjectContext(store: migrated)
        let past = try migrated.pastState(after: 1)
        try root.performAndWait { ctx in
            _ = try ctx.revert(to: past)
            try ctx.save()
        }
        try migrated.close()
        XCTAssertEqual(
            try rows(storeURL, v2, "Item"),
            [
                1: ["label": .text("a"), "stars": .integer(0), "size": .integer(7)],
                2: ["label": .text("b"), "stars": .integer(0), "size": .integer(7)],
            ], "the renamed attribute's values come back; the removed one's stay out; the added one has its default")
    }

    // MARK: - Recording the model

    func testAStoreWithoutARecordedModelGetsOneOnItsFirstWritingOpenAndAReadChangesNoByte() throws {
        let model = try ObjectModel(version: 1, entities: [EntityDescription("Pod", members: [Attribute<String>("name")])])
        try write(storeURL, model, "Pod", [["name": .text("A")]])
        // As an earlier poddoc left it: no model recorded.
        let queue = try DatabaseQueue(path: storeURL.path)
        try queue.write { db in try db.execute(sql: "DELETE FROM _poddoc_store WHERE key IN ('model', 'model.hash')") }
        try queue.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
        try queue.close()
        let before = try Data(contentsOf: storeURL)
        _ = try rows(storeURL, model, "Pod")
        XCTAssertEqual(try Data(contentsOf: storeURL), before, "a read-only open records nothing")
        _ = try PersistentStore(url: storeURL, model: model)
        let recorded = try DatabaseQueue(path: storeURL.path).read { db in
            try String.fetchOne(db, sql: "SELECT value FROM _poddoc_store WHERE key = 'model.hash'")
        }
        XCTAssertEqual(recorded, model.versionHash)
    }

    func testAnotherModelOfTheSameVersionAndANewerModelAreRefusedForWritingAndReadWhereTheyCan() throws {
        let v2 = try ObjectModel(
            version: 2, entities: [EntityDescription("Pod", members: [Attribute<String>("name"), Attribute<String?>("extra")])])
        try write(storeURL, v2, "Pod", [["name": .text("A")]])
        let v1 = try ObjectModel(version: 1, entities: [EntityDescription("Pod", members: [Attribute<String>("name")])])
        XCTAssertThrowsError(try PersistentStore(url: storeURL, model: v1)) { error in
            XCTAssertEqual((error as? StoreError)?.code, .newerSchema)
            XCTAssertTrue("\(error)".contains("made by a newer poddoc: model 2, this poddoc knows up to 1; nothing changed"), "\(error)")
        }
        XCTAssertEqual(try rows(storeURL, v1, "Pod"), [1: ["name": .text("A")]], "a newer store reads where its tables allow")
        let sameVersion = try ObjectModel(version: 2, entities: [EntityDescription("Pod", members: [Attribute<String>("name")])])
        XCTAssertThrowsError(try PersistentStore(url: storeURL, model: sameVersion)) { error in
            XCTAssertEqual((error as? StoreError)?.code, .schemaMismatch)
            XCTAssertTrue("\(error)".contains("another model of the same version 2"), "\(error)")
        }
        XCTAssertNotEqual(v1.entityVersionHashes["Pod"], v2.entityVersionHashes["Pod"])
        XCTAssertEqual(sameVersion.entityVersionHashes["Pod"], v1.entityVersionHashes["Pod"], "the entity's shape is the same")
    }

    // MARK: - Random model changes over random stores

    /// An attribute of the reference model.
    private struct Spec: Equatable {
        var name: String
        var type: AttributeType
        var optional: Bool
        var defaultValue: StoreValue
        var indexed: Bool
        var unique: Bool
        var earlier: [String] = []
        /// The version-1 attribute it comes from (nil: added since).
        var origin: String?

        var description: AttributeDescription {
            AttributeDescription(
                name: name, type: type, isOptional: optional, defaultValue: defaultValue, isIndexed: indexed || unique, isUnique: unique,
                renamedFrom: earlier)
        }
    }

    private static func value(_ type: AttributeType, _ random: inout SeededRandom) -> StoreValue {
        switch type {
        case .integer: .integer(Int64(random.below(6)))
        case .double: .real(Double(random.below(6)) / 2)
        default: .text(["a", "b", "c", "d", "e", "f"][random.below(6)])
        }
    }

    func testRandomModelChangesOverRandomStoresLeaveWhatTheReferenceSays() throws {
        let seeds = ProcessInfo.processInfo.environment["MIGRATION_SEEDS"].flatMap(Int.init) ?? 60
        for seed in 0..<seeds {
            var random = SeededRandom(seed: UInt64(seed) &+ 7919)
            let url = folder.appending(path: "seed-\(seed)")
            var specs: [Spec] = (0..<(1 + random.below(4))).map { i in
                let type: AttributeType = [.string, .integer, .double][random.below(3)]
                let optional = random.oneIn(2)
                return Spec(
                    name: "a\(i)", type: type, optional: optional, defaultValue: optional ? .null : Self.value(type, &random),
                    indexed: random.oneIn(3), unique: false, origin: "a\(i)")
            }
            let v1 = try ObjectModel(
                version: 1, entities: [EntityDescription("T", attributes: specs.map(\.description), relationships: [])])
            let written: [[String: StoreValue]] = (0..<random.below(8)).map { _ in
                Dictionary(
                    uniqueKeysWithValues: specs.compactMap { spec in
                        spec.optional && random.oneIn(3) ? nil : (spec.name, Self.value(spec.type, &random))
                    })
            }
            try write(url, v1, "T", written)
            // Several versions of changes, each a random step. The store goes from version 1
            // to the last at once, as inference does: each attribute of the last version
            // keeps the value of the version-1 attribute it comes from; a required one without
            // a value, or a new one, gets its last default.
            var log: [String] = []
            var refused: String?
            var next = specs.count
            for _ in 0..<(1 + random.below(4)) {
                switch random.below(7) {
                case 0:  // an attribute added
                    let type: AttributeType = [.string, .integer, .double][random.below(3)]
                    let optional = random.oneIn(2)
                    let spec = Spec(
                        name: "a\(next)", type: type, optional: optional,
                        defaultValue: random.oneIn(4) && optional ? .null : Self.value(type, &random),
                        indexed: random.oneIn(3), unique: false)
                    next += 1
                    specs.append(spec)
                    log.append("add \(spec.name)")
                case 1 where specs.count > 1:  // one removed
                    let gone = specs.remove(at: random.below(specs.count))
                    log.append("remove \(gone.name)")
                case 2:  // one renamed
                    let i = random.below(specs.count)
                    let old = specs[i].name
                    specs[i].earlier.append(old)
                    specs[i].name = "a\(next)"
                    next += 1
                    log.append("rename \(old) to \(specs[i].name)")
                case 3:  // optional made required, with a default
                    guard let i = specs.indices.first(where: { specs[$0].optional }) else { continue }
                    specs[i].optional = false
                    specs[i].defaultValue = Self.value(specs[i].type, &random)
                    log.append("require \(specs[i].name)")
                case 4:  // required made optional
                    let i = random.below(specs.count)
                    specs[i].optional = true
                    log.append("allow nil in \(specs[i].name)")
                case 5:  // an index added or removed
                    let i = random.below(specs.count)
                    specs[i].indexed.toggle()
                    log.append("index \(specs[i].name): \(specs[i].indexed)")
                default:  // uniqueness added or removed
                    let i = random.below(specs.count)
                    specs[i].unique.toggle()
                    log.append("unique \(specs[i].name): \(specs[i].unique)")
                }
            }
            let reference = written.map { row in
                Dictionary(
                    uniqueKeysWithValues: specs.map { spec -> (String, StoreValue) in
                        let kept = spec.origin.flatMap { row[$0] } ?? .null
                        return (spec.name, spec.origin == nil || (kept == .null && !spec.optional) ? spec.defaultValue : kept)
                    })
            }
            for spec in specs where spec.unique {
                let values = reference.compactMap { $0[spec.name] }.filter { $0 != .null }
                if Set(values).count < values.count { refused = "'T' must be unique by \(spec.name)" }
            }
            let v2 = try ObjectModel(
                version: 2, entities: [EntityDescription("T", attributes: specs.map(\.description), relationships: [])])
            let context = "seed \(seed): \(log.joined(separator: ", "))"
            if let refused {
                expectMigrationFailure(url, v2, mentioning: [refused])
                XCTAssertEqual(try userVersion(url), 1, context)
                continue
            }
            do {
                _ = try PersistentStore(url: url, model: v2)
            } catch {
                XCTFail("\(context): \(error)")
                continue
            }
            let expected = Dictionary(
                uniqueKeysWithValues: reference.enumerated().map { i, row in
                    (Int64(i + 1), Dictionary(uniqueKeysWithValues: specs.map { ($0.name, row[$0.name] ?? .null) }))
                })
            XCTAssertEqual(try rows(url, v2, "T"), expected, context)
            let direct = folder.appending(path: "direct-\(seed)")
            try write(direct, v2, "T", reference)
            XCTAssertEqual(try content(url, v2), try content(direct, v2), context)
            let indexes = try DatabaseQueue(path: url.path).read { db in
                try Set(
                    String.fetchAll(db, sql: "SELECT sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'T' AND sql IS NOT NULL"))
            }
            let directIndexes = try DatabaseQueue(path: direct.path).read { db in
                try Set(
                    String.fetchAll(db, sql: "SELECT sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'T' AND sql IS NOT NULL"))
            }
            XCTAssertEqual(indexes, directIndexes, context)
        }
    }
}
