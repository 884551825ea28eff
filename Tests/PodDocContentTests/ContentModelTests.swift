import Foundation
import PodDocContent
import PodDocDocument
import PodDocStore
import PodDocTesting
import PodSpecs
import XCTest

/// Documents of each kind open with the model their metadata names.
@MainActor
final class ContentModelTests: XCTestCase {
    private var folder: URL!

    override func setUp() async throws {
        folder = try TemporaryFolder.make("poddoc-content")
    }

    override func tearDown() async throws {
        try? FileManager.default.removeItem(at: folder)
    }

    private var options: ManagedDocument.OpenOptions {
        var options = ManagedDocument.OpenOptions()
        options.autosaveInterval = nil
        options.environment = ["XDG_STATE_HOME": folder.appendingPathComponent("state").path]
        return options
    }

    func testEachKindReopensWithItsOwnModel() async throws {
        for kind in DocumentType.builtIn.map(\.kind) {
            let url = folder.appendingPathComponent("\(kind).poddoc")
            let created = try await ManagedDocument.create(at: url, kind: kind, options: options)
            try await created.close()
            let reopened = try await ManagedDocument.open(url, options: options)
            XCTAssertEqual(reopened.metadata.kind, kind)
            XCTAssertEqual(Set(reopened.model.entities.map(\.name)), Set(DocumentType.builtIn(kind)?.model.entities.map(\.name) ?? []))
            try await reopened.close()
        }
    }

    func testImporterSavesEachBatchThroughTheDocument() async throws {
        let url = folder.appendingPathComponent("pods.poddoc.tar.zst")
        let document = try await ManagedDocument.create(at: url, kind: .pods, options: options)
        let sequenceBefore = document.metadata.saveSequence
        let importer = SpecsImporter(document: document, options: .init(specsPerSave: 100))
        let summary = try await importer.importPageFile(SpecsPageFile(url: Self.samplePage))
        XCTAssertEqual(summary.created, 300)
        // Every batch went through the document's save: metadata counts the saves, and the
        // working copy (not the archive) holds them until an explicit save.
        XCTAssertGreaterThan(document.metadata.saveSequence, sequenceBefore)
        XCTAssertFalse(document.hasUnsavedChanges)
        try await document.close()
        let reopened = try await ManagedDocument.open(url, options: options)
        XCTAssertEqual(try reopened.mainContext.count(for: FetchRequest(PodSpecsSchema.PodSpecEntity.name)), 300)
        try await reopened.close()
    }

    /// A spec deleted and saved, then imported again, then the delete undone: the spec comes
    /// back under its own ID with its own values, and the copy imported since goes, so the
    /// store never holds the key twice (every later save would be refused) and older undo
    /// steps still find the spec. Found by `poddoc crash-test --kind pods`.
    func testUndoingTheDeleteOfASpecImportedAgainSinceKeepsOneSpecPerKey() async throws {
        typealias Spec = PodSpecsSchema.PodSpecEntity
        let document = try await ManagedDocument.create(at: folder.appendingPathComponent("undo.poddoc"), kind: .pods, options: options)
        func importSample() async throws {
            let importer = SpecsImporter(worker: document.newWorkerContext(name: "import")) { try await document.autosave() }
            _ = try await importer.importPageFile(SpecsPageFile(url: Self.samplePage))
        }
        let main = document.mainContext
        func specs(withKey key: String) throws -> [ManagedObject] {
            Array(try main.fetch(FetchRequest(Spec.name, where: Spec.key == key)))
        }
        try await importSample()
        let spec = try XCTUnwrap(try main.fetchFirst(FetchRequest(Spec.name, sortBy: [FetchSort(Spec.key)])))
        let key = spec[Spec.key]
        let id = spec.objectID
        let imported = spec[Spec.summary]
        document.undoManager.group("Edit") { spec[Spec.summary] = "edited before the delete" }
        document.undoManager.group("Delete") { main.delete(spec) }
        try await document.autosave()
        try await importSample()
        let copy = try XCTUnwrap(try specs(withKey: key).first)
        XCTAssertNotEqual(copy.objectID, id)

        document.undoManager.undo()
        try await document.autosave()
        XCTAssertEqual(try specs(withKey: key).map(\.objectID), [id], "the spec is back under its own ID, and the copy is gone")
        XCTAssertEqual(try specs(withKey: key).first?[Spec.summary], "edited before the delete")
        XCTAssertEqual(try main.count(for: FetchRequest(Spec.name)), 300)

        document.undoManager.undo()
        try await document.autosave()
        XCTAssertEqual(try specs(withKey: key).first?[Spec.summary], imported, "an older step still finds the spec")

        document.undoManager.redo()
        document.undoManager.redo()
        try await document.autosave()
        XCTAssertEqual(try specs(withKey: key).map(\.objectID), [copy.objectID], "redo deletes the spec again and brings the copy back")
        XCTAssertEqual(try main.count(for: FetchRequest(Spec.name)), 300)
        try await document.close()
    }

    static let samplePage = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../SampleDocuments/specs-2014-sample.json").standardizedFileURL
}
