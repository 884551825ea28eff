import Foundation
import OutlineInterchange
import Outliner
import PodDocBenchmarkSupport
import PodDocDocument
import PodDocStore

// What the harness's benchmarks work on, made once per benchmark (each runs in a process of its
// own) by its `setup:` closure. Data, record makers, floors and readings come from
// PodDocBenchmarkSupport, which poddoc-bench uses too: nothing here repeats them.

// MARK: - Data for benchmarks off the main actor

/// The records of find-or-create: `count` of them, and the half already stored.
struct FindOrCreateData: Sendable {
    let all: [FindOrCreateBenchmark.Record]
    let existing: [FindOrCreateBenchmark.Record]

    init(count: Int) {
        all = FindOrCreateBenchmark.records(count, revision: 2)
        existing = FindOrCreateBenchmark.existingRecords(count)
    }
}

/// The "Archive" part of the benchmark outline at a tenth of poddoc-bench's size: 10 years × 9
/// months × 110 notes, 10,001 items, as a tree (for the raw floor) and as OPML.
struct OutlineImportData: Sendable {
    let tree: OutlineTree
    let opml: Data

    init() throws {
        tree = OutlineBenchmarkDocument.benchmarkTree(archiveYears: 10, projects: 0)
        opml = try tree.opmlData()
    }
}

// MARK: - Work on the main actor

/// The outline import: the document's main context is confined to the main thread.
@MainActor
enum OutlineImportWork {
    /// A new outline store at `url`: parse `opml`, insert it on the main context, save main →
    /// root → disk.
    static func importAndSave(_ opml: Data, at url: URL) throws {
        let document = try OutlineBenchmarkDocument(url: url)
        try document.outline.importOutline(opml, as: .opml)
        try document.save()
    }

    /// An outline store with no items, for the raw floor to write into (not measured).
    nonisolated static func makeEmptyStore(at url: URL) throws {
        try PersistentStore(url: url, model: ObjectModel(version: 1, entities: OutlineSchema.entities)).close()
    }
}

/// A 100,001-item outline, saved, then opened afresh as poddoc-bench opens its million-item
/// one: "Archive" (10,001 items) first, then 90 projects of 1,000 items.
@MainActor
final class OutlineFixture {
    /// Items in "Archive", itself included.
    static let archiveItems = 10_001
    /// The fixture of this process, for `closeCurrent()` (teardown closures get no setup state).
    private static var current: OutlineFixture?

    let folder: URL
    let document: OutlineBenchmarkDocument
    let archive: ObjectID

    private init(folder: URL, document: OutlineBenchmarkDocument, archive: ObjectID) {
        self.folder = folder
        self.document = document
        self.archive = archive
    }

    /// Builds the outline (import on the main context, save to disk), then opens it again.
    static func open() throws -> OutlineFixture {
        let folder = try scratchFolder("harness-outline")
        let url = folder.appending(path: "outline.sqlite")
        try build(at: url)
        let document = try OutlineBenchmarkDocument(url: url)
        let archive = try document.outline.itemID(at: .indexes([1]))
        let fixture = OutlineFixture(folder: folder, document: document, archive: archive)
        current = fixture
        return fixture
    }

    /// The document that builds the outline goes away before the benchmark's document opens.
    private static func build(at url: URL) throws {
        let builder = try OutlineBenchmarkDocument(url: url)
        try builder.outline.importOutline(OutlineBenchmarkDocument.benchmarkTree(archiveYears: 10, projects: 90))
        try builder.save()
    }

    /// Deletes "Archive" and everything below it on the main context (not saved).
    func deleteArchive() throws {
        let deleted = try document.outline.delete(archive)
        guard deleted == Self.archiveItems else { throw BenchmarkError("deleted \(deleted) items, not \(Self.archiveItems)") }
    }

    /// Undoes the last change (the delete).
    func undo() {
        document.undo.undo()
    }

    /// Lets go of the outline and removes its folder.
    static func closeCurrent() {
        guard let fixture = current else { return }
        current = nil
        try? FileManager.default.removeItem(at: fixture.folder)
    }
}

/// A package document of 10,000 notes whose every title changes before each autosave, as in
/// poddoc-bench's `autosave`.
@MainActor
final class AutosaveFixture {
    static let notes = 10_000
    /// The fixture of this process, for `closeCurrent()`.
    private static var current: AutosaveFixture?

    let folder: URL
    let document: ManagedDocument
    private var round = 0

    private init(folder: URL, document: ManagedDocument) {
        self.folder = folder
        self.document = document
    }

    /// Creates the document (autosave timer off) with its notes saved; `recordingHistory`
    /// false turns the store's history off (what recording it costs).
    static func open(recordingHistory: Bool = true) async throws -> AutosaveFixture {
        let folder = try scratchFolder("harness-autosave")
        let document = try await ManagedDocument.create(
            at: folder.appending(path: "Auto.poddoc"), kind: DocumentKind("org.poddoc.benchmarks.notes"),
            model: try DocumentBenchmarks.model(), options: DocumentBenchmarks.options(folder))
        if !recordingHistory { document.rootContext.store.historyRetention = nil }
        for i in 0..<notes { document.mainContext.insert("Note")[DocumentBenchmarks.title] = "note \(i)" }
        try await document.save()
        let fixture = AutosaveFixture(folder: folder, document: document)
        current = fixture
        return fixture
    }

    /// Changes every note's title (not measured).
    func changeEveryNote() throws {
        round += 1
        for note in try document.mainContext.fetch(FetchRequest("Note")) {
            note[DocumentBenchmarks.title] = "note \(round) \(note.objectID)"
        }
        document.mainContext.processPendingChanges()
    }

    /// One autosave of the changes; throws if it did not save them.
    func autosave() async throws {
        await document.autosaveIfNeeded()
        guard document.autosaveStatus.lastError == nil, document.autosaveStatus.lastSuccess != nil, !document.hasUnsavedChanges else {
            throw BenchmarkError("autosave failed: \(String(describing: document.autosaveStatus.lastError))")
        }
    }

    /// The longest the main actor was busy at a stretch while `body` ran and for 100 ms after
    /// (the main context's merge of the root's save is in it), in microseconds: a ticker on the
    /// main actor wakes every millisecond and keeps the longest it waited beyond that.
    ///
    /// (The runner's main actor does not run on the main thread, so the main thread's CPU time,
    /// which poddoc-bench reads, says nothing here.)
    func longestMainActorStall(during body: () async throws -> Void) async throws -> Int {
        let ticker = Task { @MainActor in
            var longest = Duration.zero
            while !Task.isCancelled {
                let start = ContinuousClock.now
                try? await Task.sleep(for: .milliseconds(1))
                longest = max(longest, ContinuousClock.now - start - .milliseconds(1))
            }
            return longest
        }
        try await body()
        try await Task.sleep(for: .milliseconds(100))
        ticker.cancel()
        let longest = await ticker.value
        return Int(longest.components.seconds * 1_000_000 + longest.components.attoseconds / 1_000_000_000_000)
    }

    /// Closes the document and removes its folder.
    static func closeCurrent() async throws {
        guard let fixture = current else { return }
        current = nil
        defer { try? FileManager.default.removeItem(at: fixture.folder) }
        try await fixture.document.close()
    }
}
