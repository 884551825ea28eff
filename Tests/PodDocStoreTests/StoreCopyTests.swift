import Foundation
import GRDB
import PodDocStore
import XCTest

/// ``PersistentStore/continueOnCopy(at:)``: a store whose file was replaced or changed behind
/// it moves, page for page from its own connection, to a private copy and goes on there,
/// with its contexts and object IDs intact, never writing the old file again.
@MainActor
final class StoreCopyTests: StoreTestCase {
    private func titles(at url: URL) throws -> [String] {
        var config = Configuration()
        config.readonly = true
        return try DatabaseQueue(path: url.path, configuration: config).read {
            try String.fetchAll($0, sql: #"SELECT title FROM "Item" ORDER BY title"#)
        }
    }

    func testTheStoreGoesOnInTheCopyWithItsContextsAndLeavesTheOldFileAlone() async throws {
        let store = try makeStore()
        let root = ObjectContext(store: store)
        let main = ObjectContext(.main, parent: root)
        let kept = main.insert("Item")
        kept[Item.title] = "saved before"
        try await main.save()
        try await root.perform { try $0.save() }
        try store.checkpoint()
        let inLog = main.insert("Item")
        inLog[Item.title] = "in the log"
        try await main.save()
        try await root.perform { try $0.save() }  // in the -wal, not checkpointed

        // Someone replaces the file (a sync tool, `rm; cp`): the connection holds the old one.
        let replaced = folder.appending(path: "replaced")
        try FileManager.default.moveItem(at: storeURL, to: replaced)
        try Data("theirs".utf8).write(to: storeURL)

        let copy = folder.appending(path: "copy")
        try await root.perform { _ in try store.continueOnCopy(at: copy) }
        XCTAssertEqual(store.url, copy)
        XCTAssertEqual(try titles(at: copy), ["in the log", "saved before"], "commits still in the -wal come along")

        kept[Item.title] = "edited after"
        let added = main.insert("Item")
        added[Item.title] = "added after"
        try await main.save()
        try await root.perform { try $0.save() }
        XCTAssertEqual(try titles(at: copy), ["added after", "edited after", "in the log"])
        let keptID = kept.objectID
        let refetched = try await root.perform { ctx in try ctx.existingObject(with: keptID)?[Item.title] }
        XCTAssertEqual(refetched, "edited after", "object IDs stay valid")
        XCTAssertEqual(try Data(contentsOf: storeURL), Data("theirs".utf8), "the file now at the old path is never written")
        XCTAssertTrue(
            Set(try titles(at: replaced)).isSubset(of: ["saved before", "in the log"]), "nor is the old file, with anything made after")
        try store.close()
    }

    func testACopyOverSomethingThatExistsIsRefusedAndTheStoreStaysWhereItWas() async throws {
        let store = try makeStore()
        let root = ObjectContext(store: store)
        try await root.perform { ctx in
            ctx.insert("Item")[Item.title] = "one"
            try ctx.save()
        }
        let taken = folder.appending(path: "taken")
        try Data("mine".utf8).write(to: taken)
        do {
            try await root.perform { _ in try store.continueOnCopy(at: taken) }
            XCTFail("an existing file is never overwritten")
        } catch {}
        XCTAssertEqual(try Data(contentsOf: taken), Data("mine".utf8))
        XCTAssertEqual(store.url, storeURL)
        try store.close()
        XCTAssertEqual(try titlesOnDisk(), ["one"])
    }
}
