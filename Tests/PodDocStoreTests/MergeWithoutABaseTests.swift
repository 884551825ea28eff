import Foundation
import GRDB
import XCTest

@testable import PodDocStore

/// Copies whose newest shared save is older than the history they keep: the merge says so and
/// offers `--two-way` (every difference a conflict); after one two-way merge, the copies merge
/// exactly again.
final class MergeWithoutABaseTests: StoreTestCase {
    private let tree = OrderedTree(entity: "Item", parent: Item.parent, order: Item.order)

    private func open(_ name: String) throws -> PersistentStore {
        var options = PersistentStore.Options()
        options.historyRetention = HistoryRetention(maximumSaves: 3)
        return try PersistentStore(url: folder.appending(path: name), model: testModel, options: options)
    }

    /// One save: `edit` on a root context of `store`.
    private func save(_ store: PersistentStore, _ edit: (ObjectContext) throws -> Void) throws {
        try ObjectContext(store: store).performAndWait { ctx in
            try edit(ctx)
            try ctx.save()
        }
    }

    private func add(_ store: PersistentStore, _ title: String, order: Int) throws {
        try save(store) { ctx in
            let item = ctx.insert("Item")
            item[Item.title] = title
            item[Item.order] = order
        }
    }

    private func titles(_ store: PersistentStore) throws -> [String] {
        try ObjectContext(store: store).performAndWait { ctx in
            try ctx.fetch(FetchRequest("Item", sortBy: [FetchSort(Item.order)])).map { $0[Item.title] }
        }
    }

    private func rename(_ store: PersistentStore, _ title: String, to new: String) throws {
        try save(store) { ctx in
            for item in try ctx.fetch(FetchRequest("Item")) where item[Item.title] == title { item[Item.title] = new }
        }
    }

    private func merge(
        _ mine: PersistentStore, _ theirs: PersistentStore, prefer: MergeSide? = nil, twoWay: Bool = false
    ) throws -> CopyMerge {
        try mergeAndSave(mine, theirs, trees: [tree], prefer: prefer, twoWay: twoWay)
    }

    private func logicalContent(_ store: PersistentStore) throws -> [UInt8] {
        var bytes: [UInt8] = []
        try store.streamLogicalContent { bytes += $0 }
        return bytes
    }

    func testCopiesPastTheirSharedHistoryMergeTwoWaysThenExactly() throws {
        let a = try open("a")
        try add(a, "Work", order: 0)
        try add(a, "Home", order: 1)
        try a.checkpoint()
        try FileManager.default.copyItem(at: folder.appending(path: "a"), to: folder.appending(path: "b"))
        let b = try open("b")
        // Each keeps working past the three saves its history keeps.
        for round in 1...4 { try rename(a, round == 1 ? "Work" : "Office \(round - 1)", to: "Office \(round)") }
        for round in 1...4 { try add(b, "Errand \(round)", order: 1 + round) }

        XCTAssertThrowsError(try CopyMerge.plan(mine: a, theirs: b, trees: [tree])) { error in
            let error = error as! StoreError
            XCTAssertEqual(error.code, .notInHistory)
            XCTAssertTrue(error.message.contains("--two-way"), error.message)
        }
        // Two ways: every difference is a conflict, and nothing changes without a preference.
        let listed = try CopyMerge.plan(mine: a, theirs: b, trees: [tree], twoWay: true)
        XCTAssertFalse(listed.canApply)
        XCTAssertEqual(listed.conflicts.count, 5, "the renamed item and the four errands: \(listed.conflicts)")
        let before = try logicalContent(a)
        XCTAssertEqual(try merge(a, b, twoWay: true).outcome, .merged)
        XCTAssertEqual(try logicalContent(a), before)

        XCTAssertEqual(try merge(a, b, prefer: .theirs, twoWay: true).outcome, .merged)
        XCTAssertEqual(try titles(a), ["Work", "Home", "Errand 1", "Errand 2", "Errand 3", "Errand 4"])
        // B takes A's state whole; then each holds the other.
        XCTAssertEqual(try merge(b, a).outcome, .fastForward)
        XCTAssertEqual(try logicalContent(b), try logicalContent(a))
        XCTAssertEqual(try merge(a, b).outcome, .upToDate)

        // From here the copies share a save again: merges are exact.
        try rename(a, "Home", to: "House")
        try add(b, "Garden", order: 6)
        XCTAssertTrue(try merge(a, b).conflicts.isEmpty)
        XCTAssertTrue(try merge(b, a).conflicts.isEmpty)
        XCTAssertEqual(try titles(a), ["Work", "House", "Errand 1", "Errand 2", "Errand 3", "Errand 4", "Garden"])
        XCTAssertEqual(try logicalContent(b), try logicalContent(a))
        XCTAssertEqual(try a.integrityProblems(), [])
    }

