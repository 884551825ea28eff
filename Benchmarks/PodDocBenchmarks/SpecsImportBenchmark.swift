import AsyncHTTPClient
import Foundation
import GRDB
import GRDBSQLite
import PodDocBenchmarkSupport
import PodDocContent
import PodDocDocument
import PodDocStore
import PodSpecs
import PodSpecsServer

/// Importing pod specs over loopback HTTP, end to end (server → client → parser → worker
/// context → root → disk), against the two floors measured in the same run: decoding the same
/// pages without storing them, and raw SQLite C upserts of the same rows.
enum SpecsImportBenchmark {
    /// The shared real data: `$PODDOC_SHARED_DATA`, or `../shared/data` beside the repository.
    static var sharedData: URL {
        if let shared = ProcessInfo.processInfo.environment["PODDOC_SHARED_DATA"] { return URL(fileURLWithPath: shared) }
        return URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appending(path: "shared/data")
    }

    /// Specs per page in the end-to-end runs (the server's page size is configurable).
    static let pageSize = 500

    // MARK: - 100,000 specs and the floors

    @MainActor
    static func run100k() async throws -> [Measurement] {
        guard let catalog = try SyntheticCatalog.load(sharedData: sharedData, limit: 100_000) else { return [] }
        let count = catalog.specCount
        let pages = (0..<((count + pageSize - 1) / pageSize)).map { Data(catalog.page($0, size: pageSize).utf8) }

        // Floor 1: decoding the same pages without storing them.
        let decoder = try measure {
            var n = 0
            for page in pages { n += try JSONDecoder().decode(DecodedPage.self, from: page).result?.count ?? 0 }
            precondition(n == count)
        }
        var parsed: [PodSpec] = []
        let parser = try measure {
            parsed = []
            parsed.reserveCapacity(count)
            for (i, page) in pages.enumerated() { parsed += try PodSpecParser.parsePage(page, index: i, location: "page \(i)").specs }
            precondition(parsed.count == count)
        }

        // Floor 2: raw SQLite upserts of the same rows, same schema (with and without the text index).
        let folder = try scratchFolder("specs-import")
        defer { try? FileManager.default.removeItem(at: folder) }
        let rows = parsed.map(SpecRow.init)
        let rawWithIndex = try measure {
            try RawSpecUpserts.run(rows, at: folder.appending(path: "raw-\(UUID().uuidString)"), fullText: true)
        }
        let rawPlain = try measure { try RawSpecUpserts.run(rows, at: folder.appending(path: "raw-\(UUID().uuidString)"), fullText: false) }
        let rawUnfolded = try measure {
            try RawSpecUpserts.run(rows, at: folder.appending(path: "raw-\(UUID().uuidString)"), fullText: true, foldedNameIndex: false)
        }
        let rawBare = try measure {
            try RawSpecUpserts.run(
                rows, at: folder.appending(path: "raw-\(UUID().uuidString)"), fullText: true, foldedNameIndex: false, searchText: false)
        }

        // Floor 3, the issue's "SQLite doing the same work": json_each and INSERT … SELECT per page.
        let jsonEach = try measure { try JSONEachSpecs.run(pages, at: folder.appending(path: "each-\(UUID().uuidString)")) }
        let jsonEachBare = try measure {
            try JSONEachSpecs.run(pages, at: folder.appending(path: "each-\(UUID().uuidString)"), searchText: false)
        }

        // A peer: what a GRDB user would write (Codable records, an upsert a spec, one write).
        let peer = try measure { try GRDBRecordPeer.run(pages, at: folder.appending(path: "peer-\(UUID().uuidString)")) }

        // End to end, over loopback HTTP.
        var best = LoopbackRun(importSeconds: .infinity, closeSeconds: 0, stall: .zero, mainBusy: .zero)
        var bestUnfolded = Double.infinity
        var bestWithoutHistory = Double.infinity
        for _ in 0..<3 {
            let run = try await importOverLoopback(catalog, folder: folder)
            print(
                "import run: \(String(format: "%.2f", run.importSeconds)) s, close \(String(format: "%.2f", run.closeSeconds)) s, stall \(format(run.stall)) (main thread busy at most \(format(run.mainBusy)))"
            )
            if run.importSeconds < best.importSeconds { best = run }
            // The same import into a document whose name index (folded) was dropped first:
            // what listing by name costs the import.
            let unfolded = try await importOverLoopback(catalog, folder: folder, droppingFoldedNameIndex: true)
            print("import run without a name index: \(String(format: "%.2f", unfolded.importSeconds)) s")
            bestUnfolded = min(bestUnfolded, unfolded.importSeconds)
            // And without recording the history: what the history costs the import.
            let unrecorded = try await importOverLoopback(catalog, folder: folder, recordingHistory: false)
            print("import run without history: \(String(format: "%.2f", unrecorded.importSeconds)) s")
            bestWithoutHistory = min(bestWithoutHistory, unrecorded.importSeconds)
        }
        let slowerFloor = max(decoder, rawWithIndex)
        let fastestFloor = min(rawWithIndex, jsonEach)
        return [
            Measurement(name: "decode pages, JSONDecoder (floor)", seconds: decoder, count: count, floorName: nil, floorSeconds: nil),
            Measurement(
                name: "decode pages, PodSpecParser (normalised + verbatim JSON)", seconds: parser, count: count, floorName: "JSONDecoder",
                floorSeconds: decoder),
            Measurement(
                name: "raw SQLite upserts + FTS5 rows (poddoc_search_text) + folded name index, one transaction (floor)",
                seconds: rawWithIndex, count: count, floorName: nil, floorSeconds: nil),
            Measurement(name: "raw SQLite upserts without FTS5", seconds: rawPlain, count: count, floorName: nil, floorSeconds: nil),
            Measurement(
                name: "raw SQLite upserts + FTS5 rows (poddoc_search_text) + plain name index", seconds: rawUnfolded, count: count,
                floorName: nil, floorSeconds: nil),
            Measurement(
                name:
                    "raw SQLite upserts + FTS5 rows of the text as it is + plain name index (the schema before Unicode folding and CJK search)",
                seconds: rawBare, count: count, floorName: nil, floorSeconds: nil),
            Measurement(
                name:
                    "SQLite doing the same work: json_each over each page, INSERT … SELECT upsert and FTS5 rows (poddoc_search_text) per page, one transaction (floor)",
                seconds: jsonEach, count: count, floorName: nil, floorSeconds: nil),
            Measurement(
                name: "the same with FTS5 rows of the text as it is (no poddoc_search_text)",
                seconds: jsonEachBare, count: count, floorName: nil, floorSeconds: nil),
            Measurement(
                name: "the same import without a name index", seconds: bestUnfolded, count: count, floorName: nil, floorSeconds: nil),
            Measurement(
                name: "the same import, recording its history, against the import with the history off", seconds: best.importSeconds,
                count: count, floorName: "history off", floorSeconds: bestWithoutHistory),
            Measurement(
                name:
                    "import over loopback HTTP into a pods document, pages of \(pageSize) (stall \(format(best.stall)), main thread busy at most \(format(best.mainBusy)); close \(String(format: "%.2f", best.closeSeconds)) s)",
                seconds: best.importSeconds, count: count, floorName: "slower floor", floorSeconds: slowerFloor),
            Measurement(
                name: "the same import against the faster SQLite floor (json_each or C upserts)", seconds: best.importSeconds,
                count: count, floorName: "faster SQLite floor", floorSeconds: fastestFloor),
            Measurement(
                name: "the same import against a GRDB record peer (JSONDecoder, Codable records, an upsert a spec, FTS5 by triggers)",
                seconds: best.importSeconds, count: count, floorName: "GRDB record peer", floorSeconds: peer),
        ]
    }

