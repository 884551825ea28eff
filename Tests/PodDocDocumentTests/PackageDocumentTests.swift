import Foundation
import PodDocFileSystem
import PodDocStore
import XCTest

@testable import PodDocDocument

final class PackageDocumentTests: DocumentTestCase {
    func testCreateSaveReopenPackage() async throws {
        let url = url("Notes.poddoc")
        let document = try await ManagedDocument.create(at: url, kind: .notes, model: Note.model, options: options)
        let layout = PackageLayout(root: url)
        XCTAssertTrue(FileManager.default.fileExists(atPath: layout.store.path))
        XCTAssertTrue(FileManager.default.fileExists(atPath: layout.additionalContent.path))
        XCTAssertEqual(document.metadata.kind, .notes)
        XCTAssertEqual(document.metadata.saveSequence, 0)
        XCTAssertFalse(document.hasUnsavedChanges)

        addNote(document, "first")
        document.mainContext.processPendingChanges()
        XCTAssertTrue(document.hasUnsavedChanges)
        document.additionalContent = ["notes/readme.txt": Data("hello".utf8)]
        try await document.save()
        XCTAssertFalse(document.hasUnsavedChanges)
        XCTAssertEqual(try titlesOnDisk(layout.store), ["first"])
        XCTAssertEqual(try String(contentsOf: layout.additionalContent.appending(path: "notes/readme.txt"), encoding: .utf8), "hello")
        let onDisk = try DocumentFiles(layout: layout, fileSystem: FileSystem()).readMetadata()
        XCTAssertEqual(onDisk.saveSequence, 1)
        XCTAssertEqual(onDisk.additionalContent.map(\.path), ["notes/readme.txt"])
        XCTAssertEqual(onDisk.storeHash, document.metadata.storeHash)
        XCTAssertTrue(onDisk.storeHash.hasPrefix("sha256:"))
        try await document.close()
        XCTAssertTrue(document.state.contains(.closed))

        let again = try await ManagedDocument.open(url, model: Note.model, options: options)
        XCTAssertEqual(try titles(again), ["first"])
        XCTAssertEqual(again.additionalContent, ["notes/readme.txt": Data("hello".utf8)])
        XCTAssertEqual(again.metadata.documentID, document.metadata.documentID)
        try await again.close()
    }

    func testSaveOrderStoreBeforeMetadataAndStagedContentCommittedByTheStore() async throws {
        let url = url("Order.poddoc")
        let layout = PackageLayout(root: url)
        let document = try await ManagedDocument.create(at: url, kind: .notes, model: Note.model, options: options)
        addNote(document, "a")
        try await document.save()
        let before = try DocumentFiles(layout: layout, fileSystem: FileSystem()).readMetadata()

        // Fail the metadata write: the store has committed (it is the commit point), the
        // metadata stays behind, and opening again repairs it.
        addNote(document, "b")
        document.additionalContent = ["x.txt": Data("1".utf8)]
        document.files = DocumentFiles(
            layout: layout, fileSystem: FileSystem(faults: .failing(.fsync, with: ENOSPC, path: .containing("DocumentMetadata.json"))))
        do {
            try await document.save()
            XCTFail("the metadata write should fail")
        } catch let error as DocumentError {
            XCTAssertTrue(error.message.contains("DocumentMetadata.json"), error.message)
        }
        XCTAssertTrue(document.state.contains(.savingError))
        XCTAssertEqual(try titlesOnDisk(layout.store), ["a", "b"], "the store was saved before the metadata")
        XCTAssertEqual(
            try String(contentsOf: layout.additionalContent.appending(path: "x.txt"), encoding: .utf8), "1",
            "content moved into place after the store committed it")
        XCTAssertEqual(try DocumentFiles(layout: layout, fileSystem: FileSystem()).readMetadata(), before, "metadata unchanged on disk")
        document.abandonLocksAsACrashDoes()

        let reopened = try await ManagedDocument.open(url, model: Note.model, options: options)
        XCTAssertEqual(reopened.metadata.saveSequence, 2, "metadata repaired from the store")
        XCTAssertEqual(reopened.metadata.additionalContent.map(\.path), ["x.txt"])
        XCTAssertEqual(try DocumentFiles(layout: layout, fileSystem: FileSystem()).readMetadata().saveSequence, 2)
        try await reopened.close()
    }

    func testStagedContentOfAnUncommittedSaveIsDropped() async throws {
        let url = url("Staged.poddoc")
        let layout = PackageLayout(root: url)
        let document = try await ManagedDocument.create(at: url, kind: .notes, model: Note.model, options: options)
        document.additionalContent = ["keep.txt": Data("old".utf8)]
        try await document.save()
        try await document.close()
        // A crash after staging new content but before the store save that commits it.
        let files = DocumentFiles(layout: layout, fileSystem: FileSystem())
        _ = try files.stageAdditionalContent(["keep.txt": Data("new".utf8)])
        XCTAssertTrue(FileManager.default.fileExists(atPath: layout.stagedAdditionalContent.path))
        let reopened = try await ManagedDocument.open(url, model: Note.model, options: options)
        XCTAssertEqual(reopened.additionalContent["keep.txt"], Data("old".utf8))
        XCTAssertFalse(FileManager.default.fileExists(atPath: layout.stagedAdditionalContent.path))
        try await reopened.close()
    }

