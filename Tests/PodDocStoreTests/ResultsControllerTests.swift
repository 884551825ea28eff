import Foundation
import PodDocRandom
import XCTest

@testable import PodDocStore

final class ResultsControllerTests: StoreTestCase {
    func testReportsInsertDeleteMoveUpdateAndSections() throws {
        let root = ObjectContext(store: try makeStore(inMemory: true))
        try root.performAndWait { ctx in
            let a = ctx.insert("Item")
            a[Item.title] = "a"
            a[Item.order] = 1
            let b = ctx.insert("Item")
            b[Item.title] = "b"
            b[Item.order] = 2
            try ctx.save()
            let controller = ResultsController(FetchRequest("Item", sortBy: [FetchSort(Item.order)]), context: ctx, sectionKey: "done")
            var reported: [ResultsChanges] = []
            controller.onChange = { reported.append($0) }
            try controller.performFetch()
            XCTAssertEqual(controller.sections.map(\.ids), [[a.objectID, b.objectID]])

            let c = ctx.insert("Item")
            c[Item.title] = "c"
            c[Item.order] = 0
            ctx.processPendingChanges()
            XCTAssertEqual(reported.last?.inserts.map(\.indexPath), [ResultsIndexPath(section: 0, item: 0)])

            b[Item.order] = -1
            ctx.processPendingChanges()
            XCTAssertEqual(reported.last?.moves.map(\.from), [ResultsIndexPath(section: 0, item: 2)])
            XCTAssertEqual(reported.last?.moves.map(\.to), [ResultsIndexPath(section: 0, item: 0)])

            a[Item.title] = "a2"
            ctx.processPendingChanges()
            XCTAssertEqual(reported.last?.updates, [ResultsIndexPath(section: 0, item: 2)])

            a[Item.done] = true
            ctx.processPendingChanges()
            XCTAssertEqual(reported.last?.insertedSections.map(\.index), [1])
            XCTAssertEqual(reported.last?.moves.map(\.to), [ResultsIndexPath(section: 1, item: 0)])

            ctx.delete(c)
            ctx.processPendingChanges()
            XCTAssertEqual(reported.last?.deletes, [ResultsIndexPath(section: 0, item: 1)])
            XCTAssertEqual(controller.sections.map(\.key), [.integer(0), .integer(1)])
        }
    }

    func testUndoAndRedoAreReportedAsUpdates() throws {
        let root = ObjectContext(store: try makeStore(inMemory: true))
        try root.performAndWait { ctx in
            let a = ctx.insert("Item")
            a[Item.title] = "a"
            try ctx.save()
            let undo = ObjectUndoManager()
            ctx.undoManager = undo
            let controller = ResultsController(FetchRequest("Item"), context: ctx)
            var updates = 0
            controller.onChange = { updates += $0.updates.count }
            try controller.performFetch()
            undo.group("Edit") { a[Item.title] = "b" }
            ctx.processPendingChanges()
            undo.undo()
            undo.redo()
            XCTAssertEqual(updates, 3)
            XCTAssertEqual(a[Item.title], "b")
        }
    }

    /// 1,000 seeded random sequences of edits, saves and merges: after every change, the
    /// reported changes applied to the previous contents give the new contents, and those
    /// equal a fresh fetch. (`PODDOC_PROPERTY_SEQUENCES` runs fewer: the ThreadSanitizer run
    /// checks the queues, not the arithmetic, and is 20x slower.)
    func testReportedChangesAlwaysMatchAFreshFetch() throws {
        let sequences = ProcessInfo.processInfo.environment["PODDOC_PROPERTY_SEQUENCES"].flatMap { UInt64($0) } ?? 1000
        for seed in 0..<sequences {
            try runSequence(seed: seed)
        }
    }

