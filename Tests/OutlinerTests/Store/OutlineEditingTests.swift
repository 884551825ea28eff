import Foundation
import OutlineInterchange
import Outliner
import PodDocStore
import XCTest

/// Adding, renaming and notes: each one undo group with a readable name, sibling order keys
/// never shared.
final class OutlineEditingTests: OutlineStoreTestCase {
    /// Inserting again and again between the same two items runs out of room between their
    /// keys after sixteen; the list is then numbered afresh in the same undo group, and undo
    /// puts every key back.
    func testInsertsBetweenTheSameTwoItemsNumberTheListAfreshWhenTheKeysRunOut() throws {
        let doc = try makeDocument()
        let outline = doc.outline
        let first = try outline.add(OutlineItem(title: "first"), under: outline.rootID)
        let last = try outline.add(OutlineItem(title: "last"), under: outline.rootID)
        var expected = ["first", "last"]
        for step in 1...20 {
            try outline.add(OutlineItem(title: "n\(step)"), under: outline.rootID, at: 1)
            expected.insert("n\(step)", at: 1)
            XCTAssertEqual(try outline.children(of: outline.rootID).map(\.item.title), expected, "after \(step) inserts")
            try doc.assertOrderInvariant("after \(step) inserts")
        }
        // The keys ran out on the way, and the list took keys a spacing apart: the last item's
        // is past the one it started with.
        let keys = try doc.main.fetch(
            FetchRequest(OutlineSchema.entityName, where: OutlineSchema.parent == doc.main.existingObject(with: outline.rootID))
        )
        .map { $0[OutlineSchema.order] }
        XCTAssertEqual(Set(keys).count, 22)
        XCTAssertGreaterThan(keys.max()!, SiblingOrder.spacing, "numbered afresh")
        for _ in 1...20 { doc.undo.undo() }
        XCTAssertEqual(try outline.children(of: outline.rootID).map(\.id), [first, last])
        try doc.save()
        XCTAssertEqual(try outline.children(of: outline.rootID).map(\.item.title), ["first", "last"])
    }

    func testAddAppendsOrInsertsAndRenumbersSiblings() throws {
        let clock = SteppingClock()
        let doc = try makeDocument(clock: clock.read)
        let outline = doc.outline
        let groceries = try outline.add(OutlineItem(title: "Groceries"), under: outline.rootID)
        let milk = try outline.add(OutlineItem(title: "Milk"), under: groceries)
        let bread = try outline.add(
            OutlineItem(title: "Bread", note: "wholemeal", attributes: [OutlineAttribute("type", "task")]), under: groceries)
        let eggs = try outline.add(OutlineItem(title: "Eggs"), under: groceries, at: 0)
        let butter = try outline.add(OutlineItem(title: "Butter"), under: groceries, at: 2)
        XCTAssertEqual(try outline.children(of: groceries).map(\.item.title), ["Eggs", "Milk", "Butter", "Bread"])
        XCTAssertEqual(try outline.children(of: groceries).map(\.index), [0, 1, 2, 3])
        XCTAssertEqual(try outline.children(of: groceries).map(\.id), [eggs, milk, butter, bread])
        let stored = try outline.item(bread)
        XCTAssertEqual(stored.item, OutlineItem(title: "Bread", note: "wholemeal", attributes: [OutlineAttribute("type", "task")]))
        XCTAssertEqual(stored.created, stored.modified)
        XCTAssertGreaterThan(stored.created, try outline.item(milk).created)
        XCTAssertEqual(doc.undo.undoActionName, "Add \"Butter\"")
        XCTAssertEqual(doc.undo.undoCount, 5)
        try doc.assertOrderInvariant()

        doc.undo.undo()
        XCTAssertEqual(try outline.children(of: groceries).map(\.item.title), ["Eggs", "Milk", "Bread"])
        doc.undo.undo()
        XCTAssertEqual(try outline.children(of: groceries).map(\.item.title), ["Milk", "Bread"])
        try doc.assertOrderInvariant()
        doc.undo.redo()
        doc.undo.redo()
        XCTAssertEqual(try outline.children(of: groceries).map(\.id), [eggs, milk, butter, bread], "redo brings the same items back")
        XCTAssertEqual(try outline.item(butter).item.title, "Butter")
        try doc.save()
        try doc.assertOrderInvariant()
    }

    func testAddAtAPositionPastTheEndIsRefusedAndChangesNothing() throws {
        let doc = try makeDocument()
        let work = try doc.outline.add(OutlineItem(title: "Work"), under: doc.outline.rootID)
        try doc.outline.add(OutlineItem(title: "Plan"), under: work)
        let before = try doc.rows()
        let undoCount = doc.undo.undoCount
        let error = assertOutlineError(.invalidArgument) { try doc.outline.add(OutlineItem(title: "Late"), under: work, at: 2) }
        XCTAssertEqual(error?.message, "Cannot insert at position 2: \"Work\" has 1 child; choose a position from 0 to 1.")
        _ = assertOutlineError(.invalidArgument) { try doc.outline.add(OutlineItem(title: "Negative"), under: work, at: -1) }
        let top = assertOutlineError(.invalidArgument) { try doc.outline.add(OutlineItem(title: "x"), under: doc.outline.rootID, at: 5) }
        XCTAssertEqual(top?.message, "Cannot insert at position 5: the outline has 1 item at the top level; choose a position from 0 to 1.")
        XCTAssertEqual(try doc.rows(), before)
        XCTAssertEqual(doc.undo.undoCount, undoCount)
    }

