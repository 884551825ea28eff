import PodDocStore

/// What one save of an import did.
struct BatchOutcome: Sendable {
    var pages = 0
    var created = 0
    var updated = 0
    var unchanged = 0
    var repeated = 0
    var rejected: [RejectedSpec] = []
    var skipped: [String] = []
    var warnings: [String] = []
    var checkpoint: ImportCheckpoint
}

/// A batch of pages ready to save: their specs as one batch upsert, and the checkpoint that
/// counts them.
struct PreparedBatch: Sendable {
    let upsert: BatchUpsert
    let checkpoint: ImportCheckpoint
    var outcome: BatchOutcome
}

// MARK: - Saving a batch of pages

extension SpecsImporter {
    private typealias E = PodSpecsSchema.PodSpecEntity

    /// Turns a batch of pages into rows: run by the importing task while the previous batch
    /// is being written, so the conversion overlaps the store's work.
    ///
    /// - Throws: ``CommitFailure`` when the store's model has no `PodSpec` entity.
    func prepare(_ batch: (pages: [SpecsPage], repeated: Int), checkpoint: ImportCheckpoint) throws -> PreparedBatch {
        var outcome = BatchOutcome(pages: batch.pages.count, repeated: batch.repeated, checkpoint: checkpoint)
        var upsert: BatchUpsert
        do {
            upsert = try BatchUpsert(E.name, key: E.key, model: worker.store.model)
        } catch {
            throw CommitFailure(error: PodSpecsError.wrapping(error, while: "import pod specs into a store without the pod specs model"))
        }
        upsert.reserveCapacity(batch.pages.reduce(0) { $0 + $1.specs.count })
        for page in batch.pages {
            for spec in page.specs { upsert.append { spec.write(to: &$0) } }
            outcome.rejected += page.rejected
            outcome.skipped += page.skipped
            outcome.warnings += page.warnings
        }
        return PreparedBatch(upsert: upsert, checkpoint: checkpoint, outcome: outcome)
    }

    /// Saves a prepared batch and its checkpoint: both staged on the worker and saved into its
    /// parent, then the save to disk writes them in one transaction.
    ///
    /// A batch the store holds already, spec for spec, is not saved, nor is its checkpoint
    /// unless it is the last one and differs from the stored one: re-importing what the
    /// document holds makes no save. (A checkpoint left behind this way only makes a resumed
    /// import read again pages that changed nothing.)
    func commit(_ batch: PreparedBatch) -> Task<BatchOutcome, any Error> {
        let worker = worker
        let saveParent = saveParent
        return Task {
            let stored = try await worker.perform { ctx in
                do {
                    guard try ctx.store.holdsAllRows(of: batch.upsert) else { return false }
                    return try !batch.checkpoint.isComplete
                        || ImportCheckpoint.read(source: batch.checkpoint.source, in: ctx) == batch.checkpoint
                } catch {
                    throw PodSpecsError.wrapping(error, while: "compare imported specs with the stored ones")
                }
            }
            if stored {
                var outcome = batch.outcome
                outcome.unchanged = batch.upsert.count
                return outcome
            }
            let receipt = try await worker.perform { ctx in
                let receipt = try ctx.upsert(batch.upsert)
                try batch.checkpoint.write(in: ctx)
                try ctx.save()
                return receipt
            }
            try await saveParent()
            guard let result = receipt.result else {
                throw PodSpecsError(
                    .store,
                    "The save after page \(batch.checkpoint.lastCompletedPage) did not write its specs to the store. Resume the import to save them."
                )
            }
            var outcome = batch.outcome
            outcome.created = result.created.count
            outcome.updated = result.updated.count
            outcome.unchanged = result.unchanged.count
            return outcome
        }
    }
}
