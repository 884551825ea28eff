import Foundation
import PodDocStore

/// Imports pod specs into a store through a worker context: from a specs web service, a
/// `Specs/` folder or a page file.
///
/// The import never runs on the main actor. Pages are fetched (and parsed) ahead of the import
/// while earlier ones are saved; every few pages (``Options/specsPerSave`` specs, or
/// ``Options/maximumSaveInterval``) the worker writes them as one batch upsert (`PodDocStore.BatchUpsert`), records the last
/// page in the source's ``ImportCheckpoint`` and saves into the root context, which then saves
/// to disk: the specs and the checkpoint that counts them are always in the same transaction.
/// A main context with `automaticallyMergesChangesFromParent` receives each save.
///
/// Cancelling the task, or a failure of the source, saves the pages already fetched and
/// then throws: a resumed import (`resume: true`) continues after the last saved page.
/// Re-importing updates specs in place (keyed by `name/version`), never duplicating them.
///
/// ```swift
/// let importer = SpecsImporter(root: store.rootContext)
/// let summary = try await importer.importService(client, resume: true) { progress in
///     print(progress.pagesDone, progress.specsPerSecond)
/// }
/// ```
public final class SpecsImporter: Sendable {
    /// How often an import saves.
    public struct Options: Sendable, Hashable {
        /// Save after this many specs have been fetched since the last save.
        public var specsPerSave: Int
        /// Save at least this often while pages arrive (so a slow source still saves regularly).
        public var maximumSaveInterval: Duration

        /// Makes options; by default a save holds up to 5,000 specs or one second of pages.
        ///
        /// - Precondition: `specsPerSave` is at least 1.
        public init(specsPerSave: Int = 5_000, maximumSaveInterval: Duration = .seconds(1)) {
            precondition(specsPerSave >= 1, "an import saves at least one spec at a time")
            self.specsPerSave = specsPerSave
            self.maximumSaveInterval = maximumSaveInterval
        }
    }

    /// Saves the worker's parent to disk after each batch.
    public typealias Saver = @Sendable () async throws -> Void

    /// How often the import saves.
    public let options: Options
    let worker: ObjectContext
    let saveParent: Saver

    /// Makes an importer saving into `root` (the context attached to the store), which it
    /// saves to disk after each batch.
    ///
    /// - Parameters:
    ///   - root: The store's root context.
    ///   - options: How often to save.
    public convenience init(root: ObjectContext, options: Options = Options()) {
        self.init(worker: ObjectContext(.privateQueue, parent: root, name: "specs importer"), options: options) {
            try await root.perform { try $0.save() }
        }
    }

    /// Makes an importer that finds or creates specs in `worker` and saves it into its parent
    /// after each batch, then calls `save` to take the batch to disk: a managed document
    /// passes a worker of its own and its save, so that metadata and archives follow.
    ///
    /// - Parameters:
    ///   - worker: A private-queue context whose parent leads to the store.
    ///   - options: How often to save.
    ///   - save: Writes the parent's changes to disk; its errors end the import.
    public init(worker: ObjectContext, options: Options = Options(), save: @escaping Saver) {
        self.options = options
        self.worker = worker
        self.saveParent = save
        worker.performAndWait { $0.mergePolicy = .inMemoryWins }
    }

    // MARK: - Sources

    /// Imports the pages of a web service.
    ///
    /// - Parameters:
    ///   - client: The service's client.
    ///   - resume: Start after the page recorded in the service's checkpoint (a finished
    ///     import then has nothing left to do); otherwise start at page 0.
    ///   - progress: Called after each save, on the importing task (not the main actor).
    /// - Returns: What the import did.
    /// - Throws: ``PodSpecsError`` from the client or the store (pages before the failure
    ///   stay saved), or `CancellationError` (likewise).
    @discardableResult
    public func importService(
        _ client: SpecsClient, resume: Bool = false,
        progress: (@Sendable (ImportProgress) -> Void)? = nil
    ) async throws -> ImportSummary {
        let source = client.configuration.sourceIdentifier
        switch try await start(for: source, resume: resume) {
        case .alreadyComplete(let summary): return summary
        case .from(let first): return try await importPages(client.pages(from: first), source: source, firstPage: first, progress: progress)
        }
    }

