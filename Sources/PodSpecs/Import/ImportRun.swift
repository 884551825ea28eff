import Foundation

/// The bookkeeping of one import run: counts, timing, the checkpoint to record next, and
/// progress reports.
struct ImportRun {
    private(set) var summary: ImportSummary
    private let progress: (@Sendable (ImportProgress) -> Void)?
    private let clock = ContinuousClock()
    private let start: ContinuousClock.Instant
    private var lastSaveStart: ContinuousClock.Instant
    /// The last page handed to a save, and the page count the source gave last.
    private var scheduledLastPage: Int
    private var numberOfPages: Int?

    init(source: String, firstPage: Int, progress: (@Sendable (ImportProgress) -> Void)?) {
        summary = ImportSummary(source: source, firstPage: firstPage, lastCompletedPage: firstPage - 1)
        self.progress = progress
        start = clock.now
        lastSaveStart = start
        scheduledLastPage = firstPage - 1
    }

    /// Time since the last save began.
    var sinceLastSave: Duration { clock.now - lastSaveStart }

    mutating func startedSave() {
        lastSaveStart = clock.now
    }

    /// The checkpoint that a save of `pages` records.
    mutating func checkpoint(after pages: [SpecsPage], complete: Bool) -> ImportCheckpoint {
        if let last = pages.last {
            scheduledLastPage = last.index
            numberOfPages = last.numberOfPages
        }
        return ImportCheckpoint(
            source: summary.source, lastCompletedPage: scheduledLastPage,
            numberOfPages: numberOfPages ?? scheduledLastPage + 1, isComplete: complete)
    }

    /// Waits for a save and counts what it saved; a failed save becomes a ``CommitFailure``.
    mutating func record(_ save: Task<BatchOutcome, any Error>) async throws {
        let outcome: BatchOutcome
        do {
            outcome = try await save.value
        } catch {
            throw CommitFailure(error: PodSpecsError.wrapping(error, while: "save imported specs of \(summary.source)"))
        }
        summary.pages += outcome.pages
        summary.created += outcome.created
        summary.updated += outcome.updated
        summary.unchanged += outcome.unchanged
        summary.repeated += outcome.repeated
        summary.rejected += outcome.rejected
        summary.skipped += outcome.skipped
        summary.warnings += outcome.warnings
        summary.lastCompletedPage = outcome.checkpoint.lastCompletedPage
        summary.numberOfPages = outcome.checkpoint.numberOfPages
        summary.isComplete = outcome.checkpoint.isComplete
        summary.elapsed = clock.now - start
        progress?(
            ImportProgress(
                source: summary.source, pagesDone: summary.pages,
                lastCompletedPage: summary.lastCompletedPage, numberOfPages: numberOfPages,
                specsDone: summary.specs, elapsed: summary.elapsed))
    }
}

/// A save of imported specs failed: the import stops at once (nothing more can be saved).
struct CommitFailure: Error {
    let error: PodSpecsError
}
