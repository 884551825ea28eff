import Foundation
import GRDB
import XCTest

@testable import PodDocStore

/// A save moves its updated objects' state into the change set and does not visit them
/// afterwards (``PushFlight``); each settles the next time it is used. These tests check that
/// nothing a user can see differs from settling every object at once: values, change
/// state, what the file holds, a save the parent refuses, and the rows a root save sends back.
@MainActor
final class MovedStateTests: StoreTestCase {
    private var root: ObjectContext!
    private var main: ObjectContext!

    /// `count` items saved to the file, then each given a new title in the main context.
    private func itemsEditedInMain(count: Int) async throws -> [ManagedObject] {
        root = ObjectContext(store: try PersistentStore(url: storeURL, model: testModel))
        main = ObjectContext(.main, parent: root)
        main.automaticallyMergesChangesFromParent = true
        let items = (0..<count).map { i in
            let item = main.insert("Item")
            item[Item.title] = "item \(i)"
            item[Item.order] = i
            return item
        }
        try await main.save()
        try await root.perform { try $0.save() }
        await main.perform { _ in }  // the root's did-save reaches the main context
        for (i, item) in items.enumerated() { item[Item.title] = "edited \(i)" }
        return items
    }

    /// The `_version` column of each item, by order, as the file holds it.
    private func versionsOnDisk() throws -> [Int64] {
        try otherConnection().read { db in try Int64.fetchAll(db, sql: "SELECT \"_version\" FROM \"Item\" ORDER BY \"order\"") }
    }

    func testObjectsOfAFinishedSaveAreCleanWithTheirNewValuesAndSaveAgainLater() async throws {
        let items = try await itemsEditedInMain(count: 500)
        try await main.save()

        XCTAssertFalse(main.hasChanges)
        XCTAssertTrue(main.changes.isEmpty, "the saved objects leave the tracked changes all together")
        XCTAssertNotNil(items[499].flight, "an object nobody used since the save has not been visited")
        XCTAssertEqual(items[499].flight?.updated.count, 0, "the old snapshots went when the save finished")
        XCTAssertEqual(items[499].flight?.savedRows?.count, 500, "only the rows the parent kept stay")
        XCTAssertFalse(items[499].hasChanges)
        XCTAssertNil(items[499].flight, "using it settled it")
        XCTAssertEqual(items[499][Item.title], "edited 499")
        XCTAssertEqual(items[499].changedKeys, [])
        let seventh = items[7].objectID
        let inRoot = try await root.perform { ctx in try ctx.existingObject(with: seventh)?[Item.title] }
        XCTAssertEqual(inRoot, "edited 7")

        items[3][Item.title] = "again"
        XCTAssertEqual(items[3].changedKeys, ["title"])
        XCTAssertTrue(main.hasChanges)
        try await main.save()
        try await root.perform { try $0.save() }
        let titles = try titlesOnDisk()
        XCTAssertEqual(titles.count, 500)
        XCTAssertTrue(titles.contains("again"))
        XCTAssertTrue(titles.contains("edited 499"))
        XCTAssertFalse(titles.contains("edited 3"))
    }

    func testASaveTheParentRefusesGivesTheObjectsTheirChangesBack() async throws {
        let items = try await itemsEditedInMain(count: 50)
        // The root changes item 5 itself, so the main context's edit of it conflicts.
        let id = items[5].objectID
        try await root.perform { ctx in try ctx.existingObject(with: id)![Item.title] = "root's" }
        do {
            try await main.save()
            XCTFail("the save must be refused")
        } catch let error as StoreError {
            XCTAssertEqual(error.code, .mergeConflict)
        }
        XCTAssertNil(main.saveState.moving, "the next save moves its objects again")
        XCTAssertTrue(main.hasChanges)
        XCTAssertEqual(main.updatedObjects.count, 50)
        for (i, item) in items.enumerated() {
            XCTAssertNil(item.flight)
            XCTAssertTrue(item.isUpdated)
            XCTAssertEqual(item.changedKeys, ["title"])
            XCTAssertEqual(item[Item.title], "edited \(i)")
        }

        main.mergePolicy = .inMemoryWins
        try await main.save()
        try await root.perform { try $0.save() }
        XCTAssertFalse(main.hasChanges)
        XCTAssertEqual(Set(try titlesOnDisk()), Set((0..<50).map { "edited \($0)" }))
    }

    func testRowsARootSaveWroteAsPushedAreNotMergedBackYetCarryTheirStoreVersions() async throws {
        let items = try await itemsEditedInMain(count: 20)
        try await main.save()
        try await root.perform { try $0.save() }

        // A worker changes item 0 after that, so its row comes back from the next root save
        // as somebody else's and is merged; the main context's own rows are not.
        let worker = ObjectContext(.privateQueue, parent: root)
        let id = items[0].objectID
        try await worker.perform { ctx in
            try ctx.existingObject(with: id)![Item.title] = "worker's"
            try ctx.save()
        }
        try await root.perform { try $0.save() }
        await main.perform { _ in }  // the root's did-save reaches the main context

        XCTAssertEqual(items[0][Item.title], "worker's")
        let versions = try versionsOnDisk()
        for (i, item) in items.enumerated() {
            XCTAssertFalse(item.hasChanges)
            XCTAssertEqual(item.snapshotVersion, versions[i], "item \(i) knows the version its row has on disk")
        }
        // A root that no longer holds them takes those versions for its check on disk.
        try await root.perform { $0.reset() }
        for item in items { item[Item.done] = true }
        try await main.save()
        try await root.perform { try $0.save() }
        XCTAssertEqual(try versionsOnDisk(), versions.map { $0 + 1 })
    }
}