    func testABaseCopyTellsWhatEachChangedPastTheSharedHistory() throws {
        let a = try open("a")
        try add(a, "Work", order: 0)
        try add(a, "Home", order: 1)
        try a.checkpoint()
        for name in ["b", "base"] { try FileManager.default.copyItem(at: folder.appending(path: "a"), to: folder.appending(path: name)) }
        let b = try open("b")
        let base = try open("base")
        for round in 1...4 { try rename(a, round == 1 ? "Work" : "Office \(round - 1)", to: "Office \(round)") }
        for round in 1...4 { try add(b, "Errand \(round)", order: 1 + round) }
        try rename(b, "Home", to: "House")
        XCTAssertThrowsError(try CopyMerge.plan(mine: a, theirs: b, trees: [tree]))

        let plan = try CopyMerge.plan(mine: a, theirs: b, trees: [tree], base: base)
        XCTAssertTrue(plan.conflicts.isEmpty, "\(plan.conflicts)")
        XCTAssertEqual(try mergeAndSave(a, b, trees: [tree], base: base).outcome, .merged)
        XCTAssertEqual(try titles(a), ["Office 4", "House", "Errand 1", "Errand 2", "Errand 3", "Errand 4"])
        XCTAssertEqual(try a.integrityProblems(), [])
        // Both changing one title from the base is a true conflict, and the only one.
        for (store, title) in [(a, "Cottage"), (b, "Villa")] { try rename(store, "House", to: title) }
        let clash = try CopyMerge.plan(mine: b, theirs: a, trees: [tree], base: base)
        XCTAssertEqual(clash.conflicts.map(\.properties), [["title"]], "\(clash.conflicts)")
    }

    func testADamagedSaveGraphIsReportedAndStopsMergesOnly() throws {
        let a = try open("a")
        try add(a, "Work", order: 0)
        try a.checkpoint()
        try FileManager.default.copyItem(at: folder.appending(path: "a"), to: folder.appending(path: "b"))
        let b = try open("b")
        try add(b, "Home", order: 1)
        XCTAssertEqual(a.mergeRecordProblems(), [])
        try b.close()
        let other = try DatabaseQueue(path: folder.appending(path: "b").path)
        try other.write { try $0.execute(sql: "UPDATE _poddoc_graph SET parents = '{not json' WHERE save IS NOT NULL") }
        try other.close()
        let damaged = try open("b")
        XCTAssertEqual(damaged.mergeRecordProblems().count, 1)
        XCTAssertTrue(damaged.mergeRecordProblems()[0].contains("save graph"), "\(damaged.mergeRecordProblems())")
        XCTAssertThrowsError(try CopyMerge.plan(mine: a, theirs: damaged, trees: [tree])) { error in
            XCTAssertEqual((error as? StoreError)?.code, .corrupt)
        }
        // The objects are fine, and the copy still saves.
        try add(damaged, "Garden", order: 2)
        XCTAssertEqual(try titles(damaged), ["Work", "Home", "Garden"])
    }
}
