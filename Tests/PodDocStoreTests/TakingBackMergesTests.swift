import Foundation
import XCTest

@testable import PodDocStore

/// A merge taken back (a revert to a save before it, an undo of it): the copy no longer holds
/// what the merge brought, so merging the same copy again brings it back; the other copy does
/// not take the taking back as a change of its own work; a copy's own edits reverted stay
/// reverted wherever they went.
final class TakingBackMergesTests: StoreTestCase {
    private let tree = OrderedTree(entity: "Item", parent: Item.parent, order: Item.order)

    private func open(_ name: String) throws -> PersistentStore {
        try PersistentStore(url: folder.appending(path: name), model: testModel)
    }

    private func save(_ store: PersistentStore, note: SaveNote? = nil, _ edit: (ObjectContext) throws -> Void) throws {
        try ObjectContext(store: store).performAndWait { ctx in
            try edit(ctx)
            if let note { try ctx.save(storeMetadata: [:], note: note) } else { try ctx.save() }
        }
    }

    private func add(_ store: PersistentStore, _ title: String, order: Int) throws {
        try save(store) { ctx in
            let item = ctx.insert("Item")
            item[Item.title] = title
            item[Item.order] = order
        }
    }

    private func rename(_ store: PersistentStore, _ title: String, to new: String) throws {
        try save(store) { ctx in
            for item in try ctx.fetch(FetchRequest("Item")) where item[Item.title] == title { item[Item.title] = new }
        }
    }

    private func titles(_ store: PersistentStore) throws -> [String] {
        try ObjectContext(store: store).performAndWait { ctx in
            try ctx.fetch(FetchRequest("Item", sortBy: [FetchSort(Item.order)])).map { $0[Item.title] }
        }
    }

    private func latestSave(_ store: PersistentStore) throws -> Int { try store.history(limit: 1).first?.save ?? 0 }

    @discardableResult
    private func merge(_ mine: PersistentStore, _ theirs: PersistentStore, prefer: MergeSide? = nil) throws -> CopyMerge {
        try mergeAndSave(mine, theirs, trees: [tree], prefer: prefer)
    }

    /// Reverts `store` to save `to`, taking back the merges since, as `poddoc revert` does.
    private func revert(_ store: PersistentStore, to save: Int) throws {
        let past = try store.pastState(after: save)
        let merges = try store.mergeSaves(after: save)
        try self.save(store, note: SaveNote(description: "revert", takesBack: merges)) { try $0.revert(to: past) }
    }

    private func twoCopies() throws -> (PersistentStore, PersistentStore) {
        let a = try open("a")
        try add(a, "Work", order: 0)
        try add(a, "Home", order: 1)
        try a.checkpoint()
        try FileManager.default.copyItem(at: folder.appending(path: "a"), to: folder.appending(path: "b"))
        return (a, try open("b"))
    }

    func testMergingAgainAfterTakingAMergeBackBringsItsChangesBack() throws {
        let (a, b) = try twoCopies()
        try add(b, "Errands", order: 2)
        try rename(b, "Home", to: "House")
        try add(a, "Desk", order: 2)
        let beforeMerge = try latestSave(a)
        XCTAssertEqual(try merge(a, b).outcome, .merged)
        XCTAssertEqual(try titles(a).sorted(), ["Desk", "Errands", "House", "Work"])
        XCTAssertEqual(try a.mergeSaves(after: beforeMerge), [beforeMerge + 1])
        try add(a, "After", order: 4)
        try revert(a, to: beforeMerge)
        XCTAssertEqual(try titles(a).sorted(), ["Desk", "Home", "Work"])

        // The same copy again: what it brought comes back, and A's own work stays.
        try add(a, "Later", order: 3)
        let again = try merge(a, b)
        XCTAssertEqual(again.outcome, .merged)
        XCTAssertTrue(again.conflicts.isEmpty, "\(again.conflicts)")
        XCTAssertEqual(try titles(a).sorted(), ["Desk", "Errands", "House", "Later", "Work"])

        // B takes A's work without losing its own.
        XCTAssertTrue(try merge(b, a).conflicts.isEmpty)
        XCTAssertEqual(try titles(b).sorted(), ["Desk", "Errands", "House", "Later", "Work"])
        XCTAssertEqual(try CopyMerge.plan(mine: a, theirs: b, trees: [tree]).outcome, .upToDate)
    }

    func testTheOtherCopyKeepsItsWorkWhenAMergeOfItIsTakenBack() throws {
        let (a, b) = try twoCopies()
        try add(b, "Errands", order: 2)
        let beforeMerge = try latestSave(a)
        try merge(a, b)
        try revert(a, to: beforeMerge)
        try add(a, "Desk", order: 2)
        // B merges A: it gets Desk, and keeps Errands (A's taking back is no edit of B's work).
        XCTAssertTrue(try merge(b, a).conflicts.isEmpty)
        XCTAssertEqual(try titles(b).sorted(), ["Desk", "Errands", "Home", "Work"])
        // And A, merging B, has Errands again.
        try merge(a, b)
        XCTAssertEqual(try titles(a).sorted(), ["Desk", "Errands", "Home", "Work"])
    }

    func testAnOwnEditRevertedStaysRevertedInTheCopiesThatTookIt() throws {
        let (a, b) = try twoCopies()
        let beforeRename = try latestSave(a)
        try rename(a, "Home", to: "House")
        try merge(b, a)
        XCTAssertEqual(try titles(b), ["Work", "House"])
        try revert(a, to: beforeRename)
        XCTAssertEqual(try titles(a), ["Work", "Home"])
        try merge(b, a)
        XCTAssertEqual(try titles(b), ["Work", "Home"], "the revert is A's change, and B takes it")
        XCTAssertEqual(try merge(a, b).outcome, .upToDate)
    }

    /// A copy that renamed an item and took the rename back meets another copy's delete of it
    /// as a conflict, not as an item it never touched: the outcome is then the same whichever
    /// copy it merges first. (Taken as no change, the delete went through from one copy, while
    /// a third that had kept the item, having seen the rename, brought it back with the old
    /// name; merged the other way round, the item stayed with this copy's name.)
    func testAChangeTakenBackStillMeetsADeleteAsAConflict() throws {
        let (a, b) = try twoCopies()
        let start = try latestSave(a)
        try rename(a, "Home", to: "House")
        try revert(a, to: start)
        XCTAssertEqual(try titles(a), ["Work", "Home"])
        try save(b) { ctx in
            for item in try ctx.fetch(FetchRequest("Item")) where item[Item.title] == "Home" { ctx.delete(item) }
        }
        let plan = try CopyMerge.plan(mine: a, theirs: b, trees: [tree])
        XCTAssertEqual(plan.conflicts.map(\.kind), [.changedHereDeletedThere])
        XCTAssertEqual(try merge(a, b, prefer: .theirs).outcome, .merged)
        XCTAssertEqual(try titles(a), ["Work"])
        XCTAssertEqual(try merge(b, a).outcome, .fastForward)
        XCTAssertEqual(try titles(b), ["Work"])
    }
}
