import Foundation
import PodDocContent
import PodDocDocument
import PodDocTesting
import XCTest

/// The committed sample documents (scripts/make-sample-documents.sh) are the format fixtures:
/// every poddoc must open them, find what they hold, and agree with their recorded hashes; so
/// must the same documents as an earlier poddoc made them, before stores kept a history
/// (Tests/Fixtures/documents-before-history).
/// They open read-only, so the committed files never change.
@MainActor
final class SampleDocumentsTests: XCTestCase {
    private var state: URL!

    override func setUp() async throws {
        state = try TemporaryFolder.make("poddoc-samples")
    }

    override func tearDown() async throws {
        try? FileManager.default.removeItem(at: state)
    }

    private static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    private static let folder = repository.appendingPathComponent("SampleDocuments")
    private static let beforeHistory = repository.appendingPathComponent("Tests/Fixtures/documents-before-history")

    func testEverySampleDocumentOpensWithItsContent() async throws {
        try await openEveryDocument(in: Self.folder)
    }

    func testTheSampleDocumentsAsAnEarlierPoddocMadeThemOpenWithTheirContent() async throws {
        try await openEveryDocument(in: Self.beforeHistory)
    }

    private func openEveryDocument(in folder: URL) async throws {
        let expected: [(String, DocumentKind, [String: Int])] = [
            ("pods-sample.poddoc", .pods, ["specs": 300]),
            ("pods-sample.poddoc.tar.zst", .pods, ["specs": 300]),
            ("outline-sample.poddoc", .outline, ["items": 642]),
            ("outline-sample.poddoc.tar.zst", .outline, ["items": 642]),
        ]
        var hashes: [DocumentKind: Set<String>] = [:]
        for (name, kind, counts) in expected {
            let url = folder.appendingPathComponent(name)
            var options = ManagedDocument.OpenOptions()
            options.autosaveInterval = nil
            // Read-only: an older document is read through a private upgraded copy and
            // checked as it is on disk.
            options.readOnly = true
            options.environment = ["XDG_STATE_HOME": state.path]
            let document = try await ManagedDocument.open(url, options: options)
            XCTAssertEqual(document.metadata.kind, kind, name)
            XCTAssertEqual(document.metadata.formatVersion, DocumentMetadata.currentFormatVersion, name)
            let found = try await document.contentCounts()
            XCTAssertEqual(found, counts, name)
            let report = try await document.verify()
            XCTAssertEqual(report.problems, [], name)
            XCTAssertEqual(report.storeHash, document.metadata.storeHash, name)
            hashes[kind, default: []].insert(report.storeHash)
            try await document.close()
        }
        XCTAssertEqual(hashes[.pods]?.count, 1, "the archive holds the package's content")
        XCTAssertEqual(hashes[.outline]?.count, 1, "the archive holds the package's content")
    }
}