    /// Imports a sequence of pages under a source name (its checkpoint's key).
    ///
    /// - Parameters:
    ///   - pages: The pages, in order, starting at `firstPage`.
    ///   - source: The source's identity for the checkpoint.
    ///   - firstPage: The index of the first page.
    ///   - progress: Called after each save.
    /// - Returns: What the import did.
    /// - Throws: what the sequence throws, or ``PodSpecsError`` (`.store`); the pages before
    ///   the failure stay saved.
    @discardableResult
    public func importPages<Pages: AsyncSequence>(
        _ pages: Pages, source: String, firstPage: Int = 0, progress: (@Sendable (ImportProgress) -> Void)? = nil
    ) async throws -> ImportSummary where Pages.Element == SpecsPage {
        var run = ImportRun(source: source, firstPage: firstPage, progress: progress)
        var pending = PendingPages()
        var inFlight: Task<BatchOutcome, any Error>?
        var sourceFailure: (any Error)?
        do {
            for try await page in pages {
                pending.add(page)
                guard pending.specCount >= options.specsPerSave || run.sinceLastSave >= options.maximumSaveInterval else { continue }
                let batch = pending.take()
                let prepared = try prepare(batch, checkpoint: run.checkpoint(after: batch.pages, complete: false))
                if let previous = inFlight {
                    inFlight = nil
                    try await run.record(previous)
                }
                inFlight = commit(prepared)
                run.startedSave()
            }
        } catch let failure as CommitFailure {
            throw failure.error
        } catch {
            sourceFailure = error
        }
        // Everything fetched is saved, whatever ended the loop.
        do {
            if let previous = inFlight { try await run.record(previous) }
            let batch = pending.take()
            if !batch.pages.isEmpty || sourceFailure == nil {
                try await run.record(commit(prepare(batch, checkpoint: run.checkpoint(after: batch.pages, complete: sourceFailure == nil))))
            }
        } catch let failure as CommitFailure {
            throw failure.error
        }
        if let sourceFailure { throw sourceFailure }
        return run.summary
    }

    /// Where an import of a source starts.
    enum Start {
        /// At this page: 0, or after the checkpoint when resuming.
        case from(Int)
        /// Nowhere: resuming an import that was complete.
        case alreadyComplete(ImportSummary)
    }

    func start(for source: String, resume: Bool) async throws -> Start {
        guard resume, let checkpoint = try await checkpoint(for: source) else { return .from(0) }
        guard checkpoint.isComplete else { return .from(checkpoint.nextPage) }
        return .alreadyComplete(
            ImportSummary(
                source: source, firstPage: checkpoint.nextPage, lastCompletedPage: checkpoint.lastCompletedPage,
                numberOfPages: checkpoint.numberOfPages, isComplete: true))
    }

    /// The checkpoint of a source, if an import from it has saved anything.
    ///
    /// - Throws: ``PodSpecsError`` (`.store`).
    public func checkpoint(for source: String) async throws -> ImportCheckpoint? {
        try await worker.perform { try ImportCheckpoint.read(source: source, in: $0) }
    }
}

// MARK: - Pages waiting to be saved

/// The pages fetched since the last save, with the repeated first specs dropped.
struct PendingPages {
    var pages: [SpecsPage] = []
    var specCount = 0
    var repeated = 0
    /// The key of the last spec of the previous page (kept across saves).
    private var lastKey: String?

    mutating func add(_ page: SpecsPage) {
        var page = page
        if let first = page.specs.first, first.key == lastKey {
            page.specs.removeFirst()
            repeated += 1
        }
        if let last = page.specs.last { lastKey = last.key }
        specCount += page.specs.count
        pages.append(page)
    }

    mutating func take() -> (pages: [SpecsPage], repeated: Int) {
        defer {
            pages = []
            specCount = 0
            repeated = 0
        }
        return (pages, repeated)
    }
}
