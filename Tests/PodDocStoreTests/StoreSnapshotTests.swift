import Foundation
import GRDB
import PodDocStore
import XCTest

/// The store's snapshot reads (exports and catalogs use them instead of SQL): one consistent
/// state, rows in a request's order, the attributes asked for, rows by ID.
final class StoreSnapshotTests: StoreTestCase {
    private func insertPods(_ names: [String], into root: ObjectContext) throws {
        try root.performAndWait { ctx in
            for name in names {
                let pod = ctx.insert("Pod")
                pod[Pod.key] = "\(name)/1.0"
                pod[Pod.name] = name
                pod[Pod.version] = "1.0"
                pod[Pod.summary] = "about \(name)"
            }
            try ctx.save()
        }
    }

    func testRowsComeInTheRequestsOrderWithTheAttributesAskedFor() throws {
        let store = try makeStore()
        try insertPods(["beta", "Alpha", "gamma", "alpha"], into: ObjectContext(store: store))
        let request = FetchRequest(
            "Pod", where: Pod.name != "gamma", sortBy: [FetchSort(Pod.name, collation: .folded), FetchSort(Pod.name)])
        let (count, names, summaries) = try store.readSnapshot { snapshot in
            let cursor = try snapshot.rows(request, reading: [Pod.name.name])
            var names: [String] = []
            var summaries: [String?] = []
            while let row = try cursor.next() {
                names.append(row[Pod.name])
                summaries.append(row[Pod.summary])
            }
            XCTAssertNil(try cursor.next(), "a finished cursor stays finished")
            return (try snapshot.count(request), names, summaries)
        }
        XCTAssertEqual(names, ["Alpha", "alpha", "beta"])
        XCTAssertEqual(summaries, [nil, nil, nil], "attributes not asked for read as NULL")
        XCTAssertEqual(count, 3)
        var limited = request
        limited.limit = 2
        limited.offset = 2
        XCTAssertEqual(try store.readSnapshot { try $0.count(limited) }, 1)
    }

    func testRowsByIDKeepTheGivenOrderAndLeaveOutMissingObjects() throws {
        let store = try makeStore()
        try insertPods(["a", "b", "c"], into: ObjectContext(store: store))
        let ids = try store.readSnapshot { try $0.objectIDs(FetchRequest("Pod", sortBy: [FetchSort(Pod.name)])) }
        XCTAssertEqual(ids.count, 3)
        let missing = ObjectID.permanent(entity: "Pod", rowID: 999)
        let names = try store.readSnapshot { try $0.rows(of: [ids[2], missing, ids[0]]).map { $0[Pod.name] } }
        XCTAssertEqual(names, ["c", "a"])
        XCTAssertEqual(try store.readSnapshot { try $0.rows(of: []) }.count, 0)
    }

    func testAnObjectDiffNamesWhatWasAddedRemovedAndChangedByProperty() throws {
        let store = try makeStore()
        let root = ObjectContext(store: store)
        try insertPods(["a", "b", "c"], into: root)
        let earlierURL = folder.appending(path: "earlier")
        try store.writeSnapshot(to: earlierURL)
        let earlier = try PersistentStore(url: earlierURL, model: testModel)
        let ids = try store.readSnapshot { try $0.objectIDs(FetchRequest("Pod", sortBy: [FetchSort(Pod.name)])) }
        try root.performAndWait { ctx in
            let a = try XCTUnwrap(try ctx.existingObject(with: ids[0]))
            a[Pod.summary] = "changed"
            a[Pod.score] = 2
            try ctx.delete(try XCTUnwrap(try ctx.existingObject(with: ids[1])))
            try ctx.save()
        }
        try insertPods(["d"], into: root)
        let diff = try ObjectDiff(from: earlier, to: store)
        let pods = diff.changes.filter { $0.entity == "Pod" }
        XCTAssertEqual(pods.map(\.kind), [.changed, .removed, .added])
        XCTAssertEqual(pods.map(\.id), [ids[0].rowID, ids[1].rowID, ids[2].rowID.map { $0 + 1 }])
        XCTAssertEqual(pods[0].properties, ["summary", "score"])
        XCTAssertEqual(try ObjectDiff(from: store, to: store).changes, [], "a store does not differ from itself")
        XCTAssertEqual(try ObjectDiff(from: store, to: earlier).changes.map(\.kind), [.changed, .added, .removed])
        let other = try PersistentStore(url: nil, model: try ObjectModel(version: 9, entities: [Item.entity]))
        XCTAssertThrowsError(try ObjectDiff(from: store, to: other)) { error in
            XCTAssertEqual((error as? StoreError)?.code, .schemaMismatch)
        }
    }

    /// A save made while a snapshot is being read is not seen by it: the walk is of one state.
    func testASnapshotSeesOneStateWhileAnotherConnectionWrites() throws {
        let store = try makeStore()
        try insertPods((0..<50).map { "pod\($0)" }, into: ObjectContext(store: store))
        let other = try DatabaseQueue(path: storeURL.path)
        let seen = try store.readSnapshot { snapshot in
            let cursor = try snapshot.rows(FetchRequest("Pod"))
            var seen = 0
            while try cursor.next() != nil {
                if seen == 10 { try other.write { try $0.execute(sql: #"DELETE FROM "Pod""#) } }
                seen += 1
            }
            XCTAssertEqual(try snapshot.count(FetchRequest("Pod")), 50, "a later read of the snapshot sees the same state")
            return seen
        }
        XCTAssertEqual(seen, 50)
        XCTAssertEqual(try store.readSnapshot { try $0.count(FetchRequest("Pod")) }, 0)
    }

    func testAnErrorOfTheBodyComesOutUnchanged() throws {
        struct Stop: Error {}
        let store = try makeStore()
        XCTAssertThrowsError(try store.readSnapshot { _ in throw Stop() }) { XCTAssertTrue($0 is Stop, "\($0)") }
    }

    func testIntegrityProblemsOfASoundStoreAreNone() throws {
        let store = try makeStore()
        try insertPods(["a"], into: ObjectContext(store: store))
        XCTAssertEqual(try store.integrityProblems(), [])
    }
}
