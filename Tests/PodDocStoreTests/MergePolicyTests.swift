import Foundation
import GRDB
import XCTest

@testable import PodDocStore

final class MergePolicyTests: StoreTestCase {
    struct Outcome: Equatable {
        var title: String
        var note: String?
        var order: Int
    }

    /// Main and a worker both read an item; the worker changes title and order and saves into
    /// the root; then the main context changes title and note and saves under `policy`.
    private func conflictBetweenContexts(_ policy: MergePolicy) throws -> Result<Outcome, StoreError> {
        let store = try makeStore(inMemory: true)
        let root = ObjectContext(store: store)
        let id = try root.performAndWait { ctx -> ObjectID in
            let item = ctx.insert("Item")
            item[Item.title] = "original"
            try ctx.save()
            return item.objectID
        }
        let main = ObjectContext(.privateQueue, parent: root, name: "main")
        let worker = ObjectContext(.privateQueue, parent: root, name: "worker")
        try main.performAndWait { ctx in _ = ctx.object(with: id)[Item.title] }
        try worker.performAndWait { ctx in
            let item = ctx.object(with: id)
            item[Item.title] = "worker"
            item[Item.order] = 5
            try ctx.save()
        }
        do {
            try main.performAndWait { ctx in
                ctx.mergePolicy = policy
                let item = ctx.object(with: id)
                item[Item.title] = "main"
                item[Item.note] = "note"
                try ctx.save()
            }
        } catch let error as StoreError {
            return .failure(error)
        }
        return .success(
            root.performAndWait { ctx in
                let item = ctx.object(with: id)
                return Outcome(title: item[Item.title], note: item[Item.note], order: item[Item.order])
            })
    }

    func testEachPolicyBetweenTwoContexts() throws {
        guard case .failure(let error) = try conflictBetweenContexts(.error) else { return XCTFail("expected a conflict") }
        XCTAssertEqual(error.code, .mergeConflict)
        XCTAssertEqual(error.conflicts.count, 1)
        XCTAssertEqual(error.conflicts.first?.kind, .changedElsewhere)
        XCTAssertEqual(Set(error.conflicts.first?.properties ?? []), ["title", "order"])
        XCTAssertTrue(
            error.message.contains("Item/p1: title, order changed in root")
                || error.message.contains("Item/p1: order, title changed in root"), error.message)

        XCTAssertEqual(try conflictBetweenContexts(.storeWins).get(), Outcome(title: "worker", note: "note", order: 5))
        XCTAssertEqual(try conflictBetweenContexts(.inMemoryWins).get(), Outcome(title: "main", note: "note", order: 5))
        XCTAssertEqual(try conflictBetweenContexts(.overwrite).get(), Outcome(title: "main", note: "note", order: 0))
        XCTAssertEqual(try conflictBetweenContexts(.rollback).get(), Outcome(title: "worker", note: nil, order: 5))
    }

