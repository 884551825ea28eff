import Foundation
import GRDB
import Synchronization
import XCTest

@testable import PodDocStore

/// An older version of a store put back at its place (a `git checkout` of another branch, a
/// restored backup) and written again: with a ledger, it takes a new replica identity, so its
/// saves and new objects never take the names and ids the version that went on already gave,
/// and the two lines merge with both lines' work.
final class ReplicaLedgerTests: StoreTestCase {
    /// A ledger in memory, as the document layer keeps one in the state folder.
    private final class MemoryLedger: ReplicaLedger {
        let notes = Mutex<[String: Int64]>([:])
        func newestSave(of replica: String) -> Int64? { notes.withLock { $0[replica] } }
        func note(_ sequence: Int64, of replica: String) { notes.withLock { $0[replica] = max($0[replica] ?? 0, sequence) } }
    }

    private let tree = OrderedTree(entity: "Item", parent: Item.parent, order: Item.order)

    private func open(_ url: URL, ledger: (any ReplicaLedger)?) throws -> PersistentStore {
        var options = PersistentStore.Options()
        options.replicaLedger = ledger
        return try PersistentStore(url: url, model: testModel, options: options)
    }

    private func add(_ store: PersistentStore, _ title: String, order: Int) throws -> Int64 {
        try ObjectContext(store: store).performAndWait { ctx in
            let item = ctx.insert("Item")
            item[Item.title] = title
            item[Item.order] = order
            try ctx.save()
            return item.objectID.rowID!
        }
    }

    private func replicaID(_ store: PersistentStore) throws -> String {
        try store.unsafeRead { try Replica.recorded($0).id }
    }

    private func titles(_ store: PersistentStore) throws -> [String] {
        try ObjectContext(store: store).performAndWait { ctx in
            try ctx.fetch(FetchRequest("Item", sortBy: [FetchSort(Item.title)])).map { $0[Item.title] }
        }
    }

    /// Saves `Base`, keeps that version aside, saves `Later` on it; puts the kept version
    /// back at the same place and saves `Other` there. Returns the two versions' stores.
    private func twoLinesAtOnePlace(
        ledger: (any ReplicaLedger)?
    ) throws -> (later: PersistentStore, other: PersistentStore, ids: (Int64, Int64)) {
        let url = folder.appending(path: "store")
        let kept = folder.appending(path: "kept")
        let first = try open(url, ledger: ledger)
        _ = try add(first, "Base", order: 0)
        _ = try add(first, "Next", order: 1)
        try first.checkpoint()
        try first.close()
        try FileManager.default.copyItem(at: url, to: kept)
        let going = try open(url, ledger: ledger)
        let later = try add(going, "Later", order: 2)
        try going.checkpoint()
        try going.close()
        // The version that went on goes aside; the older one is put back in its place.
        let wentOn = folder.appending(path: "went-on")
        try FileManager.default.moveItem(at: url, to: wentOn)
        try FileManager.default.moveItem(at: kept, to: url)
        let putBack = try open(url, ledger: ledger)
        let other = try add(putBack, "Other", order: 2)
        return (try open(wentOn, ledger: nil), putBack, (later, other))
    }

    func testAnOlderVersionPutBackTakesANewIdentityAndBothLinesMerge() throws {
        let (later, other, ids) = try twoLinesAtOnePlace(ledger: MemoryLedger())
        XCTAssertNotEqual(try replicaID(later), try replicaID(other), "the version put back is a replica of its own")
        XCTAssertNotEqual(ids.0, ids.1, "its new object took an id of its own range")
        let merge = try mergeAndSave(other, later, trees: [tree])
        XCTAssertEqual(merge.outcome, .merged)
        XCTAssertEqual(try titles(other), ["Base", "Later", "Next", "Other"])
        XCTAssertEqual(try other.integrityProblems(), [])
    }

    func testWithoutALedgerTheTwoLinesAreNotToldApart() throws {
        // What the ledger is for: the same identity, the same next id, and a merge that
        // takes one line's save for the other's.
        let (later, other, ids) = try twoLinesAtOnePlace(ledger: nil)
        XCTAssertEqual(try replicaID(later), try replicaID(other))
        XCTAssertEqual(ids.0, ids.1)
        XCTAssertEqual(try mergeAndSave(other, later, trees: [tree]).outcome, .upToDate)
    }

    func testAStoreThatGoesOnKeepsItsIdentity() throws {
        let ledger = MemoryLedger()
        let store = try open(folder.appending(path: "store"), ledger: ledger)
        _ = try add(store, "One", order: 0)
        let id = try replicaID(store)
        _ = try add(store, "Two", order: 1)
        try store.close()
        let reopened = try open(folder.appending(path: "store"), ledger: ledger)
        _ = try add(reopened, "Three", order: 2)
        XCTAssertEqual(try replicaID(reopened), id)
        XCTAssertEqual(ledger.newestSave(of: id), 3)
    }
}
