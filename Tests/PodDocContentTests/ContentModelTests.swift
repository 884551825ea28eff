import Foundation
import PodDocContent
import PodDocDocument
import PodDocStore
import PodSpecs
import XCTest

/// Documents of each kind open with the model their metadata names.
@MainActor
final class ContentModelTests: XCTestCase {
    private var folder: URL!

    override func setUp() async throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("poddoc-content-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
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
        for kind in DocumentKind.allCases {
            let url = folder.appendingPathComponent("\(kind).poddoc")
            let created = try await ManagedDocument.create(at: url, kind: kind, options: options)
            try await created.close()
            let reopened = try await ManagedDocument.open(url, options: options)
            XCTAssertEqual(reopened.metadata.kind, kind)
            XCTAssertEqual(Set(reopened.model.entities.map(\.name)), Set(kind.objectModel.entities.map(\.name)))
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

    static let samplePage = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../SampleDocuments/specs-2014-sample.json").standardizedFileURL
}