    // MARK: - The whole index

    @MainActor
    static func runWholeIndex() async throws -> [Measurement] {
        guard let catalog = try SyntheticCatalog.load(sharedData: sharedData) else { return [] }
        let folder = try scratchFolder("specs-index")
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try await importOverLoopback(catalog, folder: folder)
        let memory = peakMemory()
        try await timePrefixListings(in: folder)
        try await timeSearches(in: folder)
        print(
            "whole index: \(catalog.specCount) specs in \(String(format: "%.2f", run.importSeconds)) s (close \(String(format: "%.2f", run.closeSeconds)) s); peak memory (VmHWM) \(memory); longest main-actor stall \(format(run.stall)), main thread busy at most \(format(run.mainBusy))"
        )
        // The floor, after the import (its memory is measured above): SQLite doing the same
        // work as for 100,000 specs, over every page (made one at a time, not timed), in one
        // transaction, and committing every 5,000 specs as the import saves.
        let pageCount = (catalog.specCount + pageSize - 1) / pageSize
        func page(_ index: Int) -> Data { Data(catalog.page(index, size: pageSize).utf8) }
        let floor = try JSONEachSpecs.run(pageCount: pageCount, page: page, at: folder.appending(path: "each-\(UUID().uuidString)"))
        let floorCommitting = try JSONEachSpecs.run(
            pageCount: pageCount, page: page, at: folder.appending(path: "each-\(UUID().uuidString)"),
            pagesPerCommit: SpecsImporter.Options().specsPerSave / pageSize)
        let floorPrivate = try JSONEachSpecs.run(
            pageCount: pageCount, page: page, at: folder.appending(path: "each-\(UUID().uuidString)"), journal: false)
        return [
            Measurement(
                name:
                    "whole index over loopback HTTP into a pods document, pages of \(pageSize) (VmHWM \(memory), stall \(format(run.stall)), main busy \(format(run.mainBusy)), close \(String(format: "%.2f", run.closeSeconds)) s)",
                seconds: run.importSeconds, count: catalog.specCount, floorName: "SQLite doing the same work, one transaction",
                floorSeconds: floor),
            Measurement(
                name: "the same against SQLite doing the same work, a commit every 5,000 specs (as the import saves)",
                seconds: run.importSeconds, count: catalog.specCount, floorName: "SQLite, committing as the import does",
                floorSeconds: floorCommitting),
            Measurement(
                name: "the same against SQLite building a new store in a private file, no journal, synced and renamed into place",
                seconds: run.importSeconds, count: catalog.specCount, floorName: "SQLite, private file without a journal",
                floorSeconds: floorPrivate),
        ]
    }

