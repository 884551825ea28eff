import Foundation
import GRDB
import PodDocRandom
import PodDocStore
import PodDocTesting
import Synchronization
import XCTest

/// Base class: temporary folders, stores on disk and in memory, and a stack of contexts.
class StoreTestCase: XCTestCase {
    private(set) var folder: URL!

    override func setUpWithError() throws {
        folder = try TemporaryFolder.make("poddoc-tests")
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    var storeURL: URL { folder.appending(path: "persistentStore") }

    func makeStore(inMemory: Bool = false, options: PersistentStore.Options = .init()) throws -> PersistentStore {
        try PersistentStore(url: inMemory ? nil : storeURL, model: testModel, options: options)
    }

    /// Runs `test` once against an in-memory store and once against a file.
    func forEachStore(_ test: (PersistentStore) throws -> Void) throws {
        try test(makeStore(inMemory: true))
        try test(PersistentStore(url: folder.appending(path: "each-\(UUID().uuidString)"), model: testModel))
    }

    /// A second, independent connection on the store file: what another process would see.
    func otherConnection() throws -> DatabaseQueue {
        var config = Configuration()
        config.readonly = true
        return try DatabaseQueue(path: storeURL.path, configuration: config)
    }

    func titlesOnDisk() throws -> [String] {
        try otherConnection().read { try String.fetchAll($0, sql: #"SELECT title FROM "Item" ORDER BY title"#) }
    }

    /// Writes to the store file through a connection of its own (what another process
    /// writing to the same document does), then closes it.
    func writeFromAnotherConnection(_ sql: String, arguments: StatementArguments = []) throws {
        let other = try DatabaseQueue(path: storeURL.path)
        try other.write { try $0.execute(sql: sql, arguments: arguments) }
        try other.close()
    }

    /// Waits until every block queued on `context`'s queue so far has run.
    func drain(_ context: ObjectContext) async {
        await context.perform { _ in }
    }
}

/// Collects values from any thread.
final class Collector<T: Sendable>: Sendable {
    private let storage = Mutex<[T]>([])
    func append(_ value: T) { storage.withLock { $0.append(value) } }
    var values: [T] { storage.withLock { $0 } }

}

/// How ``StoreTestCase/mergeAndSave(_:_:trees:prefer:twoWay:base:)`` writes a merge: as rows
/// straight to the store (as `poddoc merge` does), or applied to a context's objects first
/// (`ObjectContext.apply(_:)`, then a save). A task-local value, so a test can take both ways.
enum MergeWriting {
    @TaskLocal static var asObjects = false
}

extension StoreTestCase {
    /// Merges `theirs` into `mine` as `poddoc merge` does, and saves the result with the
    /// merge's record: nothing is saved while conflicts stand unresolved, or when mine holds
    /// theirs already.
    @discardableResult
    func mergeAndSave(
        _ mine: PersistentStore, _ theirs: PersistentStore, trees: [OrderedTree], prefer: MergeSide? = nil, twoWay: Bool = false,
        base: PersistentStore? = nil
    ) throws -> CopyMerge {
        let plan = try CopyMerge.plan(mine: mine, theirs: theirs, trees: trees, preferring: prefer, twoWay: twoWay, base: base)
        guard plan.canApply, plan.outcome != .upToDate else { return plan }
        let note = SaveNote(description: "merge", merge: plan.record)
        try ObjectContext(store: mine).performAndWait { ctx in
            if MergeWriting.asObjects {
                try ctx.apply(plan)
                try ctx.save(storeMetadata: [:], note: note)
            } else {
                _ = try ctx.save(applying: plan, note: note)
            }
        }
        return plan
    }
}
