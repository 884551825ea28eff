// MARK: - Batch upserts

extension ObjectContext {
    /// Stages a batch upsert (or a batch insert): its rows go to the parent with the next
    /// `save()`, and the root context's save writes them to the store in the same transaction
    /// as its other changes, after them (so rows may point at objects inserted in that save).
    /// See ``BatchUpsert`` for the semantics. With an undo manager recording, a keyed batch
    /// is one undoable step (an insert batch records none: see
    /// ``ObjectUndoManager/registerDeletion(of:)``).
    ///
    /// - Returns: the receipt whose ``BatchUpsertReceipt/result`` the root's save fills in.
    /// - Throws: ``StoreError``: `.validation` when a row lacks its key or a required
    ///   attribute, or points at a later row or an object of another entity; `.invalidModel`
    ///   when the batch was made for another model. Nothing is staged then.
    public func upsert(_ batch: BatchUpsert) throws -> BatchUpsertReceipt {
        preconditionOnQueue()
        guard model.entity(named: batch.entityName)?.attributes == batch.layout.attributes else {
            throw StoreError.invalidModel(
                "This batch upsert was made for another model than the one of context '\(name)'; make it with the context's model.")
        }
        try batch.validate()
        let receipt = BatchUpsertReceipt()
        if batch.isEmpty {
            receipt.fulfil(BatchUpsertResult())
        } else {
            let staged = StagedBatch(batch: batch, receipt: receipt)
            if !batch.isInsertOnly, let undo = _undoManager, undo.isUndoRegistrationEnabled { undo.register(.revertBatch(staged)) }
            stagedBatches.stage(staged)
        }
        return receipt
    }

    /// After a save (which took the batches out of this context when it began): a root
    /// context fills in their receipts and brings its own registered objects up to date with
    /// what it wrote.
    func finishBatches(_ changes: ChangeSet, _ outcome: PushOutcome) {
        guard !changes.batches.isEmpty, case .store = parent else { return }
        for (staged, written) in zip(changes.batches, outcome.batches) { staged.receipt.fulfil(written) }
        mergeWrittenBatches(outcome.batches)
    }

    /// Tells observers about the rows of written batches and updates the registered objects
    /// among them (their unsaved changes stay on top). Rows of objects this context does not
    /// hold cost a dictionary lookup each; nothing is materialised for them.
    func mergeWrittenBatches(_ batches: [WrittenBatch]) {
        for written in batches {
            if pending.isRecording {
                for id in written.result.created { pending.inserted(id) }
            }
            // An insert batch made only new objects: none of them is registered anywhere.
            guard !written.batch.isInsertOnly, !registry.isEmpty || pending.isRecording else { continue }
            let batch = written.batch
            let width = batch.layout.attributes.count
            for index in 0..<batch.count where !written.unchangedRows.contains(index) {
                let id = written.id(ofRow: index)
                // (Rows created by the batch are pending inserts already: `updated` skips them.)
                guard let object = registry[id], !object.isFault, var row = object.snapshot else {
                    pending.updated(id)
                    continue
                }
                for field in batch.columns { row.values[field] = batch.values[index * width + field] }
                mergeSavedRow(VersionedRow(id: id, row: row, version: written.versions[index]), into: object)
            }
        }
    }
}