    /// The root reads an item; another process changes it on disk; the root then changes it
    /// and saves under `policy`.
    private func conflictWithAnotherProcess(_ policy: MergePolicy, otherProcessDeletes: Bool = false) throws -> Result<Outcome?, StoreError>
    {
        try? FileManager.default.removeItem(at: folder)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let store = try makeStore()
        let root = ObjectContext(store: store)
        let id = try root.performAndWait { ctx -> ObjectID in
            let item = ctx.insert("Item")
            item[Item.title] = "original"
            try ctx.save()
            _ = item[Item.title]
            return item.objectID
        }
        if otherProcessDeletes {
            try writeFromAnotherConnection(#"DELETE FROM "Item" WHERE id = 1"#)
        } else {
            try writeFromAnotherConnection(
                #"UPDATE "Item" SET title = ?, "order" = 5, _version = _version + 1 WHERE id = 1"#, arguments: ["other process"])
        }
        do {
            try root.performAndWait { ctx in
                ctx.mergePolicy = policy
                let item = ctx.object(with: id)
                item[Item.title] = "mine"
                item[Item.note] = "note"
                try ctx.save()
            }
        } catch let error as StoreError {
            return .failure(error)
        }
        let row = try otherConnection().read { db in
            try Row.fetchOne(db, sql: #"SELECT title, note, "order" FROM "Item" WHERE id = 1"#)
        }
        return .success(row.map { Outcome(title: $0["title"], note: $0["note"], order: $0["order"]) })
    }

    func testEachPolicyAgainstAnotherProcess() throws {
        guard case .failure(let error) = try conflictWithAnotherProcess(.error) else { return XCTFail("expected a conflict") }
        XCTAssertEqual(error.conflicts.map(\.foundIn), ["store"])
        XCTAssertEqual(Set(error.conflicts.first?.properties ?? []), ["title", "order"])
        XCTAssertEqual(try titlesOnDisk(), ["other process"], "nothing was written")

        XCTAssertEqual(try conflictWithAnotherProcess(.storeWins).get(), Outcome(title: "other process", note: "note", order: 5))
        XCTAssertEqual(try conflictWithAnotherProcess(.inMemoryWins).get(), Outcome(title: "mine", note: "note", order: 5))
        XCTAssertEqual(try conflictWithAnotherProcess(.overwrite).get(), Outcome(title: "mine", note: "note", order: 0))
        XCTAssertEqual(try conflictWithAnotherProcess(.rollback).get(), Outcome(title: "other process", note: nil, order: 5))
    }

    func testUpdateOfARowDeletedByAnotherProcess() throws {
        guard case .failure(let error) = try conflictWithAnotherProcess(.error, otherProcessDeletes: true) else {
            return XCTFail("expected a conflict")
        }
        XCTAssertEqual(error.conflicts.first?.kind, .deletedElsewhere)
        XCTAssertEqual(try conflictWithAnotherProcess(.storeWins, otherProcessDeletes: true).get(), nil)
        XCTAssertEqual(
            try conflictWithAnotherProcess(.overwrite, otherProcessDeletes: true).get(), Outcome(title: "mine", note: "note", order: 0))
    }

    func testTwoSavesOfTheSameValuesDoNotConflict() throws {
        let root = ObjectContext(store: try makeStore())
        let main = ObjectContext(.privateQueue, parent: root, name: "main")
        let id = try root.performAndWait { ctx -> ObjectID in
            let item = ctx.insert("Item")
            item[Item.title] = "a"
            try ctx.save()
            return item.objectID
        }
        for i in 0..<3 {
            try main.performAndWait { ctx in
                ctx.object(with: id)[Item.title] = "v\(i)"
                try ctx.save()
            }
            try root.performAndWait { try $0.save() }
        }
        XCTAssertEqual(try titlesOnDisk(), ["v2"])
    }

    func testAutomaticMergeFromParentUpdatesObjects() async throws {
        let root = ObjectContext(store: try makeStore())
        let main = ObjectContext(.privateQueue, parent: root, name: "main")
        let worker = ObjectContext(.privateQueue, parent: root, name: "worker")
        let id = try await root.perform { ctx -> ObjectID in
            let item = ctx.insert("Item")
            item[Item.title] = "a"
            try ctx.save()
            return item.objectID
        }
        let before = await main.perform { ctx -> String in
            ctx.automaticallyMergesChangesFromParent = true
            return ctx.object(with: id)[Item.title]
        }
        XCTAssertEqual(before, "a")
        try await worker.perform { ctx in
            ctx.object(with: id)[Item.title] = "from worker"
            ctx.insert("Item")[Item.title] = "new"
            try ctx.save()
        }
        await drain(main)
        let after = try await main.perform { ctx in
            (ctx.object(with: id)[Item.title], try ctx.count(for: FetchRequest("Item")))
        }
        XCTAssertEqual(after.0, "from worker")
        XCTAssertEqual(after.1, 2)
    }
}
