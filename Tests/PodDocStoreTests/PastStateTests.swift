import Foundation
import GRDB
import PodDocRandom
import XCTest

@testable import PodDocStore

/// Going back to earlier saves: ``PersistentStore/pastState(after:)`` read from the history
/// and ``ObjectContext/revert(to:)`` applied, checked against the store's logical content
/// recorded after every save.
final class PastStateTests: StoreTestCase {
    private func logicalContent(_ store: PersistentStore) throws -> [UInt8] {
        var bytes: [UInt8] = []
        try store.streamLogicalContent { bytes += $0 }
        return bytes
    }

    /// One random save: inserts (some under others), renames, moves, notes, deletes (cascading
    /// to children), a saved delete undone, pods with unique keys, reals and blobs.
    private func randomSave(_ ctx: ObjectContext, _ random: inout SeededRandom, keys: inout Int) throws {
        let items = try ctx.fetch(FetchRequest("Item"))
        let pods = try ctx.fetch(FetchRequest("Pod"))
        for _ in 0..<(1 + random.below(4)) {
            switch random.below(8) {
            case 0, 1:
                let item = ctx.insert("Item")
                item[Item.title] = "item \(random.below(1000))"
                item[Item.order] = random.below(10)
                if let parent = items.randomElement(using: &random), parent.isDeleted == false, random.oneIn(2) {
                    item[Item.parent] = parent
                }
            case 2:
                items.randomElement(using: &random).flatMap { $0.isDeleted ? nil : $0 }?[Item.title] = "renamed \(random.below(1000))"
            case 3:
                if let item = items.randomElement(using: &random), !item.isDeleted {
                    item[Item.note] = random.oneIn(3) ? nil : "note \(random.below(100))"
                    item[Item.done] = random.oneIn(2)
                }
            case 4:
                if let item = items.randomElement(using: &random), !item.isDeleted, random.oneIn(2) { ctx.delete(item) }
            case 5:
                let pod = ctx.insert("Pod")
                keys += 1
                pod[Pod.key] = "k\(keys)"
                pod[Pod.name] = "pod"
                pod[Pod.version] = "1.\(random.below(10))"
                pod[Pod.score] = Double(random.below(1000)) / 7
                pod[Pod.payload] = Data((0..<random.below(5)).map { _ in UInt8(random.below(256)) })
            case 6:
                if let pod = pods.randomElement(using: &random), !pod.isDeleted {
                    if random.oneIn(3) { ctx.delete(pod) } else { pod[Pod.score] = random.oneIn(5) ? .infinity : Double(random.below(100)) }
                }
            default:
                if let item = items.randomElement(using: &random), !item.isDeleted, let other = items.randomElement(using: &random),
                    !other.isDeleted, other !== item, !isAncestor(item, of: other)
                {
                    item[Item.parent] = other
                }
            }
        }
    }

    private func isAncestor(_ item: ManagedObject, of other: ManagedObject) -> Bool {
        var current: ManagedObject? = other
        while let node = current {
            if node === item { return true }
            current = node[Item.parent]
        }
        return false
    }

    func testEveryEarlierSaveComesBackExactly() throws {
        for seed in UInt64(1)...6 {
            var random = SeededRandom(seed: seed)
            let store = try PersistentStore(url: folder.appending(path: "seed-\(seed)"), model: testModel)
            let root = ObjectContext(store: store)
            let undo = ObjectUndoManager()
            var states: [Int: [UInt8]] = [0: try logicalContent(store)]
            var keys = 0
            try root.performAndWait { ctx in
                ctx.undoManager = undo
                for _ in 0..<25 {
                    if undo.canUndo && random.oneIn(5) {
                        undo.undo()
                    } else {
                        try undo.group("step") { try randomSave(ctx, &random, keys: &keys) }
                    }
                    guard ctx.hasChanges else { continue }
                    try ctx.save()
                    states[try store.history(limit: 1).first!.save] = try logicalContent(store)
                }
            }
            let latest = try store.history(limit: 1).first!.save
            XCTAssertEqual(states.count, latest + 1, "seed \(seed): a save number for every save that changed objects")
            let final = states[latest]!

            for save in states.keys.sorted() {
                let past = try store.pastState(after: save)
                XCTAssertEqual(past.save, save)
                XCTAssertEqual(past.latestSave, try store.history(limit: 1).first!.save)
                do {
                    try root.performAndWait { ctx in
                        ctx.undoManager = nil
                        try ctx.revert(to: past)
                        try ctx.save()
                    }
                } catch {
                    XCTFail("seed \(seed) save \(save): \(error)\n\(try store.history().map(\.changes))")
                    throw error
                }
                XCTAssertEqual(try logicalContent(store), states[save], "seed \(seed): back to save \(save)")
                XCTAssertEqual(try store.integrityProblems(), [], "seed \(seed), save \(save)")
                // Going forward again is going back to the save before the revert.
                let forward = try store.pastState(after: latest)
                try root.performAndWait { ctx in
                    try ctx.revert(to: forward)
                    try ctx.save()
                }
                XCTAssertEqual(try logicalContent(store), final, "seed \(seed): forward from save \(save)")
            }
        }
    }