    /// The document an import left in `folder`, opened read-only; nil when there is none.
    @MainActor
    static func openImported(in folder: URL) async throws -> ManagedDocument? {
        guard
            let url = try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil).first(where: {
                $0.pathExtension == "poddoc"
            })
        else { return nil }
        var options = ManagedDocument.OpenOptions()
        options.readOnly = true
        return try await ManagedDocument.open(url, options: options)
    }

    /// Case-insensitive prefix listings of the imported document (as `pods ls DOC PREFIX` and
    /// `pods count` ask them), best of five each.
    @MainActor
    static func timePrefixListings(in folder: URL) async throws {
        guard let document = try await openImported(in: folder) else { return }
        let root = document.rootContext
        for prefix in ["af", "AFNet", "se", "über", "z"] {
            let (count, listed, seconds) = try await root.perform { context in
                var best = Double.infinity
                var count = 0
                var listed = 0
                for _ in 0..<5 {
                    let start = ContinuousClock.now
                    count = try SpecsQueries.count(in: context, namePrefix: prefix)
                    listed = try SpecsQueries.list(in: context, namePrefix: prefix, limit: 50).count
                    best = min(best, (ContinuousClock.now - start).seconds)
                }
                return (count, listed, best)
            }
            print("prefix \(prefix): \(count) specs counted and the first \(listed) listed in \(String(format: "%.1f", seconds * 1000)) ms")
        }
        try await document.close()
    }

    /// One-word and two-word searches of the imported document (as `pods search DOC WORDS`
    /// asks them: the best 100 by rank), best of five each, beside the count of all matches.
    @MainActor
    static func timeSearches(in folder: URL) async throws {
        guard let document = try await openImported(in: folder) else { return }
        let store = document.rootContext.store
        for words in [
            "keychain", "websockets", "pdf", "rendering", "networking", "caching", "retries", "library", "pdf rendering", "简单", "nothing",
        ] {
            let (found, seconds) = try await Task.detached {
                var best = Double.infinity
                var found = 0
                for _ in 0..<5 {
                    let start = ContinuousClock.now
                    found = try SpecsQueries.search(words, in: store, limit: 100).count
                    best = min(best, (ContinuousClock.now - start).seconds)
                }
                return (found, best)
            }.value
            // Floors: SQLite's FTS5 answering the same query on the same file through a
            // connection of its own (GRDB, read-only), unranked
            // (every match's row id, in index order) and ranked by its own bm25.
            let query = SearchText.matchExpression(for: words) ?? "x"
            var readOnly = Configuration()
            readOnly.readonly = true
            let floorConnection = try DatabaseQueue(path: document.storeURL.path, configuration: readOnly)
            let (matches, unranked, bm25) = try await floorConnection.read { db in
                var matches = 0
                var unranked = Double.infinity
                var bm25 = Double.infinity
                for _ in 0..<5 {
                    var start = ContinuousClock.now
                    matches = try Int64.fetchAll(
                        db, sql: #"SELECT rowid FROM "PodSpec_fts" WHERE "PodSpec_fts" MATCH ?"#, arguments: [query]
                    ).count
                    unranked = min(unranked, (ContinuousClock.now - start).seconds)
                    start = ContinuousClock.now
                    _ = try Int64.fetchAll(
                        db, sql: #"SELECT rowid FROM "PodSpec_fts" WHERE "PodSpec_fts" MATCH ? ORDER BY bm25("PodSpec_fts") LIMIT 100"#,
                        arguments: [query])
                    bm25 = min(bm25, (ContinuousClock.now - start).seconds)
                }
                return (matches, unranked, bm25)
            }
            print(
                "search \(words): the best \(found) of \(matches) matching specs in \(String(format: "%.1f", seconds * 1000)) ms; floors: all matches unranked \(String(format: "%.1f", unranked * 1000)) ms, FTS5 bm25 best 100 \(String(format: "%.1f", bm25 * 1000)) ms"
            )
        }
        try await document.close()
    }

    // MARK: - End to end

    /// Serves the catalog on loopback and imports it into a new pods document (a package) as
    /// the CLI does: `SpecsImporter(document:)`, each batch saved by the document's autosave
    /// (store transaction with the checkpoint and save metadata, then DocumentMetadata.json),
    /// the document's main context merging every save, and a ticker on the main actor.
    /// Times the import (first request to last save) and, apart, closing the document (which
    /// hashes the store once, as autosaves do not).
    @MainActor
    static func importOverLoopback(
        _ catalog: SyntheticCatalog, folder: URL, droppingFoldedNameIndex: Bool = false, recordingHistory: Bool = true
    ) async throws -> LoopbackRun {
        let server = SpecsServer(catalog: catalog, configuration: .init(pageSize: pageSize))
        try await server.start()
        defer { Task { await server.stop() } }
        let document = try await ManagedDocument.create(at: folder.appending(path: "specs-\(UUID().uuidString).poddoc"), kind: .pods)
        if droppingFoldedNameIndex {
            let db = try RawSQLite.open(document.storeURL)
            try RawSQLite.exec(db, #"DROP INDEX "PodSpec_name_folded""#)
            sqlite3_close(db)
        }
        if !recordingHistory { document.rootContext.store.historyRetention = nil }
        let client = SpecsClient(configuration: try SpecsServiceConfiguration(baseURL: server.baseURL!))
        let importer = SpecsImporter(document: document)
        let meter = StallMeter()
        meter.start()
        let start = ContinuousClock.now
        let summary = try await Task.detached { try await importer.importService(client) }.value
        let imported = ContinuousClock.now
        meter.stop()
        precondition(summary.created == catalog.specCount && summary.isComplete, "import incomplete: \(summary.created)")
        await server.stop()
        try await document.close()
        return LoopbackRun(
            importSeconds: (imported - start).seconds, closeSeconds: (ContinuousClock.now - imported).seconds,
            stall: meter.longest, mainBusy: meter.longestBusy)
    }
}

