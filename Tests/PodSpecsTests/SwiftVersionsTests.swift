import Foundation
import GRDB
import XCTest

@testable import PodDocStore
@testable import PodSpecs

/// The Swift versions a spec declares: read from every shape specs write them in, queried by
/// `pods ls --swift`, and read from the stored JSON when a version-1 document is upgraded.
final class SwiftVersionsTests: SpecsTestCase {
    private typealias E = PodSpecsSchema.PodSpecEntity

    /// Specs with their Swift versions in the shapes real specs use, and what poddoc reads.
    private static let cases: [(json: String, versions: [String])] = [
        (#"{"name":"A","version":"1.0","swift_version":"4.2"}"#, ["4.2"]),
        (#"{"name":"B","version":"1.0","swift_versions":["4.0","5.0","4.0"],"swift_version":"5.0"}"#, ["4.0", "5.0"]),
        (#"{"name":"C","version":"1.0","swift_versions":"5.9"}"#, ["5.9"]),
        (#"{"name":"D","version":"1.0","swift_versions":[5.0,"not a version","","5.10"]}"#, ["5.10"]),
        (#"{"name":"E","version":"1.0","swift_versions":{"odd":true}}"#, []),
        (#"{"name":"F","version":"1.0","summary":"no swift_version at all"}"#, []),
        (#"{"name":"G","version":"1.0","swift_version":"5.9","swift_versions":[]}"#, ["5.9"]),
    ]

    private static func specs() throws -> [PodSpec] {
        try cases.map { try PodSpecParser.parseSpec(Data($0.json.utf8), location: "test") }
    }

    func testEveryShapeIsReadAndAnOddOneNeverRefusesTheSpec() throws {
        XCTAssertEqual(try Self.specs().map(\.swiftVersions), Self.cases.map(\.versions))
        for (json, versions) in Self.cases {
            XCTAssertEqual(SpecReader.swiftVersions(inSpecJSON: json), versions, json)
        }
    }

    private func write(_ specs: [PodSpec], to store: PersistentStore) throws {
        try ObjectContext(store: store).performAndWait { ctx in
            for spec in specs {
                var object = ctx.insert(E.name)
                spec.write(to: &object)
            }
            try ctx.save()
        }
    }

    func testListingBySwiftVersionFindsTheSpecsThatDeclareIt() throws {
        let store = try makeStore()
        try write(try Self.specs(), to: store)
        let root = ObjectContext(store: store)
        try root.performAndWait { ctx in
            XCTAssertEqual(try SpecsQueries.list(in: ctx, swift: "5.0").map(\.name), ["B"])
            XCTAssertEqual(try SpecsQueries.list(in: ctx, swift: "5.9").map(\.name), ["C", "G"])
            XCTAssertEqual(try SpecsQueries.list(in: ctx, swift: "5").map(\.name), [], "a version as written, not a prefix")
            XCTAssertEqual(try SpecsQueries.list(in: ctx, namePrefix: "b", swift: "4.0").map(\.name), ["B"])
            XCTAssertEqual(try SpecsQueries.list(in: ctx).first { $0.name == "D" }?.swiftVersions, ["5.10"])
        }
    }

    /// A store written with version 1 of the pods model, upgraded: its specs' Swift versions
    /// are read from their JSON, and the rows equal those of a store written with version 2.
    func testAVersionOneStoreGetsTheSwiftVersionsOfItsSpecsWhenUpgraded() throws {
        let direct = folder.appending(path: "direct")
        let written = try PersistentStore(url: direct, model: PodSpecsSchema.makeModel())
        try write(try Self.specs(), to: written)
        try written.close()
        // The same specs in a store of version 1, as an earlier poddoc wrote them: every
        // value but the Swift versions.
        let older = folder.appending(path: "older")
        let version1 = try PodSpecsSchema.earlierVersions()[0]
        let store1 = try PersistentStore(url: older, model: version1)
        try ObjectContext(store: store1).performAndWait { ctx in
            for spec in try Self.specs() {
                var values = Values()
                spec.write(to: &values)
                let object = ctx.insert(E.name)
                for attribute in version1.entity(named: E.name)!.attributes {
                    object.setValue(values.stored[attribute.name] ?? .null, forKey: attribute.name)
                }
            }
            try ctx.save()
        }
        try store1.close()
        XCTAssertEqual(try DatabaseQueue(path: older.path).read { try Int.fetchOne($0, sql: "PRAGMA user_version") }, 1)

        let upgraded = try PersistentStore(url: older, model: PodSpecsSchema.makeModel())
        let stored = try upgraded.unsafeRead { db in
            try String?.fetchAll(db, sql: #"SELECT "swiftVersions" FROM "PodSpec" ORDER BY "id""#)
        }
        XCTAssertEqual(stored, Self.cases.map { E.storedSwiftVersions($0.versions) })
        func content(_ store: PersistentStore) throws -> Data {
            var data = Data()
            try store.streamLogicalContent { data.append(contentsOf: $0) }
            return data
        }
        let reference = try PersistentStore(url: direct, model: PodSpecsSchema.makeModel(), options: .init(readOnly: true))
        XCTAssertEqual(try content(upgraded), try content(reference), "the rows a store written with version 2 holds")
    }

    /// A spec's values by attribute name, as ``PodSpec/write(to:)`` sets them.
    private struct Values: AttributeSettable {
        var stored: [String: StoreValue] = [:]
        subscript<Value: AttributeValue>(_ attribute: Attribute<Value>) -> Value {
            get { fatalError("only written") }
            set { stored[attribute.name] = newValue.storeValue }
        }
    }
}