    func testARevertIsUndoneByUndo() throws {
        let store = try makeStore()
        let root = ObjectContext(store: store)
        let undo = ObjectUndoManager()
        try root.performAndWait { ctx in
            ctx.undoManager = undo
            let a = ctx.insert("Item")
            a[Item.title] = "a"
            try ctx.save()
            let b = ctx.insert("Item")
            b[Item.parent] = a
            a[Item.title] = "A"
            try ctx.save()
        }
        let after = try logicalContent(store)
        let past = try store.pastState(after: 1)
        try root.performAndWait { ctx in
            let summary = try ctx.revert(to: past)
            XCTAssertEqual(summary, ObjectContext.RevertSummary(inserted: 0, updated: 1, deleted: 1))
            try ctx.save()
            undo.undo()
            try ctx.save()
        }
        XCTAssertEqual(try logicalContent(store), after)
    }

    func testWhatTheHistoryCannotReachIsRefused() throws {
        let store = try makeStore(
            options: {
                var options = PersistentStore.Options()
                options.historyRetention = HistoryRetention(maximumSaves: 2)
                return options
            }())
        let root = ObjectContext(store: store)
        XCTAssertEqual(try? store.pastState(after: 0).objectCount, nil, "no history yet")
        try root.performAndWait { ctx in
            for title in ["a", "b", "c", "d"] {
                ctx.insert("Item")[Item.title] = title
                try ctx.save()
            }
        }
        XCTAssertEqual(try store.pastState(after: 2).objectCount, 2, "saves 3 and 4 are kept: the state before 3 is known")
        for save in [1, 5, -1] {
            XCTAssertThrowsError(try store.pastState(after: save)) { error in
                XCTAssertEqual((error as? StoreError)?.code, .notInHistory, "\(error)")
                XCTAssertTrue("\(error)".contains("from save 2 (before save 3) to save 4"), "\(error)")
            }
        }
        // Damaged changes: a clean error, never a crash.
        let damages =
            [
                "'{\"Nope\":{\"inserted\":\"1\"}}'", "'{\"Item\":{\"inserted\":\"3-1\"}}'", "'[1'", "'{\"Item\":{\"deleted\":\"1\"}}'",
                "'{\"Item\":{\"updated\":[{\"properties\":[\"title\"],\"ids\":\"1\",\"before\":[[1,2]]}]}}'",
                "'{\"Item\":{\"updated\":[{\"properties\":[\"parent\"],\"ids\":\"1\",\"before\":[[\"x\"]]}]}}'",
            ]
            + ["1,,2", "2,1", "1-", "-1", "1-2-3", "99999999999999999999", "1,", "x", "0", "1-200000000", "1 2", ","].map {
                "'{\"Item\":{\"inserted\":\"\($0)\"}}'"
            }
        for damage in damages {
            try writeFromAnotherConnection("UPDATE _poddoc_history SET changes = \(damage) WHERE save = 4")
            XCTAssertThrowsError(try store.pastState(after: 3), damage) { error in
                let code = (error as? StoreError)?.code
                XCTAssertTrue(code == .corrupt || code == .notInHistory, "\(damage): \(error)")
            }
        }
    }
}
