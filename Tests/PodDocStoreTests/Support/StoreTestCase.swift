import Foundation
import GRDB
import PodDocStore
import Synchronization
import XCTest

/// Base class: temporary folders, stores on disk and in memory, and a stack of contexts.
class StoreTestCase: XCTestCase {
    private(set) var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appending(path: "poddoc-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
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

    /// Runs a Python snippet in a separate process against the store file (another process
    /// writing to the same document). `path` is bound in the snippet.
    func runOtherProcess(_ python: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", "import sqlite3\npath = \(String(reflecting: storeURL.path))\n" + python]
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        process.waitUntilExit()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        XCTAssertEqual(process.terminationStatus, 0, message)
    }

    /// Waits until every block queued on `context`'s queue so far has run.
    func drain(_ context: ObjectContext) async {
        await context.perform { _ in }
    }
}

/// A deterministic random number generator (SplitMix64) for seeded property tests.
struct SeededRandom: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Collects values from any thread.
final class Collector<T: Sendable>: Sendable {
    private let storage = Mutex<[T]>([])
    func append(_ value: T) { storage.withLock { $0.append(value) } }
    var values: [T] { storage.withLock { $0 } }
}
