// MARK: - StagedBatches

/// The batch upserts a context has staged and not saved yet, in the order they were made.
///
/// A save takes every staged batch with it (``takeAll()``), so that a save made while it runs
/// does not carry them again, and gives them back in front if it fails
/// (``giveBack(_:takenAfter:)``), unless they were discarded meanwhile (``discardAll()``,
/// on a rollback or a reset): batches the user threw away never come back. Confined to its
/// context's queue.
struct StagedBatches {
    private var batches: [StagedBatch] = []
    /// How many times the staged batches were discarded; a save notes it when it takes them.
    private(set) var discards = 0

    /// Whether no batch is staged.
    var isEmpty: Bool { batches.isEmpty }
    /// How many batches are staged.
    var count: Int { batches.count }

    /// Stages `batch` after those staged already.
    mutating func stage(_ batch: StagedBatch) {
        batches.append(batch)
    }

    /// Stages a child's saved batches after those staged already.
    mutating func stage(contentsOf more: [StagedBatch]) {
        batches += more
    }

    /// Removes and returns the first staged batch that `matches`; nil when none does.
    mutating func unstage(where matches: (StagedBatch) -> Bool) -> StagedBatch? {
        guard let index = batches.firstIndex(where: matches) else { return nil }
        return batches.remove(at: index)
    }

    /// Takes every staged batch, for a save.
    mutating func takeAll() -> [StagedBatch] {
        defer { batches.removeAll() }
        return batches
    }

    /// Gives back the batches of a save that failed, in front of any staged since and in
    /// their order; nothing when the staged batches were discarded since the save took them
    /// (`discardCount` is ``discards`` at that time).
    mutating func giveBack(_ taken: [StagedBatch], takenAfter discardCount: Int) {
        guard discardCount == discards else { return }
        batches.insert(contentsOf: taken, at: 0)
    }

    /// Discards every staged batch (a rollback or a reset).
    mutating func discardAll() {
        batches.removeAll()
        discards += 1
    }
}
