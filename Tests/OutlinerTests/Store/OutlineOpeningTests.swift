import Foundation
import OutlineInterchange
import Outliner
import PodDocStore
import XCTest

/// Exactly one root per document: found when it exists, made when the document is new.
final class OutlineOpeningTests: OutlineStoreTestCase {
    func testANewDocumentGetsOneRootWithoutAnUndoStep() throws {
        let doc = try makeDocument()
        XCTAssertFalse(doc.undo.canUndo)
        XCTAssertEqual(try doc.rows().count, 1)
        XCTAssertEqual(try doc.outline.children(of: doc.outline.rootID), [])
        XCTAssertEqual(try doc.outline.printTree(), "")
        XCTAssertEqual(try doc.outline.exportOutline(), OutlineTree())
    }

    func testReopeningFindsTheSameRoot() throws {
        let doc = try makeDocument()
        try doc.outline.add(OutlineItem(title: "kept"), under: doc.outline.rootID)
        try doc.save()
        let again = try OutlineStore(context: doc.main)
        XCTAssertEqual(again.rootID, doc.outline.rootID)
        let reopened = try TestDocument(url: doc.url)
        XCTAssertEqual(reopened.outline.rootID, doc.outline.rootID)
        XCTAssertFalse(reopened.outline.rootID.isTemporary)
        XCTAssertEqual(try reopened.rows().count, 2)
        XCTAssertEqual(try reopened.outline.children(of: reopened.outline.rootID).map(\.item.title), ["kept"])
    }

    func testTheRootIDFollowsTheFirstSave() throws {
        let doc = try makeDocument()
        let temporary = doc.outline.rootID
        XCTAssertTrue(temporary.isTemporary)
        try doc.save()
        XCTAssertFalse(doc.outline.rootID.isTemporary)
        XCTAssertEqual(doc.main.resolve(temporary), doc.outline.rootID)
        try doc.outline.add(OutlineItem(title: "after save"), under: temporary)
        XCTAssertEqual(try doc.outline.children(of: doc.outline.rootID).count, 1)
    }

    func testADocumentWithTwoRootsIsReportedDamaged() throws {
        let doc = try makeDocument()
        let stray = doc.main.insert(OutlineSchema.entityName)
        stray[OutlineSchema.created] = Date()
        stray[OutlineSchema.modified] = Date()
        try doc.save()
        let error = assertOutlineError(.damagedDocument) { _ = try TestDocument(url: doc.url) }
        XCTAssertTrue(
            error?.message.hasPrefix("The outline is damaged: it has several root items (OutlineItem/p1, OutlineItem/p2)") ?? false,
            error?.message ?? "")
    }
}
