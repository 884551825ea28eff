import Foundation
import PodDocContent
import PodDocDocument
import PodDocRandom
import PodDocStore
import PodSpecs

/// Random edits of a pods document: imports of spec batches (each saved through the
/// document, as a real import is), summary edits, deletions, undo.
@MainActor
final class PodsWorkload: ChildWorkload {
    private typealias Spec = PodSpecsSchema.PodSpecEntity
    private let document: ManagedDocument
    private let batches: [SpecsPageFile]
    private let log: OperationLog

    /// - Parameter specBatches: A folder of page files (`*.json`) to import from.
    init(document: ManagedDocument, specBatches: URL?, log: OperationLog) throws {
        self.document = document
        self.log = log
        guard let specBatches else {
            throw CrashTestError(.usage, "A pods child needs --spec-batches FOLDER: page files to import from.")
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: specBatches.path).filter { $0.hasSuffix(".json") }.sorted()
        guard !names.isEmpty else {
            throw CrashTestError(.setup, "\(specBatches.path) holds no spec page files (*.json) to import.")
        }
        batches = names.map { SpecsPageFile(url: specBatches.appendingPathComponent($0)) }
    }

    func edit(using random: inout SeededRandom) async throws {
        let context = document.mainContext
        let count = try context.count(for: FetchRequest(Spec.name))
        let choice = random.below(20)
        if count == 0 || choice < 3 {
            return try await importBatch(batches[random.below(batches.count)])
        }
        switch choice {
        case 3..<13:
            if let spec = try context.fetchFirst(FetchRequest(Spec.name, offset: random.below(count))) {
                let summary = "edited \(random.below(1_000_000))"
                log.record("summary of \(describe(spec)) = \(summary)")
                spec[Spec.summary] = summary
            }
        case 13..<16:
            if let spec = try context.fetchFirst(FetchRequest(Spec.name, offset: random.below(count))) {
                log.record("delete \(describe(spec))")
                context.delete(spec)
            }
        case 16..<18:
            log.record("undo \(document.undoManager.undoActionName.map { "'\($0)'" } ?? "(nothing to undo)")")
            document.undoManager.undo()
        default:
            if let spec = try context.fetchFirst(FetchRequest(Spec.name, offset: random.below(count))) {
                log.record("toggle isDeprecated of \(describe(spec))")
                spec[Spec.isDeprecated].toggle()
            }
        }
    }

    private func describe(_ spec: ManagedObject) -> String {
        "\(spec.objectID) \(spec[Spec.key])"
    }

    /// Imports a batch in a worker context; the importer saves the document after it, and the
    /// child reports that save.
    private func importBatch(_ file: SpecsPageFile) async throws {
        log.record("import \(file.url.lastPathComponent) in a worker, then autosave")
        let document = self.document
        let importer = SpecsImporter(worker: document.newWorkerContext(name: "crash-test import")) {
            try await document.autosave()
            await CrashChild.reportSave(of: document)
        }
        try await importer.importPageFile(file)
    }
}
