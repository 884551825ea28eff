import Foundation
import GRDBSQLite
import PodDocBenchmarkSupport
import PodDocContent
import PodDocDocument
import PodDocStore
import PodSpecs

/// `poddoc versions` on a pods document with 10,000 saves in its history: the release binary
/// end to end (start, open read-only, read the history, print), best of five, beside the
/// store's own read of it in this process.
enum VersionsBenchmark {
    static let saves = 10_000

    @MainActor
    static func run() async throws -> [String] {
        guard let catalog = try SyntheticCatalog.load(sharedData: SpecsImportBenchmark.sharedData, limit: saves) else { return [] }
        let poddoc = OutlineCommandLineBenchmark.poddocBinary
        guard FileManager.default.isExecutableFile(atPath: poddoc.path) else {
            return ["versions: skipped, build the release poddoc first (`swift build -c release --product poddoc`)"]
        }
        let folder = try scratchFolder("versions")
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appending(path: "History.poddoc")
        let document = try await ManagedDocument.create(at: url, kind: .pods)
        let storeURL = document.storeURL
        try await document.close()

        // 10,000 saves through the store's write path, a spec each (synchronous NORMAL only to
        // make them quickly; what is read is the same).
        let page = try PodSpecParser.parsePage(Data(catalog.page(0, size: saves).utf8), location: "page 0")
        var options = PersistentStore.Options(synchronous: .normal)
        options.historyRetention = HistoryRetention(maximumSaves: saves)
        let store = try PersistentStore(url: storeURL, model: DocumentType.pods.model, options: options)
        let root = ObjectContext(store: store)
        try root.performAndWait { ctx in
            for (index, spec) in page.specs.enumerated() {
                var batch = try BatchUpsert(PodSpecsSchema.PodSpecEntity.name, key: PodSpecsSchema.PodSpecEntity.key, model: store.model)
                batch.append { spec.write(to: &$0) }
                _ = try ctx.upsert(batch)
                try ctx.save(storeMetadata: [:], note: SaveNote(description: "Add spec \(index)", host: "bench", writer: "poddoc-bench"))
            }
        }
        let clock = ContinuousClock()
        var inProcess = Double.infinity
        var count = 0
        for _ in 0..<5 {
            let start = clock.now
            count = try store.history().count
            inProcess = min(inProcess, (clock.now - start).seconds)
        }
        try store.close()
        let db = try RawSQLite.open(storeURL)
        var statement: OpaquePointer?
        sqlite3_prepare_v2(
            db, "SELECT sum(length(changes) + length(summary) + length(entities) + length(description) + 60) FROM _poddoc_history", -1,
            &statement, nil)
        let bytes = sqlite3_step(statement) == SQLITE_ROW ? Int(sqlite3_column_int64(statement, 0)) : 0
        sqlite3_finalize(statement)
        sqlite3_close(db)
        guard count == saves else { throw BenchmarkError("the history holds \(count) entries, not \(saves)") }

        func best(_ arguments: [String]) throws -> Double {
            try (0..<5).map { _ in try OutlineCommandLineBenchmark.timedRun(arguments, state: folder.appending(path: "state")) }.min()!
        }
        let text = try best(["versions", url.path])
        let json = try best(["versions", url.path, "--json"])
        let info = try best(["info", url.path])
        return [
            "versions: \(saves) saves in the history (about \(bytes / saves) bytes each, a spec inserted per save)",
            String(
                format: "  `poddoc versions DOC`: %.1f ms; `--json`: %.1f ms; `poddoc info DOC` (the same start and open): %.1f ms",
                text * 1000, json * 1000, info * 1000),
            String(format: "  reading the history in the process (PersistentStore.history()): %.1f ms", inProcess * 1000),
        ]
    }
}
