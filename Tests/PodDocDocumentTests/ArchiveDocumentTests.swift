import Foundation
import GRDB
import PodDocArchive
import PodDocFileSystem
import PodDocStore
import XCTest

@testable import PodDocDocument

final class ArchiveDocumentTests: DocumentTestCase {
    func testArchiveDocumentSavesReproduciblyAndOpensElsewhere() async throws {
        let archive = url("Notes.poddoc.tar.zst")
        let document = try await ManagedDocument.create(at: archive, kind: .notes, model: Note.model, options: options)
        XCTAssertEqual(document.format, .archive(.tarZstd))
        addNote(document, "packed")
        document.additionalContent = ["a.txt": Data("A".utf8)]
        try await document.save()
        XCTAssertEqual(try Archive.detectFormat(of: archive), .tarZstd)
        let hash = document.metadata.storeHash
        try await document.close()

        // Open a copy from another folder, as another machine would, with other working copies.
        let elsewhere = url("elsewhere/Copy.poddoc.tar.zst")
        try FileManager.default.createDirectory(at: elsewhere.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: archive, to: elsewhere)
        var other = options
        other.environment["XDG_STATE_HOME"] = folder.appending(path: "other-state").path
        let copy = try await ManagedDocument.open(elsewhere, model: Note.model, options: other)
        XCTAssertEqual(try titles(copy), ["packed"])
        XCTAssertEqual(copy.additionalContent["a.txt"], Data("A".utf8))
        XCTAssertEqual(copy.metadata.storeHash, hash)
        XCTAssertEqual(try ContentDigest.store(copy.store), hash)

        // The archive holds one checkpointed store file, a manifest, no WAL, no lock.
        let unpacked = url("unpacked")
        try Archive.extract(archive: elsewhere, into: unpacked, manifestPolicy: .require)
        let names = try FileManager.default.subpathsOfDirectory(atPath: unpacked.path).sorted()
        XCTAssertEqual(
            names,
            [
                "AdditionalContent", "AdditionalContent/a.txt", "DocumentMetadata.json", "StoreContent",
                "StoreContent/persistentStore", "manifest-sha256.txt",
            ])

        // Two exports of the same document are byte-identical, in every format.
        for format in ArchiveFormat.allCases {
            let first = url("export1.\(format.fileExtension)")
            let second = url("export2.\(format.fileExtension)")
            try await copy.save(to: first)
            try await copy.save(to: second)
            XCTAssertEqual(try Data(contentsOf: first), try Data(contentsOf: second), "\(format)")
        }
        try await copy.close()
    }

    func testPackageToArchiveToPackageKeepsTheLogicalHash() async throws {
        let package = url("Round.poddoc")
        let document = try await ManagedDocument.create(at: package, kind: .notes, model: Note.model, options: options)
        for i in 0..<200 { addNote(document, "note \(i)") }
        try await document.save()
        let hash = document.metadata.storeHash
        try await document.save(as: url("Round.poddoc.zip"))
        XCTAssertEqual(document.format, .archive(.zip))
        XCTAssertEqual(try titles(document).count, 200)
        try await document.save(as: url("Back.poddoc"))
        XCTAssertEqual(document.format, .package)
        XCTAssertEqual(try ContentDigest.store(document.store), hash)
        // VACUUM and a page-size change leave the logical hash alone.
        try await document.close()
        let store = PackageLayout(root: url("Back.poddoc")).store
        try runSQL(store, "PRAGMA page_size = 8192; VACUUM;")
        let reopened = try await ManagedDocument.open(url("Back.poddoc"), model: Note.model, options: options)
        XCTAssertEqual(try ContentDigest.store(reopened.store), hash)
        try await reopened.close()
    }

    func testAutosaveGoesToTheWorkingCopyAndIsRecoveredAfterACrash() async throws {
        let archive = url("Work.poddoc.tar.gz")
        let document = try await ManagedDocument.create(at: archive, kind: .notes, model: Note.model, options: options)
        addNote(document, "saved")
        try await document.save()
        let packed = try Data(contentsOf: archive)
        addNote(document, "autosaved only")
        await document.autosaveIfNeeded()
        XCTAssertNotNil(document.autosaveStatus.lastSuccess)
        XCTAssertEqual(try Data(contentsOf: archive), packed, "an autosave does not rewrite the archive")
        // Crash: the process goes away without closing.
        document.abandonLocksAsACrashDoes()

        XCTAssertEqual(
            ManagedDocument.recoverableDocuments(environment: options.environment).map(\.archive?.lastPathComponent), ["Work.poddoc.tar.gz"]
        )
        do {
            _ = try await ManagedDocument.open(archive, model: Note.model, options: options)
            XCTFail("opening should offer the recovery")
        } catch let error as DocumentError {
            XCTAssertEqual(error.code, .recoveryAvailable, error.message)
        }
        var recover = options
        recover.recovery = .recover
        let recovered = try await ManagedDocument.open(archive, model: Note.model, options: recover)
        XCTAssertEqual(try titles(recovered), ["autosaved only", "saved"])
        try await recovered.close()
        XCTAssertEqual(ManagedDocument.recoverableDocuments(environment: options.environment), [], "closing wrote the work back")
        var discard = options
        discard.recovery = .discard
        let fresh = try await ManagedDocument.open(archive, model: Note.model, options: discard)
        XCTAssertEqual(try titles(fresh), ["autosaved only", "saved"])
        try await fresh.close()
    }

