import Foundation
import OutlineInterchange
import OutlineTestSupport
import Outliner
import PodDocRandom
import PodDocStore
import XCTest

/// Random sequences of every edit, interleaved with undo, redo and saves, checked step by
/// step against ``ReferenceOutline``: the order invariant holds after every step, every
/// edit is one undo group, refused edits change nothing, and undoing everything gives back
/// exactly the starting document (every value of every row, under the same IDs).
final class OutlinePropertyTests: OutlineStoreTestCase {
    private static let sequences = 1_000

    func testRandomEditsUndoAndRedoKeepTheInvariantAndUndoBackToTheStart() throws {
        let (doc, start, startRows) = try makeStartingDocument(seed: 2024)
        var statistics: [String: Int] = [:]
        for sequence in 0..<Self.sequences {
            var random = SeededRandom(seed: UInt64(sequence))
            var run = Run(doc: doc, model: ReferenceOutline(start))
            for step in 0..<Int.random(in: 4...12, using: &random) {
                let what = try run.step(&random)
                statistics[what, default: 0] += 1
                try doc.assertOrderInvariant("sequence \(sequence), step \(step): \(what)")
                XCTAssertTrue(
                    try doc.outline.exportOutline().hasSameItems(as: run.model.tree),
                    "sequence \(sequence), step \(step): \(what)")
                if what == "save", sequence % 5 == 0 { try assertStreamedExportsMatchTheTree(doc, "sequence \(sequence), step \(step)") }
                if testRun?.failureCount ?? 0 > 0 { return }
            }
            while doc.undo.canUndo { doc.undo.undo() }
            XCTAssertEqual(try doc.rows(), startRows, "sequence \(sequence): undoing everything")
            try doc.save()
            doc.undo.removeAllActions()
            if testRun?.failureCount ?? 0 > 0 { return }
        }
        print(
            "outline property test: \(Self.sequences) sequences, steps: "
                + statistics.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))
        for kind in [
            "add", "rename", "note", "move", "move refused", "indent", "indent refused", "outdent",
            "outdent refused", "delete", "undo", "redo", "save",
        ] {
            XCTAssertGreaterThan(statistics[kind] ?? 0, 10, "\(kind) was hardly exercised")
        }
    }
}

/// The same random sequences with the document's real save protocol: the main context's
/// asynchronous save, then the root's save on its own queue, with edits, undo and redo made
/// while each runs. Every step must keep the invariant and match the model, whatever the
/// saves do underneath.
@MainActor
final class OutlineEditsDuringSavesTests: OutlineStoreTestCase {
    private static let sequences = 300

    func testRandomEditsMadeWhileSavesRunKeepTheInvariant() async throws {
        let (doc, start, startRows) = try makeStartingDocument(seed: 7)
        var savesWithEdits = 0
        for sequence in 0..<Self.sequences {
            var random = SeededRandom(seed: UInt64(sequence))
            var run = Run(doc: doc, model: ReferenceOutline(start))
            var step = 0
            func steps(_ count: Int) throws {
                for _ in 0..<count {
                    let what = try run.step(&random, saving: false)
                    try doc.assertOrderInvariant("sequence \(sequence), step \(step): \(what)")
                    XCTAssertTrue(
                        try doc.outline.exportOutline().hasSameItems(as: run.model.tree),
                        "sequence \(sequence), step \(step): \(what)")
                    step += 1
                }
            }
            for _ in 0..<Int.random(in: 2...5, using: &random) {
                try steps(Int.random(in: 1...4, using: &random))
                // Main → root: the edits of `steps` run between its two halves on the main actor.
                let pushing = Task { try await doc.main.save() }
                await Task.yield()
                try steps(Int.random(in: 0...3, using: &random))
                try await pushing.value
                // Root → file on the root's queue, while the main actor edits on.
                let root = doc.root
                let writing = Task.detached { try await root.perform { try $0.save() } }
                try steps(Int.random(in: 0...3, using: &random))
                try await writing.value
                await doc.main.perform { _ in }  // the root's did-save reaches the main context
                try doc.assertOrderInvariant("sequence \(sequence), after a save")
                XCTAssertTrue(try doc.outline.exportOutline().hasSameItems(as: run.model.tree), "sequence \(sequence), after a save")
                savesWithEdits += 1
                if testRun?.failureCount ?? 0 > 0 { return }
            }
            while doc.undo.canUndo { doc.undo.undo() }
            XCTAssertEqual(doc.resolved(try doc.rows()), doc.resolved(startRows), "sequence \(sequence): undoing everything")
            try doc.save()
            doc.undo.removeAllActions()
            if testRun?.failureCount ?? 0 > 0 { return }
        }
        print("outline edits during saves: \(Self.sequences) sequences, \(savesWithEdits) saves with edits around them")
    }
}

extension OutlineStoreTestCase {
    /// A saved document holding a random outline of 24 items, with nothing to undo: the
    /// start of every sequence, with its tree and its rows.
    fileprivate func makeStartingDocument(seed: UInt64) throws -> (TestDocument, OutlineTree, [ObjectID: ItemRow]) {
        let doc = try makeDocument()
        let start = TreeGenerator.random(seed: seed, count: 24, maxDepth: 4, notes: true, attributes: true)
        try doc.outline.importOutline(start)
        try doc.save()
        doc.undo.removeAllActions()
        return (doc, start, try doc.rows())
    }
}

/// One random sequence: the document, the model it must match, and the model's undo history.
private struct Run {
    let doc: TestDocument
    var model: ReferenceOutline
    var undone: [ReferenceOutline] = []
    var redone: [ReferenceOutline] = []

    init(doc: TestDocument, model: ReferenceOutline) {
        self.doc = doc
        self.model = model
    }