    func testAddUnderAMissingItemIsRefused() throws {
        let doc = try makeDocument()
        let gone = try doc.outline.add(OutlineItem(title: "Gone"), under: doc.outline.rootID)
        try doc.outline.delete(gone)
        let error = assertOutlineError(.notFound) { try doc.outline.add(OutlineItem(title: "Orphan"), under: gone) }
        XCTAssertTrue(error?.message.contains("There is no outline item") ?? false, error?.message ?? "")
        _ = assertOutlineError(.notFound) { _ = try doc.outline.item(ObjectID.permanent(entity: OutlineSchema.entityName, rowID: 999)) }
    }

    func testRenameAndNotesAreUndoableAndStampModified() throws {
        let clock = SteppingClock()
        let doc = try makeDocument(clock: clock.read)
        let outline = doc.outline
        let item = try outline.add(OutlineItem(title: "Groceries"), under: outline.rootID)
        let added = try outline.item(item)
        try outline.rename(item, to: "Shopping")
        XCTAssertEqual(doc.undo.undoActionName, "Rename \"Groceries\" to \"Shopping\"")
        XCTAssertGreaterThan(try outline.item(item).modified, added.modified)
        XCTAssertEqual(try outline.item(item).created, added.created)
        try outline.setNote(item, to: "Saturday\nmorning")
        XCTAssertEqual(doc.undo.undoActionName, "Set note of \"Shopping\"")
        try outline.setNote(item, to: nil)
        XCTAssertEqual(doc.undo.undoActionName, "Remove note of \"Shopping\"")

        doc.undo.undo()
        XCTAssertEqual(try outline.item(item).item.note, "Saturday\nmorning")
        doc.undo.undo()
        XCTAssertNil(try outline.item(item).item.note)
        doc.undo.undo()
        XCTAssertEqual(try outline.item(item), added, "every value back, the modified time included")
        doc.undo.redo()
        XCTAssertEqual(try outline.item(item).item.title, "Shopping")
    }

    func testChangesThatChangeNothingRecordNothing() throws {
        let doc = try makeDocument()
        let item = try doc.outline.add(OutlineItem(title: "Same", note: "note"), under: doc.outline.rootID)
        let count = doc.undo.undoCount
        try doc.outline.rename(item, to: "Same")
        try doc.outline.setNote(item, to: "note")
        XCTAssertEqual(doc.undo.undoCount, count)
    }

    func testTheRootCannotBeEdited() throws {
        let doc = try makeDocument()
        let root = doc.outline.rootID
        _ = assertOutlineError(.rootItem) { try doc.outline.rename(root, to: "x") }
        _ = assertOutlineError(.rootItem) { try doc.outline.setNote(root, to: "x") }
        _ = assertOutlineError(.rootItem) { try doc.outline.delete(root) }
        _ = assertOutlineError(.rootItem) { try doc.outline.indent(root) }
        _ = assertOutlineError(.rootItem) { try doc.outline.outdent(root) }
        let error = assertOutlineError(.rootItem) { try doc.outline.move(root, under: root) }
        XCTAssertEqual(
            error?.message, "The root item is the invisible top of the outline; it cannot be moved. Choose one of its items instead.")
        XCTAssertFalse(doc.undo.canUndo)
    }

    func testLongAndMultilineTitlesMakeShortOneLineActionNames() throws {
        let doc = try makeDocument()
        try doc.outline.add(OutlineItem(title: "A very long title that goes on and on and on about nothing"), under: doc.outline.rootID)
        XCTAssertEqual(doc.undo.undoActionName, "Add \"A very long title that goes on and on a…\"")
        try doc.outline.add(OutlineItem(title: "two\nlines"), under: doc.outline.rootID)
        XCTAssertEqual(doc.undo.undoActionName, "Add \"two\\nlines\"")
    }

    func testStatusMarksATaskOpenOrDoneUndoablyAndFindsByIt() throws {
        let doc = try makeDocument()
        let outline = doc.outline
        let milk = try outline.add(OutlineItem(title: "Milk"), under: outline.rootID)
        let eggs = try outline.add(OutlineItem(title: "Eggs", status: .open), under: outline.rootID)
        try outline.add(OutlineItem(title: "Bread"), under: outline.rootID)
        try outline.setStatus(milk, to: .done)
        XCTAssertEqual(doc.undo.undoActionName, #"Mark "Milk" done"#)
        try outline.setStatus(eggs, to: .open)
        XCTAssertEqual(doc.undo.undoActionName, #"Mark "Milk" done"#, "already open: nothing recorded")
        try doc.save()
        XCTAssertEqual(try outline.headings(under: outline.rootID).map(\.status), [.done, .open, nil])
        XCTAssertEqual(try outline.find("", status: .open).map(\.title), ["Eggs"])
        XCTAssertEqual(try outline.find("milk", status: .done).map(\.title), ["Milk"])
        XCTAssertEqual(try outline.find("eggs", status: .done).map(\.title), [])
        doc.undo.undo()
        try doc.save()
        XCTAssertEqual(try outline.children(of: outline.rootID).map(\.item.status), [nil, .open, nil])
        XCTAssertThrowsError(try outline.setStatus(outline.rootID, to: .done))
    }
}
