import Foundation
import PodDocFileSystem
import XCTest

@testable import PodDocDocument

/// Autosaves leave the store's logical hash behind (hashing reads the whole store); explicit
/// saves, copies, closing and opening bring it up to date, and the metadata says which save
/// the hash describes.
@MainActor
final class StoreHashTests: DocumentTestCase {
    func testAutosavesKeepTheHashOfTheLastHashedSaveAndClosingUpdatesIt() async throws {
        let package = url("Hash.poddoc")
        let document = try await ManagedDocument.create(at: package, kind: .notes, model: Note.model, options: options)
        addNote(document, "saved")
        try await document.save()
        XCTAssertTrue(document.metadata.isStoreHashCurrent)
        let savedHash = document.metadata.storeHash
        XCTAssertEqual(try ContentDigest.store(document.store), savedHash)

        addNote(document, "autosaved")
        try await document.autosave()
        let onDisk = try readMetadata(package)
        XCTAssertEqual(onDisk.saveSequence, 2)
        XCTAssertEqual(onDisk.storeHashSaveSequence, 1, "an autosave does not hash the store")
        XCTAssertEqual(onDisk.storeHash, savedHash)
        XCTAssertFalse(onDisk.isStoreHashCurrent)

        try await document.close()
        let closed = try readMetadata(package)
        XCTAssertEqual(closed.saveSequence, 2, "closing hashed without another save")
        XCTAssertEqual(closed.storeHashSaveSequence, 2)
        XCTAssertNotEqual(closed.storeHash, savedHash)

        let reopened = try await ManagedDocument.open(package, model: Note.model, options: options)
        XCTAssertEqual(try ContentDigest.store(reopened.store), closed.storeHash)
        try await reopened.close()
    }

    func testOpeningAfterACrashHashesWhatTheAutosavesLeft() async throws {
        let package = url("Crashed.poddoc")
        let document = try await ManagedDocument.create(at: package, kind: .notes, model: Note.model, options: options)
        addNote(document, "autosaved")
        try await document.autosave()
        XCTAssertFalse(try readMetadata(package).isStoreHashCurrent)
        // As after a crash: a copy of the files as the autosave left them (store, WAL, metadata).
        let crashed = url("Copy.poddoc")
        try FileManager.default.copyItem(at: package, to: crashed)
        try await document.close()
        let stale = try readMetadata(crashed)
        XCTAssertFalse(stale.isStoreHashCurrent)

        let reopened = try await ManagedDocument.open(crashed, model: Note.model, options: options)
        let repaired = try readMetadata(crashed)
        XCTAssertEqual(repaired.saveSequence, stale.saveSequence)
        XCTAssertTrue(repaired.isStoreHashCurrent)
        XCTAssertEqual(repaired, reopened.metadata)
        XCTAssertEqual(try ContentDigest.store(reopened.store), repaired.storeHash)
        try await reopened.close()
    }

    func testMetadataWithoutTheFieldReadsAsCurrent() throws {
        let json = """
            {"additionalContent": [], "created": "2026-01-01T00:00:00Z", "documentID": "6A3F2A9E-7A34-4F6B-9C55-7D8B5F0C1E2A",
             "formatVersion": 1, "kind": "outline", "modified": "2026-01-01T00:00:00Z", "saveSequence": 4,
             "schemaVersion": 1, "storeHash": "sha256:00", "writer": "poddoc 0.1.0"}
            """
        let metadata = try DocumentMetadata.decode(Data(json.utf8), path: "DocumentMetadata.json")
        XCTAssertNil(metadata.storeHashSaveSequence)
        XCTAssertTrue(metadata.isStoreHashCurrent)
    }

    private func readMetadata(_ package: URL) throws -> DocumentMetadata {
        try DocumentFiles(layout: PackageLayout(root: package), fileSystem: FileSystem()).readMetadata()
    }
}
