import Foundation
import PodDocStore
import XCTest

@testable import PodDocDocument

/// The save's bookkeeping on its own: no file, no context, only its transitions.
final class SaveBookkeepingTests: XCTestCase {
    private let before = ["notes.txt": Data("before".utf8)]
    private let after = ["notes.txt": Data("after".utf8)]

    func testACommittedSaveTakesWhatWasCountedWhenItBegan() {
        var books = SaveBookkeeping(savedAdditionalContent: before)
        XCTAssertFalse(books.hasUnsavedWork)
        books.workerSaved()
        books.workerSaved()
        let save = books.begin(actionCount: 4, additionalContent: before)
        XCTAssertNil(save.additionalContent, "unchanged additional content is not written again")
        books.pushedToRoot()
        XCTAssertTrue(books.rootHasUnsavedChanges)
        books.workerSaved()  // during the save: the next save's
        books.committed(save)
        XCTAssertFalse(books.rootHasUnsavedChanges)
        XCTAssertEqual(books.unsavedWorkerSaves, 1)
        XCTAssertEqual(books.savedActionCount, 4)
        XCTAssertTrue(books.hasUnsavedWork)
        let next = books.begin(actionCount: 5, additionalContent: before)
        books.pushedToRoot()
        books.committed(next)
        XCTAssertFalse(books.hasUnsavedWork)
    }

    func testAdditionalContentIsSavedWhenInstalledAndUnsavedAgainWhenTheSaveFails() {
        var books = SaveBookkeeping(savedAdditionalContent: before)
        books.additionalContentEdited()
        let failing = books.begin(actionCount: 0, additionalContent: after)
        XCTAssertEqual(failing.additionalContent, after)
        XCTAssertFalse(books.additionalContentChanged, "taken by the save")
        books.failed(failing)
        XCTAssertTrue(books.additionalContentChanged)
        XCTAssertEqual(books.savedAdditionalContent, before)

        let save = books.begin(actionCount: 0, additionalContent: after)
        books.pushedToRoot()
        books.committed(save)
        XCTAssertEqual(books.savedAdditionalContent, before, "staged, not yet in place")
        books.installed(save)
        XCTAssertEqual(books.savedAdditionalContent, after)
        XCTAssertFalse(books.hasUnsavedWork)
    }

    func testEditsDuringASaveStayForTheNextOne() {
        var books = SaveBookkeeping(savedAdditionalContent: before)
        books.additionalContentEdited()
        let save = books.begin(actionCount: 1, additionalContent: after)
        books.additionalContentEdited()
        books.pushedToRoot()
        books.committed(save)
        books.installed(save)
        XCTAssertTrue(books.additionalContentChanged)
        XCTAssertTrue(books.hasUnsavedWork)
    }

    func testAFailureAfterThePushLeavesTheRootsChangesUnsaved() {
        var books = SaveBookkeeping(savedAdditionalContent: before)
        books.workerSaved()
        let save = books.begin(actionCount: 2, additionalContent: before)
        books.pushedToRoot()
        books.failed(save)
        XCTAssertTrue(books.rootHasUnsavedChanges)
        XCTAssertEqual(books.unsavedWorkerSaves, 1)
        XCTAssertEqual(books.savedActionCount, 0, "the actions are still the next save's to describe")
    }

    func testAResetKeepsTheRunningSaveAndTheDescribedActions() async {
        var books = SaveBookkeeping(savedAdditionalContent: before)
        let task = Task<ObjectContext.WrittenMerge?, any Error> { nil }
        books.started(task)
        books.described(upTo: 3)
        books.workerSaved()
        books.additionalContentEdited()
        books.pushedToRoot()
        books.reset(savedAdditionalContent: after)
        XCTAssertFalse(books.hasUnsavedWork)
        XCTAssertEqual(books.savedAdditionalContent, after)
        XCTAssertEqual(books.savedActionCount, 3)
        XCTAssertEqual(books.runningSave, task)
        _ = try? await task.value
    }

    func testAnEndedSaveClearsOnlyItself() async {
        var books = SaveBookkeeping(savedAdditionalContent: before)
        let first = Task<ObjectContext.WrittenMerge?, any Error> { nil }
        let second = Task<ObjectContext.WrittenMerge?, any Error> { nil }
        books.started(first)
        books.started(second)
        books.ended(first)
        XCTAssertEqual(books.runningSave, second, "a save started since stays the running one")
        books.ended(second)
        XCTAssertNil(books.runningSave)
        _ = try? await (first.value, second.value)
    }
}
