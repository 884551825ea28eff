import XCTest

@testable import PodDocStore

/// The small types that hold a context's queue-confined state, each on its own, without a
/// store or a disk.
final class ContextStateTests: XCTestCase {
    private func staged() throws -> StagedBatch {
        StagedBatch(batch: try BatchUpsert(inserting: "Item", model: testModel), receipt: BatchUpsertReceipt())
    }

    func testAFailedSaveGetsItsBatchesBackInFrontOfThoseStagedSince() throws {
        var batches = StagedBatches()
        let (first, second, later) = (try staged(), try staged(), try staged())
        batches.stage(first)
        batches.stage(contentsOf: [second])
        let discards = batches.discards
        let taken = batches.takeAll()
        XCTAssertTrue(batches.isEmpty, "a save takes every staged batch")
        batches.stage(later)
        batches.giveBack(taken, takenAfter: discards)
        XCTAssertEqual(batches.count, 3)
        XCTAssertTrue(batches.unstage { $0.receipt === first.receipt }?.receipt === first.receipt, "the given-back batches come first")
        let rest = batches.takeAll()
        XCTAssertTrue(rest.count == 2 && rest[0].receipt === second.receipt && rest[1].receipt === later.receipt)
    }

    func testBatchesDiscardedWhileASaveRanDoNotComeBackWhenItFails() throws {
        var batches = StagedBatches()
        batches.stage(try staged())
        let discards = batches.discards
        let taken = batches.takeAll()
        batches.stage(try staged())
        batches.discardAll()  // a rollback while the save runs
        XCTAssertTrue(batches.isEmpty)
        batches.giveBack(taken, takenAfter: discards)
        XCTAssertTrue(batches.isEmpty, "what the user threw away stays thrown away")
        XCTAssertNil(batches.unstage { _ in true })
    }

    func testChangesAreRecordedOnlyWhileSomeoneObserves() {
        var pending = PendingChanges()
        let id = ObjectID.permanent(entity: "Item", rowID: 1)
        pending.inserted(id)
        var taken = pending.takeForAnnouncing()
        XCTAssertTrue(taken.change.isEmpty, "nobody observes: nothing is recorded")
        XCTAssertTrue(taken.observers.isEmpty)

        let observer = Observer()
        pending.addObserver(observer)
        pending.updated(id)
        pending.deleted(ObjectID.permanent(entity: "Item", rowID: 2))
        taken = pending.takeForAnnouncing()
        XCTAssertEqual(taken.change.updated, [id])
        XCTAssertEqual(taken.change.deleted, [ObjectID.permanent(entity: "Item", rowID: 2)])
        XCTAssertTrue(taken.observers.first === observer)
        XCTAssertTrue(pending.takeForAnnouncing().change.isEmpty, "an announcement takes the changes")
    }

    func testAnObjectInsertedThenDeletedBeforeTheAnnouncementIsNotAnnounced() {
        var pending = PendingChanges()
        let observer = Observer()
        pending.addObserver(observer)
        let id = ObjectID.permanent(entity: "Item", rowID: 3)
        pending.inserted(id)
        pending.updated(id)
        pending.deleted(id)
        XCTAssertTrue(pending.takeForAnnouncing().change.isEmpty)
    }

    func testEachAnnouncementStartsAGenerationAndObserversThatAreGoneAreForgotten() {
        var pending = PendingChanges()
        let start = pending.generation
        do {
            let observer = Observer()
            pending.addObserver(observer)
        }
        XCTAssertTrue(pending.isRecording)
        pending.invalidateAll()
        let taken = pending.takeForAnnouncing()
        XCTAssertTrue(taken.change.invalidatedAll)
        XCTAssertTrue(taken.observers.isEmpty, "the observer is gone")
        XCTAssertFalse(pending.isRecording, "nobody is left to hear: recording stops")
        XCTAssertEqual(pending.generation, start + 1)
    }

    func testOneAnnouncementIsScheduledAtATime() {
        var pending = PendingChanges()
        XCTAssertTrue(pending.schedule())
        XCTAssertFalse(pending.schedule(), "scheduled already")
        pending.unschedule()
        XCTAssertFalse(pending.isScheduled)
        XCTAssertTrue(pending.schedule())
    }

    private final class Observer: ContextChangeObserver {
        func contextDidChange(_ change: ObjectsDidChange) {}
    }
}