/// One end-to-end import.
struct LoopbackRun {
    let importSeconds: Double
    let closeSeconds: Double
    let stall: Duration
    /// The main thread's longest stretch of CPU work between two ticks.
    let mainBusy: Duration
}

// MARK: - Main-actor stalls

/// Wakes on the main actor every millisecond and records the longest lateness, and the most
/// CPU time the main thread used between two ticks: the main actor's own longest stretch of
/// work, which lateness overstates on a loaded machine (it includes waiting for a core).
@MainActor
final class StallMeter {
    private(set) var longest = Duration.zero
    private(set) var longestBusy = Duration.zero
    private var task: Task<Void, Never>?

    func start() {
        task = Task { @MainActor in
            let clock = ContinuousClock()
            var last = clock.now
            var lastCPU = mainThreadCPUTime()
            while !Task.isCancelled {
                try? await Task.sleep(for: .milliseconds(1), tolerance: .zero)
                let now = clock.now
                let cpu = mainThreadCPUTime()
                longest = max(longest, now - last - .milliseconds(1))
                longestBusy = max(longestBusy, .nanoseconds(Int64((cpu - lastCPU) * 1e9)))
                last = now
                lastCPU = cpu
            }
        }
    }

    func stop() { task?.cancel() }
}

func peakMemory() -> String {
    let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
    let line = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") } ?? "VmHWM: ?"
    return line.dropFirst("VmHWM:".count).trimmingCharacters(in: .whitespaces)
}

