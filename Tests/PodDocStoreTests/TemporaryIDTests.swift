import Foundation
import XCTest

@testable import PodDocStore

/// Temporary IDs resolve through a box they share with their copies, filled in by the root
/// save: the store keeps no map of them, and nothing of an ID outlives its last copy.
final class TemporaryIDTests: StoreTestCase {
    func testATemporaryIDResolvesWhileHeldAndNothingOfItOutlivesItsCopies() throws {
        let store = try makeStore()
        let root = ObjectContext(store: store)
        let worker = ObjectContext(.privateQueue, parent: root)
        weak var box: PermanentKey?
        do {
            let ids = try worker.performAndWait { ctx -> [ObjectID] in
                let items = (0..<3).map { i -> ManagedObject in
                    let item = ctx.insert("Item")
                    item[Item.title] = "item \(i)"
                    return item
                }
                try ctx.save()
                return items.map(\.objectID)
            }
            XCTAssertTrue(ids.allSatisfy(\.isTemporary))
            box = ids[0].permanentKey
            try root.performAndWait { try $0.save() }
            XCTAssertEqual(ids.map { root.resolve($0).rowID }, [1, 2, 3])
            XCTAssertEqual(ids.map { store.resolve($0).rowID }, [1, 2, 3])
            try worker.performAndWait { ctx in
                XCTAssertEqual(ctx.object(with: ids[1])[Item.title], "item 1")
                XCTAssertFalse(ctx.object(with: ids[1]).objectID.isTemporary, "the context renamed its object")
            }
        }
        worker.performAndWait { _ in }
        root.performAndWait { _ in }
        // Saves free what they leave behind on a background queue (`releaseInBackground`).
        BackgroundRelease.drain()
        XCTAssertNil(box, "once the contexts renamed their objects and the caller dropped its copies, nothing keeps the ID")
    }

    /// Until a root save's notification reaches a context, its saved objects still name their
    /// references by temporary IDs. An object edited in that window must be filed under its
    /// parent's permanent ID, or a fetch by parent misses it.
    func testAnObjectEditedBeforeTheRootSaveNotificationArrivesIsStillFoundByItsParent() throws {
        let root = ObjectContext(store: try makeStore())
        let worker = ObjectContext(.privateQueue, parent: root)
        try worker.performAndWait { ctx in
            let parent = ctx.insert("Item")
            let child = ctx.insert("Item")
            parent[Item.title] = "parent"
            child[Item.title] = "child"
            child[Item.parent] = parent
            try ctx.save()
            // The notification of this save reaches the worker after this block.
            try root.performAndWait { try $0.save() }
            XCTAssertEqual(try ctx.count(for: FetchRequest("Item")), 2)
            XCTAssertFalse(parent.objectID.isTemporary, "the worker adopted the permanent IDs at its first use")
            child[Item.title] = "renamed before the notification"
            let found = try ctx.fetch(FetchRequest("Item", where: Item.parent == parent))
            XCTAssertEqual(found.map { $0[Item.title] }, ["renamed before the notification"])
        }
    }

    func testEqualityAndHashingIgnoreTheBox() {
        let temporary = ObjectID.makeTemporary(entity: "Item")
        let parsed = ObjectID.parse(uri: temporary.uriRepresentation(storeIdentifier: "s"))?.id
        XCTAssertEqual(parsed, temporary)
        XCTAssertEqual(Set([temporary, parsed!]).count, 1)
        XCTAssertNotEqual(temporary, ObjectID.permanent(entity: "Item", rowID: 1))
    }
}

/// A child context reading from its parent while the root saves: the parent answers with
/// the permanent IDs the save just gave, while the child still holds the objects under their
/// temporary IDs. The child must still see each object once, with its own unsaved values.
final class ReadingDuringARootSaveTests: StoreTestCase {
    /// A worker with an item pushed to the root under a temporary ID and edited again
    /// since; the root's queue is held until `release` is signalled, then it saves.
    private func stackWithARootSaveWaiting() throws -> (worker: ObjectContext, id: ObjectID, release: DispatchSemaphore) {
        let root = ObjectContext(store: try makeStore())
        let worker = ObjectContext(.privateQueue, parent: root)
        let id = try worker.performAndWait { ctx -> ObjectID in
            let item = ctx.insert("Item")
            item[Item.title] = "pushed"
            try ctx.save()
            item[Item.title] = "edited since"
            return item.objectID
        }
        XCTAssertTrue(id.isTemporary)
        let started = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        Task.detached {
            try await root.perform { ctx in
                started.signal()
                release.wait()
                try ctx.save()
            }
        }
        started.wait()
        // The child's read below reaches the root's queue while the save is held; the save
        // then runs first, and the read sees its permanent IDs.
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(300)) { release.signal() }
        return (worker, id, release)
    }

    func testAFetchDuringTheRootSaveSeesEachObjectOnce() throws {
        let (worker, _, _) = try stackWithARootSaveWaiting()
        let titles = try worker.performAndWait { ctx in try ctx.fetch(FetchRequest("Item")).map { $0[Item.title] } }
        XCTAssertEqual(titles, ["edited since"])
        XCTAssertEqual(try worker.performAndWait { try $0.count(for: FetchRequest("Item")) }, 1)
    }

    func testALookUpDuringTheRootSaveFindsTheEditedObject() throws {
        let (worker, id, _) = try stackWithARootSaveWaiting()
        try worker.performAndWait { ctx in
            let other = ctx.insert("Item")  // an unsaved change of the entity, so reads overlay
            other[Item.title] = "other"
            let sorted = try ctx.fetch(FetchRequest("Item", sortBy: [FetchSort(Item.title)])).map { $0[Item.title] }
            XCTAssertEqual(sorted, ["edited since", "other"])
            XCTAssertEqual(try ctx.existingObject(with: id)?[Item.title], "edited since")
        }
    }
}
