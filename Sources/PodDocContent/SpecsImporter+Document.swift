import Foundation
public import PodDocDocument
public import PodSpecs

// MARK: - Importing into a document

extension SpecsImporter {
    /// Makes an importer for a pods document: it works in a worker context of the document's
    /// and, after each batch, saves the document as autosave does (in place for a package,
    /// into the working copy for an archive), so metadata and recovery follow every batch.
    ///
    /// - Parameters:
    ///   - document: An open, writable pods document.
    ///   - options: How often to save.
    @MainActor
    public convenience init(document: ManagedDocument, options: Options = Options()) {
        let run = UUID().uuidString
        self.init(worker: document.newWorkerContext(name: "specs importer"), options: options) {
            try await document.autosave(describing: "Import pod specs", run: run)
        }
    }
}
