import Foundation
import OutlineInterchange
import Outliner
import PodDocDocument
import PodDocRandom
import PodDocStore

/// Random tree edits of an outline document: add, rename, note, move, indent, outdent,
/// delete (with the subtree), an import as rows (saved by the document's autosave, as the
/// command line imports), undo, and merges of a copy edited apart (as `poddoc merge` does: one
/// save).
@MainActor
final class OutlineWorkload: ChildWorkload {
    private let document: ManagedDocument
    private let outline: OutlineStore
    /// Items the workload knows of; stale ones (deleted, undone) drop out when an edit says so.
    private var items: [ObjectID]
    private let log: OperationLog

    /// Most items the outline grows to before deletions take over.
    private static let largestOutline = 150
    /// The copy merged in now and then, beside the document; made on the first merge.
    private var theirs: URL {
        let url = document.fileURL!
        return url.deletingLastPathComponent().appending(path: "Theirs-" + url.deletingPathExtension().lastPathComponent + ".poddoc")
    }

    init(document: ManagedDocument, log: OperationLog) throws {
        self.document = document
        self.log = log
        outline = try OutlineStore(context: document.mainContext)
        let root = outline.rootID
        items = try document.mainContext.fetchIDs(FetchRequest(OutlineSchema.entityName)).filter { $0 != root }
    }

    func edit(using random: inout SeededRandom) async throws {
        var choice = random.below(20)
        if items.isEmpty { choice = 0 } else if items.count > Self.largestOutline { choice = 17 }
        let target = items.isEmpty ? outline.rootID : items[random.below(items.count)]
        let other = items.isEmpty ? outline.rootID : items[random.below(items.count)]
        let underRoot = random.oneIn(3)
        let number = random.below(1_000_000)
        let position = random.below(1_000)
        let parent = underRoot ? outline.rootID : other
        if random.oneIn(30) {
            try await merge(edits: 1 + random.below(5), using: &random)
            return
        }
        log.record(describe(choice, target: target, other: parent, number: number, position: position))
        do {
            if choice == 19 {
                try await importTree(of: number % 60 + 1, under: parent, number: number)
            } else {
                try apply(choice, to: target, other: parent, number: number, position: position)
            }
        } catch {
            log.record("  refused: \(error.code)")
            // A stale item drops out; a refused edit changes nothing, and the next one will do.
            if error.code == .notFound {
                items.removeAll { $0 == target || $0 == other }
            } else if ![.moveIntoItself, .cannotIndent, .cannotOutdent, .rootItem].contains(error.code) {
                throw error
            }
        }
    }

    /// What ``apply(_:to:other:number:position:)`` will do, for the operation log.
    private func describe(_ choice: Int, target: ObjectID, other: ObjectID, number: Int, position: Int) -> String {
        switch choice {
        case 0..<7: "add 'item \(number)' under \(other) at \(position)"
        case 7..<11: "rename \(target) to 'renamed \(number)'"
        case 11..<13: "set the note of \(target) (\(number))"
        case 13..<15: "move \(target) under \(other)"
        case 15: "indent \(target)"
        case 16: "outdent \(target)"
        case 17: "delete \(target)"
        case 19: "import \(number % 60 + 1) items as rows under \(other), then autosave"
        default: "undo \(document.undoManager.undoActionName.map { "'\($0)'" } ?? "(nothing to undo)")"
        }
    }

    /// Edits the copy apart (making it first, as a copy of the document), then merges it into
    /// the document as one save, preferring the document's values where both changed.
    private func merge(edits: Int, using random: inout SeededRandom) async throws {
        var options = ManagedDocument.OpenOptions()
        options.autosaveInterval = nil
        options.recovery = .recover
        if !FileManager.default.fileExists(atPath: theirs.path) {
            log.record("copy the document to \(theirs.lastPathComponent)")
            try await document.save(to: theirs, format: .package)
            CrashChild.reportSave(of: document)
        }
        let copy = try await ManagedDocument.open(theirs, model: document.model, options: options)
        do {
            let copyOutline = try OutlineStore(context: copy.mainContext)
            let copyItems = try copy.mainContext.fetchIDs(FetchRequest(OutlineSchema.entityName)).filter { $0 != copyOutline.rootID }
            log.record("edit the copy \(edits) times")
            for _ in 0..<edits {
                let number = random.below(1_000_000)
                let target = copyItems.isEmpty ? nil : copyItems[random.below(copyItems.count)]
                switch (random.below(3), target) {
                case (0, let target?): try? copyOutline.rename(target, to: "theirs \(number)")
                case (1, let target?): try? copyOutline.setNote(target, to: "theirs \(number)")
                default: _ = try copyOutline.add(OutlineItem(title: "theirs \(number)"), under: copyOutline.rootID)
                }
            }
            try await copy.save()
        } catch {
            try? await copy.close()
            throw error
        }
        // The merge reads what the stores hold: the document's edits are saved first. The copy,
        // just saved, is read through its own open store.
        let plan: CopyMerge
        do {
            try await document.autosave()
            CrashChild.reportSave(of: document)
            let (mine, other) = (document.rootContext.store, copy.rootContext.store)
            plan = try await Task.detached {
                // The outline's trees and latest values: its model's merge description.
                try CopyMerge.plan(mine: mine, theirs: other, preferring: .mine)
            }.value
            try await copy.close()
        } catch {
            try? await copy.close()
            throw error
        }
        log.record("merge the copy: \(plan.outcome.rawValue), \(plan.changedObjects) objects, \(plan.conflicts.count) conflicts")
        guard plan.outcome != .upToDate else { return }
        let context = document.mainContext
        try await document.saveMerge(plan, named: "Merge \(theirs.lastPathComponent)")
        CrashChild.reportSave(of: document)
        items = try context.fetchIDs(FetchRequest(OutlineSchema.entityName)).filter { $0 != outline.rootID }
    }

    /// Imports a tree of `count` items (top-level items of up to five children) at the end of
    /// `parent`'s children, as rows, saved by an autosave.
    private func importTree(of count: Int, under parent: ObjectID, number: Int) async throws(OutlineError) {
        var tree = OutlineTree()
        var top = tree.root
        for index in 0..<count {
            let item = OutlineItem(title: "imported \(number).\(index)", note: index % 4 == 0 ? "note \(index)" : nil)
            if index % 6 == 0 {
                top = tree.appendChild(item, to: tree.root)
            } else {
                tree.appendChild(item, to: top)
            }
        }
        let document = self.document
        items += try await outline.importOutline(tree, under: parent) {
            try await document.autosave()
            CrashChild.reportSave(of: document)
        }
    }

    /// Makes edit number `choice` (0..<19, most often an addition) on `target`; `other` is
    /// the parent for additions and moves.
    private func apply(_ choice: Int, to target: ObjectID, other: ObjectID, number: Int, position: Int) throws(OutlineError) {
        switch choice {
        case 0..<7:
            let count = try outline.children(of: other).count
            items.append(try outline.add(OutlineItem(title: "item \(number)"), under: other, at: position % (count + 1)))
        case 7..<11:
            try outline.rename(target, to: "renamed \(number)")
        case 11..<13:
            try outline.setNote(target, to: number % 3 == 0 ? nil : String(repeating: "note ", count: number % 40))
        case 13..<15:
            try outline.move(target, under: other)
        case 15:
            try outline.indent(target)
        case 16:
            try outline.outdent(target)
        case 17:
            _ = try outline.delete(target)
            items.removeAll { $0 == target }
        default:
            document.undoManager.undo()
        }
    }
}
