import PodDocStore

/// What one save of an import did.
struct BatchOutcome: Sendable {
    var pages = 0
    var created = 0
    var updated = 0
    var repeated = 0
    var rejected: [RejectedSpec] = []
    var skipped: [String] = []
    var checkpoint: ImportCheckpoint
}

// MARK: - Saving a batch of pages

extension SpecsImporter {
    private typealias E = PodSpecsSchema.PodSpecEntity

    /// Saves a batch of pages and its checkpoint: one find-or-create on the worker, a save into
    /// its parent, then the save to disk (one transaction for both).
    func commit(_ batch: (pages: [SpecsPage], repeated: Int), checkpoint: ImportCheckpoint) -> Task<BatchOutcome, any Error> {
        let worker = worker, saveParent = saveParent
        return Task {
            var specs: [PodSpec] = []
            specs.reserveCapacity(batch.pages.reduce(0) { $0 + $1.specs.count })
            var outcome = BatchOutcome(pages: batch.pages.count, repeated: batch.repeated, checkpoint: checkpoint)
            for page in batch.pages {
                specs += page.specs
                outcome.rejected += page.rejected
                outcome.skipped += page.skipped
            }
            let keys = specs.map(\.key)
            let found = try await worker.perform { [specs] ctx in
                let result = try ctx.findOrCreate(E.name, key: E.key, keys: keys) { object, index, _ in
                    specs[index].write(to: object)
                }
                try checkpoint.write(in: ctx)
                try ctx.save()
                return (result.created.count, result.updated.count)
            }
            outcome.created = found.0
            outcome.updated = found.1
            try await saveParent()
            return outcome
        }
    }
}