func format(_ duration: Duration) -> String {
    String(format: "%.1f ms", duration.seconds * 1000)
}

extension Duration {
    var seconds: Double {
        let (s, atto) = components
        return Double(s) + Double(atto) / 1e18
    }
}

// MARK: - The JSONDecoder floor

/// The same fields decoded with Foundation's JSONDecoder (no verbatim text: it cannot give one).
struct DecodedPage: Decodable {
    let numberOfPages: Int
    let result: [DecodedSpec]?

    enum CodingKeys: String, CodingKey {
        case numberOfPages = "number_of_pages"
        case result
    }
}

struct DecodedSpec: Decodable {
    let name: String
    let version: String
    let summary: String?
    let description: String?
    let homepage: String?
    let license: DecodedLicense?
    let authors: DecodedAuthors?
    let source: [String: String]?
    let platforms: [String: String?]?
    let requiresARC: Bool?
    let socialMediaURL: String?

    enum CodingKeys: String, CodingKey {
        case name, version, summary, description, homepage, license, authors, source, platforms
        case requiresARC = "requires_arc"
        case socialMediaURL = "social_media_url"
    }
}

enum DecodedLicense: Decodable {
    case type(String)
    case object([String: String])
    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let type = try? container.decode(String.self) {
            self = .type(type)
        } else {
            self = .object(try container.decode([String: String].self))
        }
    }
}

enum DecodedAuthors: Decodable {
    case object([String: String?])
    case string(String)
    case array([String])
    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let name = try? container.decode(String.self) {
            self = .string(name)
        } else if let names = try? container.decode([String].self) {
            self = .array(names)
        } else {
            self = .object(try container.decode([String: String?].self))
        }
    }
}
