import Foundation
import PodDocTesting
import Synchronization
import XCTest

@testable import PodDocStore
@testable import PodSpecs

/// Base class: a temporary folder, a pod specs store with its context stack, and the fixtures.
class SpecsTestCase: XCTestCase {
    private(set) var folder: URL!

    override func setUpWithError() throws {
        folder = try TemporaryFolder.make("poddoc-specs-tests")
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    /// A store of the pod specs model in the test folder.
    func makeStore(_ name: String = "persistentStore") throws -> PersistentStore {
        try PersistentStore(url: folder.appending(path: name), model: PodSpecsSchema.makeModel())
    }

    /// The number of specs saved in a store, read straight from SQLite.
    func savedKeys(_ store: PersistentStore) throws -> [String] {
        try store.unsafeRead { db in try String.fetchAll(db, sql: #"SELECT key FROM "PodSpec" ORDER BY key"#) }
    }

    /// A fast retry policy, so fault tests run quickly.
    static let quickRetry = RetryPolicy(maximumAttempts: 6, initialDelay: .milliseconds(5), maximumDelay: .milliseconds(40))

    /// A client with short timeouts: AsyncHTTPClient keeps retrying a refused connection until
    /// the request's deadline, so each attempt at a dead server lasts the whole timeout.
    func client(
        _ url: URL, retry: RetryPolicy = SpecsTestCase.quickRetry, pagesInFlight: Int = 8,
        onRetry: (@Sendable (RetryNotice) -> Void)? = nil
    ) throws -> SpecsClient {
        SpecsClient(
            configuration: try SpecsServiceConfiguration(
                baseURL: url, requestTimeout: .seconds(1), retry: retry, pagesInFlight: pagesInFlight), onRetry: onRetry)
    }
}

// MARK: - Fixtures

/// The spec fixtures in `Tests/Fixtures/specs` (made by `scripts/make-spec-fixtures.py`) and
/// the optional real data beside the repository.
enum SpecFixtures {
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // Support
        .deletingLastPathComponent()  // PodSpecsTests
        .deletingLastPathComponent()  // Tests
        .appending(path: "Fixtures/specs")

    /// `Specs/` in the 2014 layout: 86 spec files (3 malformed) and 4 stray files.
    static var flat: URL { directory.appending(path: "Specs-2014") }
    /// The same 83 good specs in the sharded layout.
    static var sharded: URL { directory.appending(path: "Specs-sharded") }
    /// Good specs, malformed spec files and stray files in ``flat``.
    static let goodSpecs = 83, malformedSpecs = 3, strayFiles = 4

    /// `SampleDocuments/specs-2014-sample.json`: one page of 300 real specs.
    static var samplePage: URL {
        directory.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appending(path: "SampleDocuments/specs-2014-sample.json")
    }

    /// `shared/data` beside the repository, or `$PODDOC_SHARED_DATA`.
    static var sharedData: URL {
        if let shared = ProcessInfo.processInfo.environment["PODDOC_SHARED_DATA"] { return URL(fileURLWithPath: shared) }
        return directory.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appending(path: "shared/data")
    }

    private static let extraction = Mutex(())

    /// The real 2014 corpus, extracted once into the temporary folder (and reused by later
    /// runs: the folder is named after the archive's size and marked when complete); skips the
    /// test when the archive is absent.
    static func corpus2014() throws -> URL {
        let archive = sharedData.appending(path: "cocoapods-specs-2014.tar.gz")
        guard let size = (try? FileManager.default.attributesOfItem(atPath: archive.path))?[.size] as? Int else {
            throw XCTSkip("The real 2014 corpus is not at \(archive.path) (set PODDOC_SHARED_DATA); skipped.")
        }
        let target = FileManager.default.temporaryDirectory.appending(path: "poddoc-corpus-2014-\(size)")
        let marker = target.appending(path: ".complete")
        try extraction.withLock { _ in
            guard !FileManager.default.fileExists(atPath: marker.path) else { return }
            // tar, not PodDocArchive: the corpus has names that differ only in case
            // (UriParser, uriparser), which the safe extractor rightly refuses, and its fsync
            // of 37,000 entries is slow. This is our own shared data, not a hostile archive.
            try? FileManager.default.removeItem(at: target)
            try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
            let tar = Process()
            tar.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            tar.arguments = ["tar", "-xzf", archive.path, "-C", target.path]
            try tar.run()
            tar.waitUntilExit()
            guard tar.terminationStatus == 0 else { throw CocoaError(.fileReadCorruptFile, userInfo: [NSFilePathErrorKey: archive.path]) }
            try Data().write(to: marker)
        }
        return target.appending(path: "Specs")
    }
}
