import Foundation
import PodDocStore
import XCTest

/// Every object of a store as JSON and back (`export --format objects`, `new --from`): each
/// type exactly, relationships by id, and hostile files refused with where they went wrong.
final class ObjectsJSONTests: StoreTestCase {
    private func json(of store: PersistentStore, kind: String = "org.example.test") throws -> String {
        var bytes: [UInt8] = []
        try ObjectsJSON.write(store, kind: kind) { bytes += $0 }
        return String(decoding: bytes, as: UTF8.self)
    }

    func testEveryTypeAndRelationshipRoundTrips() throws {
        let store = try makeStore()
        try ObjectContext(store: store).performAndWait { ctx in
            let folder = ctx.insert("Item")
            folder[Item.title] = "Folder \"quoted\"\n\u{1F600}"
            folder[Item.done] = true
            folder[Item.created] = Date(timeIntervalSince1970: 1_700_000_000.125)
            let child = ctx.insert("Item")
            child[Item.title] = "Child"
            child[Item.parent] = folder
            child[Item.order] = -5
            let pod = ctx.insert("Pod")
            pod[Pod.key] = "A/1"
            pod[Pod.name] = "A"
            pod[Pod.version] = "1"
            pod[Pod.score] = .infinity
            pod[Pod.payload] = Data([0, 255, 10])
            pod[Pod.json] = JSONText(#"{"b": [1, 2]}"#)
            let nan = ctx.insert("Pod")
            nan[Pod.key] = "B/1"
            nan[Pod.name] = "B"
            nan[Pod.version] = "1"
            nan[Pod.score] = -.infinity
            try ctx.save()
        }
        let text = try json(of: store)
        XCTAssertTrue(text.contains(#""score": "Infinity""#), text)
        XCTAssertTrue(text.contains(#""payload": "AP8K""#), text)
        XCTAssertTrue(text.contains(#""created": 1700000000.125"#), text)
        let contents = try ObjectsJSON.read(Data(text.utf8))
        XCTAssertEqual(contents.kind, "org.example.test")
        XCTAssertEqual(contents.model.versionHash, testModel.versionHash)
        XCTAssertEqual(contents.counts.objects["Item"], 2)
        XCTAssertEqual(contents.counts.objects["Pod"], 2)
        let rebuilt = try PersistentStore(url: folder.appending(path: "rebuilt"), model: contents.model)
        try ObjectContext(store: rebuilt).performAndWait { ctx in
            try contents.insert(into: ctx)
            try ctx.save()
        }
        XCTAssertEqual(try json(of: rebuilt), text, "the same objects, values and links")
        let wrongModel = try PersistentStore(url: nil, model: try ObjectModel(version: 7, entities: [Item.entity]))
        XCTAssertThrowsError(try ObjectContext(store: wrongModel).performAndWait { try contents.insert(into: $0) })
    }

    func testHostileFilesAreRefusedSayingWhere() throws {
        let store = try makeStore()
        try ObjectContext(store: store).performAndWait { ctx in
            ctx.insert("Item")[Item.title] = "one"
            try ctx.save()
        }
        let good = try json(of: store)
        XCTAssertNoThrow(try ObjectsJSON.read(Data(good.utf8)))
        func refused(_ text: String, _ expected: String, file: StaticString = #filePath, line: UInt = #line) {
            XCTAssertThrowsError(try ObjectsJSON.read(Data(text.utf8)), file: file, line: line) { error in
                XCTAssertEqual((error as? StoreError)?.code, .validation, file: file, line: line)
                XCTAssertTrue("\(error)".contains(expected), "\(error)", file: file, line: line)
            }
        }
        let model = try XCTUnwrap(good.range(of: #""model": "#)).upperBound
        let modelEnd = try XCTUnwrap(good.range(of: ",\n \"objects\"")).lowerBound
        let modelText = String(good[model..<modelEnd])
        func file(_ objects: String, kind: String = #""k""#, version: String = "1", model: String? = nil) -> String {
            #"{"format": "poddoc-objects", "version": \#(version), "kind": \#(kind), "model": \#(model ?? modelText), "objects": \#(objects)}"#
        }
        refused(String(good.prefix(good.count / 2)), "not valid JSON")
        refused("[]", "no JSON object")
        refused(file("{}", version: "2"), "of version 2")
        refused(file("{}", version: "\"1\""), "'version'")
        refused(file("{}", kind: "7"), "'kind' is a number")
        refused(file("{}", model: #"{"entities": 3}"#), "not the record of a model")
        refused(#"{"format": "poddoc-objects", "version": 1, "kind": "k", "objects": {}, "model": \#(modelText)}"#, "before 'model'")
        refused(file(#"{"Cake": []}"#), "'Cake', no entity")
        refused(file(#"{"Item": [{"id": 1}, {"id": 1}]}"#), "id 1")
        refused(file(#"{"Item": [{"id": 0}]}"#), "positive whole number")
        refused(file(#"{"Item": [{"title": "x"}]}"#), "no 'id'")
        refused(file(#"{"Item": [{"id": 1, "title": 5}]}"#), "'title' is a number")
        refused(file(#"{"Item": [{"id": 1, "title": null}]}"#), "cannot be")
        refused(file(#"{"Item": [{"id": 1, "order": 1.5}]}"#), "whole number")
        refused(file(#"{"Item": [{"id": 1, "order": 99999999999999999999}]}"#), "whole number")
        refused(file(#"{"Item": [{"id": 1, "done": 1}]}"#), "'done' is a number")
        refused(file(#"{"Item": [{"id": 1, "parent": 9}]}"#), "names object 9")
        refused(file(#"{"Item": [{"id": 1, "children": [2]}]}"#), "no attribute or to-one relationship")
        refused(file(#"{"Item": [{"id": 1, "id": 2}]}"#), "twice")
        refused(file(#"{"Pod": [{"id": 1, "key": "a", "name": "a", "version": "1", "payload": "!!"}]}"#), "base64")
        refused(file(#"{"Pod": [{"id": 1, "key": "a", "name": "a", "version": "1", "score": "NaN", "extra": 1}]}"#), "'extra'")
        refused(file(#"{"Item": []} "#) + "x", "text follows")
        refused(String(repeating: "[", count: 10_000), "no JSON object")
        refused(file(String(repeating: "[", count: 10_000)), "not valid JSON")
    }
}