    private func runSequence(seed: UInt64) throws {
        var random = SeededRandom(seed: seed)
        let store = try PersistentStore(url: nil, model: testModel)
        let root = ObjectContext(store: store)
        let main = ObjectContext(.privateQueue, parent: root, name: "main")
        let worker = ObjectContext(.privateQueue, parent: root, name: "worker")
        try root.performAndWait { ctx in
            for _ in 0..<Int.random(in: 0...8, using: &random) {
                let item = ctx.insert("Item")
                item[Item.order] = Int.random(in: 0...9, using: &random)
                item[Item.done] = Bool.random(using: &random)
                item[Item.title] = ["a", "b", "c"].randomElement(using: &random)!
            }
            try ctx.save()
        }
        let limited = seed % 5 == 0
        let predicate: ObjectPredicate = seed % 3 == 0 ? Item.title != "c" : .all
        let request = FetchRequest(
            "Item", where: predicate, sortBy: [FetchSort(Item.order), FetchSort(Item.title, ascending: false)],
            limit: limited ? 4 : nil)
        let sectionKey: String? = seed % 2 == 0 ? "done" : nil
        var problems: [String] = []
        var previous: [ResultsSection] = []
        var reported: [ResultsChanges] = []
        let controller = try main.performAndWait { ctx -> ResultsController in
            ctx.automaticallyMergesChangesFromParent = true
            let controller = ResultsController(request, context: ctx, sectionKey: sectionKey)
            try controller.performFetch()
            return controller
        }
        controller.onChange = { reported.append($0) }
        try main.performAndWait { _ in previous = controller.sections }

        func check(_ ctx: ObjectContext, _ step: String) throws {
            var expected = previous
            for changes in reported { expected = changes.apply(to: expected) }
            reported.removeAll()
            let fresh = try ctx.fetch(controller.request)
            let freshSections = Self.sections(
                fresh.map { object in (object.objectID, sectionKey.map { object.value(forKey: $0) } ?? .null) })
            if expected != controller.sections {
                problems.append("step \(step): applied changes \(expected) != contents \(controller.sections)")
            }
            if controller.sections != freshSections {
                problems.append("step \(step): contents \(controller.sections) != fresh fetch \(freshSections)")
            }
            previous = controller.sections
        }

        for step in 0..<12 {
            let operation = Int.random(in: 0..<10, using: &random)
            let choice = UInt64.random(in: 0...UInt64.max, using: &random)
            try main.performAndWait { ctx in
                try check(ctx, "\(step) (merges)")
                var r = SeededRandom(seed: choice)
                let items = Array(try ctx.fetch(FetchRequest("Item")))
                switch operation {
                case 0, 1:
                    let item = ctx.insert("Item")
                    item[Item.order] = Int.random(in: 0...9, using: &r)
                    item[Item.done] = Bool.random(using: &r)
                case 2:
                    if let item = items.randomElement(using: &r) { ctx.delete(item) }
                case 3, 4:
                    if let item = items.randomElement(using: &r) { item[Item.order] = Int.random(in: 0...9, using: &r) }
                case 5:
                    if let item = items.randomElement(using: &r) { item[Item.done] = !item[Item.done] }
                case 6:
                    if let item = items.randomElement(using: &r) { item[Item.title] = ["a", "b", "c"].randomElement(using: &r)! }
                case 7:
                    try ctx.save()
                case 8:
                    try ctx.save()
                    try root.performAndWait { try $0.save() }
                default:
                    break
                }
                ctx.processPendingChanges()
                try check(ctx, "\(step)")
            }
            if operation == 9 {
                try worker.performAndWait { w in
                    var r = SeededRandom(seed: choice)
                    let theirs = Array(try w.fetch(FetchRequest("Item")))
                    if let item = theirs.randomElement(using: &r), Bool.random(using: &r) {
                        item[Item.order] = Int.random(in: 0...9, using: &r)
                    } else {
                        w.insert("Item")[Item.order] = Int.random(in: 0...9, using: &r)
                    }
                    w.mergePolicy = .overwrite
                    try w.save()
                }
            }
        }
        try main.performAndWait { ctx in try check(ctx, "end") }
        XCTAssertEqual(problems, [], "seed \(seed)")
    }

    static func sections(_ entries: [(ObjectID, StoreValue)]) -> [ResultsSection] {
        var sections: [ResultsSection] = []
        for (id, key) in entries {
            if sections.last?.key == key {
                sections[sections.count - 1].ids.append(id)
            } else {
                sections.append(ResultsSection(key: key, ids: [id]))
            }
        }
        return sections
    }
}