    func testRevertDropsUnsavedChanges() async throws {
        let document = try await ManagedDocument.create(at: url("Revert.poddoc"), kind: .notes, model: Note.model, options: options)
        addNote(document, "kept")
        try await document.save()
        addNote(document, "dropped")
        document.additionalContent = ["a": Data()]
        try await document.revert()
        XCTAssertEqual(try titles(document), ["kept"])
        XCTAssertEqual(document.additionalContent, [:])
        XCTAssertFalse(document.hasUnsavedChanges)
        try await document.close()
    }

    func testPlainFileMissingStoreAndBadMetadataAreClearErrors() async throws {
        let plain = url("plain.txt")
        try Data("hello".utf8).write(to: plain)
        await assertOpenFails(plain, code: .notADocument, mentioning: "plain file")
        let empty = url("Empty.poddoc")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        await assertOpenFails(empty, code: .notADocument, mentioning: "not a poddoc document")

        let broken = url("Broken.poddoc")
        let document = try await ManagedDocument.create(at: broken, kind: .notes, model: Note.model, options: options)
        try await document.close()
        try FileManager.default.removeItem(at: PackageLayout(root: broken).store)
        await assertOpenFails(broken, code: .missingStore, mentioning: "persistentStore is missing")
        try Data("{ not json".utf8).write(to: PackageLayout(root: broken).metadata)
        await assertOpenFails(broken, code: .invalidMetadata, mentioning: "DocumentMetadata.json")
    }

    func testNewerFormatIsRefusedOrOpenedReadOnly() async throws {
        let url = url("Future.poddoc")
        let document = try await ManagedDocument.create(at: url, kind: .notes, model: Note.model, options: options)
        try await document.close()
        let files = DocumentFiles(layout: PackageLayout(root: url), fileSystem: FileSystem())
        var metadata = try files.readMetadata()
        metadata.formatVersion = 7
        metadata.writer = "poddoc 9.0"
        try files.writeMetadata(metadata)
        await assertOpenFails(url, code: .newerFormat, mentioning: "format 7")
        var readOnly = options
        readOnly.readOnly = true
        let opened = try await ManagedDocument.open(url, model: Note.model, options: readOnly)
        XCTAssertTrue(opened.state.contains(.editingDisabled))
        do {
            try await opened.save()
            XCTFail("read-only documents do not save")
        } catch let error as DocumentError {
            XCTAssertEqual(error.code, .readOnly)
        }
        try await opened.close()
    }

    func testMigrationKeepsABackupUntilItSucceeds() async throws {
        let url = url("Migrate.poddoc")
        let document = try await ManagedDocument.create(at: url, kind: .notes, model: Note.model, options: options)
        addNote(document, "v1 note")
        try await document.save()
        try await document.close()
        let layout = PackageLayout(root: url)

        let starred = Attribute<Int>("stars", default: 0)
        let v2entities = [EntityDescription("Note", members: [Note.title, Note.body, starred])]
        let failing = try ObjectModel(
            version: 2, entities: v2entities,
            migrations: [
                SchemaMigration(to: 2) { db in
                    try db.execute(sql: #"UPDATE "Note" SET "stars" = 1"#)
                    throw SimulatedFailure()
                }
            ])
        do {
            _ = try await ManagedDocument.open(url, model: failing, options: options)
            XCTFail("the migration should fail")
        } catch let error as DocumentError {
            XCTAssertEqual(error.code, .store, error.message)
        }
        XCTAssertTrue(FileManager.default.fileExists(atPath: layout.storeBackup.path), "the backup stays after a failed migration")
        XCTAssertEqual(SQLiteHeader.userVersion(of: layout.storeBackup), 1)

        let working = try ObjectModel(
            version: 2, entities: v2entities,
            migrations: [
                SchemaMigration(to: 2) { db in
                    try db.execute(sql: #"UPDATE "Note" SET "stars" = 1"#)
                }
            ])
        let migrated = try await ManagedDocument.open(url, model: working, options: options)
        XCTAssertFalse(FileManager.default.fileExists(atPath: layout.storeBackup.path), "the backup goes once the migration succeeded")
        XCTAssertEqual(try titles(migrated), ["v1 note"])
        try await migrated.close()
    }

    private func assertOpenFails(_ url: URL, code: DocumentError.Code, mentioning text: String, line: UInt = #line) async {
        do {
            let document = try await ManagedDocument.open(url, model: Note.model, options: options)
            try? await document.close()
            XCTFail("opening \(url.lastPathComponent) should fail", line: line)
        } catch let error as DocumentError {
            XCTAssertEqual(error.code, code, error.message, line: line)
            XCTAssertTrue(error.message.contains(text), error.message, line: line)
        } catch {
            XCTFail("unexpected \(error)", line: line)
        }
    }
}

struct SimulatedFailure: Error {}