    var outline: OutlineStore { doc.outline }

    /// Does one random thing to both and returns its name; `saving: false` leaves saves to
    /// the caller.
    mutating func step(_ random: inout SeededRandom, saving: Bool = true) throws -> String {
        let items = model.paths
        let undoCount = doc.undo.undoCount
        switch Int.random(in: 0..<100, using: &random) {
        case 0..<12:
            if undone.isEmpty { return try step(&random, saving: saving) }
            doc.undo.undo()
            redone.append(model)
            model = undone.removeLast()
            return "undo"
        case 12..<20:
            if redone.isEmpty { return try step(&random, saving: saving) }
            doc.undo.redo()
            undone.append(model)
            model = redone.removeLast()
            return "redo"
        case 20..<25:
            if !saving { return try step(&random, saving: false) }
            try doc.save()
            return "save"
        case 25..<40 where items.count < 60, 25..<40 where items.isEmpty:
            let (parent, path) = ([(key: 0, path: [Int]())] + items).randomElement(using: &random)!
            let count = model.children[parent]!.count
            let index = Bool.random(using: &random) ? nil : Int.random(in: 0...count, using: &random)
            let item = OutlineItem(
                title: TreeGenerator.trickyTexts.randomElement(using: &random)!,
                note: Bool.random(using: &random) ? "note \(count)" : nil,
                attributes: Bool.random(using: &random) ? [OutlineAttribute("type", "task")] : [])
            try outline.add(item, under: outline.itemID(at: .indexes(path)), at: index)
            record { $0.add(item, under: parent, at: index ?? count) }
            XCTAssertEqual(doc.undo.undoCount, undoCount + 1)
            return "add"
        default:
            break
        }
        guard let (key, path) = items.randomElement(using: &random) else { return "save" }
        let id = try outline.itemID(at: .indexes(path))
        switch Int.random(in: 0..<6, using: &random) {
        case 0:
            let title = TreeGenerator.trickyTexts.randomElement(using: &random)!
            try outline.rename(id, to: title)
            let changes = model.items[key]!.title != title
            if changes { record { $0.rename(key, to: title) } }
            XCTAssertEqual(doc.undo.undoCount, undoCount + (changes ? 1 : 0))
            return "rename"
        case 1:
            let note = Bool.random(using: &random) ? nil : TreeGenerator.trickyTexts.randomElement(using: &random)!
            try outline.setNote(id, to: note)
            let changes = model.items[key]!.note != note
            if changes { record { $0.setNote(key, to: note) } }
            XCTAssertEqual(doc.undo.undoCount, undoCount + (changes ? 1 : 0))
            return "note"
        case 2:
            return try move(key, id, items, undoCount, &random)
        case 3:
            let position = model.position(of: key)
            guard position > 0 else {
                try expectRefusal(.cannotIndent) { try outline.indent(id) }
                return "indent refused"
            }
            let newParent = model.children[model.parent(of: key)]![position - 1]
            try outline.indent(id)
            record { $0.move(key, under: newParent, at: $0.children[newParent]!.count) }
            return "indent"
        case 4:
            let parent = model.parent(of: key)
            guard parent != 0 else {
                try expectRefusal(.cannotOutdent) { try outline.outdent(id) }
                return "outdent refused"
            }
            try outline.outdent(id)
            record { $0.move(key, under: $0.parent(of: parent), at: $0.position(of: parent) + 1) }
            return "outdent"
        default:
            var copy = model
            let expected = copy.delete(key)
            XCTAssertEqual(try outline.delete(id), expected)
            let others = expected - 1
            let suffix = others == 0 ? "\"" : " and \(others) item\(others == 1 ? "" : "s")"
            XCTAssertTrue(doc.undo.undoActionName?.hasSuffix(suffix) ?? false, doc.undo.undoActionName ?? "")
            record { _ = $0.delete(key) }
            return "delete"
        }
    }

    private mutating func move(
        _ key: Int, _ id: ObjectID, _ items: [(key: Int, path: [Int])], _ undoCount: Int,
        _ random: inout SeededRandom
    ) throws -> String {
        let (target, targetPath) = ([(key: 0, path: [Int]())] + items).randomElement(using: &random)!
        let targetID = try outline.itemID(at: .indexes(targetPath))
        if model.isInside(target, key) {
            try expectRefusal(.moveIntoItself) { try outline.move(id, under: targetID, at: nil) }
            return "move refused"
        }
        let others = model.children[target]!.filter { $0 != key }.count
        let index = Int.random(in: 0...others + 1, using: &random)
        guard index <= others else {
            try expectRefusal(.invalidArgument) { try outline.move(id, under: targetID, at: index) }
            return "move refused"
        }
        try outline.move(id, under: targetID, at: index)
        let changes = model.parent(of: key) != target || model.position(of: key) != index
        if changes { record { $0.move(key, under: target, at: index) } }
        XCTAssertEqual(doc.undo.undoCount, undoCount + (changes ? 1 : 0))
        return "move"
    }

    /// Applies an edit that succeeded to the model, remembering the model before it.
    private mutating func record(_ edit: (inout ReferenceOutline) -> Void) {
        undone.append(model)
        redone.removeAll()
        edit(&model)
    }

    /// Checks that `edit` is refused with `code` and changes nothing.
    private func expectRefusal(_ code: OutlineError.Code, _ edit: () throws -> Void) throws {
        let before = try doc.rows()
        let undoCount = doc.undo.undoCount
        do {
            try edit()
            XCTFail("expected \(code)")
        } catch let error as OutlineError {
            XCTAssertEqual(error.code, code, error.message)
        }
        XCTAssertEqual(doc.resolved(try doc.rows()), doc.resolved(before))
        XCTAssertEqual(doc.undo.undoCount, undoCount)
    }
}