    func testDamagedAndHostileArchivesAreRefusedCleanly() async throws {
        let archive = try await savedArchive(notes: 300)
        let good = try Data(contentsOf: archive)

        let truncated = url("Truncated.poddoc.tar.zst")
        try good.prefix(good.count / 2).write(to: truncated)
        await assertRefused(truncated)
        var flipped = good
        for i in stride(from: good.count / 3, to: good.count / 3 + 64, by: 1) { flipped[i] ^= 0x5A }
        let damaged = url("Flipped.poddoc.tar.zst")
        try flipped.write(to: damaged)
        await assertRefused(damaged)

        // An archive whose entry climbs out of its folder.
        let hostile = url("Hostile.poddoc.tar.gz")
        let source = url("hostile-source")
        try FileManager.default.createDirectory(at: source.appending(path: "StoreContent"), withIntermediateDirectories: true)
        try Data("x".utf8).write(to: source.appending(path: "StoreContent/persistentStore"))
        try runTar([
            "-czf", hostile.path, "-C", source.path, "--transform", "s|StoreContent/persistentStore|../escaped|",
            "StoreContent/persistentStore",
        ])
        await assertRefused(hostile)
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.appending(path: "state/poddoc/working/escaped").path))
        let stray = try FileManager.default.subpathsOfDirectory(atPath: folder.appending(path: "state").path).filter {
            $0.hasSuffix("escaped")
        }
        XCTAssertEqual(stray, [], "nothing escaped the staging folder")
    }

    func testArchiveWithAValidManifestButACorruptStoreIsRefused() async throws {
        let archive = try await savedArchive(notes: 2000)
        // Damage a page of the store, then pack it again with a manifest that matches: only
        // the store's integrity check can tell.
        let unpacked = url("unpacked")
        try Archive.extract(archive: archive, into: unpacked, manifestPolicy: .require)
        let store = PackageLayout(root: unpacked).store
        var bytes = try Data(contentsOf: store)
        for i in stride(from: bytes.count / 2, to: bytes.count / 2 + 4096, by: 7) { bytes[i] ^= 0xFF }
        try bytes.write(to: store)
        let damaged = url("Damaged.poddoc.tar.zst")
        try Archive.write(directory: unpacked, to: damaged, options: ArchiveWriteOptions(modificationTime: 0, includesManifest: true))

        do {
            let opened = try await ManagedDocument.open(damaged, model: Note.model, options: options)
            try? await opened.close()
            XCTFail("a store failing quick_check must be refused")
        } catch let error as DocumentError {
            XCTAssertEqual(error.code, .store, error.message)
            XCTAssertTrue(error.message.contains("integrity check"), error.message)
        }
        // Nothing of it was put in place, nor left behind: the working copy's folder is gone.
        let copy = try WorkingCopy.forDocument(damaged, environment: options.environment)
        XCTAssertFalse(FileManager.default.fileExists(atPath: copy.package.path))
        XCTAssertFalse(FileManager.default.fileExists(atPath: copy.folder.path))
    }

    /// `Good.poddoc.tar.zst`, an outline archive of `notes` notes of about 200 bytes, saved and
    /// closed.
    private func savedArchive(notes: Int) async throws -> URL {
        let archive = url("Good.poddoc.tar.zst")
        let document = try await ManagedDocument.create(at: archive, kind: .notes, model: Note.model, options: options)
        for i in 0..<notes { addNote(document, String(repeating: "note \(i) ", count: 20)) }
        try await document.save()
        try await document.close()
        return archive
    }

    private func assertRefused(_ archive: URL, line: UInt = #line) async {
        do {
            let document = try await ManagedDocument.open(archive, model: Note.model, options: options)
            try? await document.close()
            XCTFail("\(archive.lastPathComponent) should be refused", line: line)
        } catch let error as DocumentError {
            XCTAssertTrue([.archive, .notADocument].contains(error.code), error.message, line: line)
            XCTAssertTrue(error.message.contains(archive.lastPathComponent), error.message, line: line)
        } catch {
            XCTFail("unexpected \(error)", line: line)
        }
    }

    private func runTar(_ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/tar")
        process.arguments = arguments
        try process.run()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0)
    }

    private func runSQL(_ store: URL, _ sql: String) throws {
        let connection = try DatabaseQueue(path: store.path)
        try connection.writeWithoutTransaction { try $0.execute(sql: sql) }
        try connection.close()
    }
}
