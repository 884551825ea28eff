import Foundation
import Glibc
import PodDocArchive
import PodDocFileSystem
import PodDocTesting
import Synchronization
import XCTest

/// The check of one extracted file that runs beside the extraction (a document's store check).
final class ExtractedFileCheckTests: XCTestCase {
    private let options = ArchiveWriteOptions(modificationTime: 1_700_000_000, includesManifest: true)
    private let storePath = "StoreContent/persistentStore"

    /// What a check saw: the bytes it was handed (nil when none), and the file on disk then.
    private final class Seen: Sendable {
        let calls = Mutex<[(bytes: Data?, file: Data?, url: URL)]>([])
        func record(_ file: ExtractedFile) {
            let entry = (bytes: file.bytes.map { Data($0) }, file: try? Data(contentsOf: file.url), url: file.url)
            calls.withLock { $0.append(entry) }
        }
    }

    private struct Refused: Error, Equatable {}

    /// A package-like tree whose store is `store`, archived in `format`.
    private func makeArchive(in work: URL, store: Data, format: ArchiveFormat) throws -> URL {
        let source = work.appendingPathComponent("Source.poddoc")
        try? FileManager.default.removeItem(at: source)
        try makeTree(
            at: source,
            [
                storePath: store,
                "DocumentMetadata.json": Data(#"{"kind":"outline"}"#.utf8),
                "AdditionalContent/notes.txt": Data("beside the store".utf8),
            ])
        let archive = work.appendingPathComponent("Source.\(format.fileExtension)")
        try Archive.write(directory: source, to: archive, options: options)
        return archive
    }

    func testTheCheckIsHandedTheFileInMemoryBeforeTheFolderGoesInPlace() throws {
        let work = try makeTemporaryFolder()
        let store = noise(count: 3_000_000, seed: 11)
        for format in ArchiveFormat.allCases {
            let archive = try makeArchive(in: work, store: store, format: format)
            let seen = Seen()
            let destination = work.appendingPathComponent("out-\(format)")
            try Archive.extract(
                archive: archive, into: destination, manifestPolicy: .require,
                checking: ExtractedFileCheck(path: storePath) { seen.record($0) })
            let calls = seen.calls.withLock { $0 }
            XCTAssertEqual(calls.count, 1, "\(format): the check runs once")
            let call = try XCTUnwrap(calls.first)
            XCTAssertEqual(call.bytes, store, "\(format): the bytes in memory are the file's")
            XCTAssertEqual(call.file, store, "\(format): the file is complete when the check runs")
            XCTAssertEqual(call.url.lastPathComponent, "persistentStore")
            XCTAssertNotEqual(
                call.url.deletingLastPathComponent().deletingLastPathComponent().standardizedFileURL,
                destination.standardizedFileURL, "\(format): checked in the staging folder, before it goes into place")
            XCTAssertEqual(try Data(contentsOf: destination.appendingPathComponent(storePath)), store, "\(format)")
        }
    }

    func testAnEmptyFileIsCheckedFromItsPath() throws {
        let work = try makeTemporaryFolder()
        let archive = try makeArchive(in: work, store: Data(), format: .tarZstd)
        let seen = Seen()
        try Archive.extract(
            archive: archive, into: work.appendingPathComponent("out"),
            checking: ExtractedFileCheck(path: storePath) { seen.record($0) })
        let call = try XCTUnwrap(seen.calls.withLock { $0 }.first)
        XCTAssertNil(call.bytes, "nothing to map")
        XCTAssertEqual(call.file, Data())
    }

    func testChangingTheBytesInTheCheckLeavesTheFileAsArchived() throws {
        let work = try makeTemporaryFolder()
        let store = noise(count: 500_000, seed: 13)
        let archive = try makeArchive(in: work, store: store, format: .tarZstd)
        let destination = work.appendingPathComponent("out")
        try Archive.extract(
            archive: archive, into: destination, manifestPolicy: .require,
            checking: ExtractedFileCheck(path: storePath) { file in
                guard let bytes = file.bytes else { return XCTFail("expected the bytes in memory") }
                bytes.initializeMemory(as: UInt8.self, repeating: 0)
            })
        XCTAssertEqual(try Data(contentsOf: destination.appendingPathComponent(storePath)), store)
    }

    func testAFailingCheckPutsNothingInPlace() throws {
        let work = try makeTemporaryFolder()
        let archive = try makeArchive(in: work, store: noise(count: 100_000, seed: 14), format: .tarZstd)
        let before = try names(in: work)
        let destination = work.appendingPathComponent("out")
        XCTAssertThrowsError(
            try Archive.extract(
                archive: archive, into: destination,
                checking: ExtractedFileCheck(path: storePath) { _ in throw Refused() })
        ) { error in
            XCTAssertEqual(error as? Refused, Refused(), "the check's error is thrown as it is: \(error)")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: destination.path))
        XCTAssertEqual(try names(in: work), before, "no staging folder left")
    }

    /// A failed write of the checked file is reported; nothing is left behind or checked.
    func testAFailedWriteOfTheCheckedFileIsReportedAndLeavesNothing() throws {
        let work = try makeTemporaryFolder()
        let archive = try makeArchive(in: work, store: noise(count: 3_000_000, seed: 15), format: .tarZstd)
        let before = try names(in: work)
        for code in [ENOSPC, EIO] {
            let seen = Seen()
            let failing = FileSystem(faults: .failing(.write, with: code, path: .containing("persistentStore")))
            let error = try expectArchiveError {
                try Archive.extract(
                    archive: archive, into: work.appendingPathComponent("out"),
                    checking: ExtractedFileCheck(path: storePath) { seen.record($0) }, fileSystem: failing)
            }
            XCTAssertEqual(error.code, .fileSystem)
            XCTAssertEqual((error.cause as? FileSystemError)?.errno, code, "\(error)")
            XCTAssertEqual(error.entry, storePath)
            XCTAssertTrue(seen.calls.withLock { $0 }.isEmpty, "a file that was not written whole is not checked")
            XCTAssertEqual(try names(in: work), before)
        }
    }

    /// A truncated archive stops inside the checked file: refused, nothing left, not checked.
    func testATruncatedArchiveIsRefusedInsideTheCheckedFile() throws {
        let work = try makeTemporaryFolder()
        let archive = try makeArchive(in: work, store: noise(count: 3_000_000, seed: 16), format: .tarZstd)
        let bytes = try Data(contentsOf: archive)
        try bytes.prefix(bytes.count / 2).write(to: archive)
        let before = try names(in: work)
        let seen = Seen()
        let error = try expectArchiveError {
            try Archive.extract(
                archive: archive, into: work.appendingPathComponent("out"),
                checking: ExtractedFileCheck(path: storePath) { seen.record($0) })
        }
        XCTAssertEqual(error.code, .unreadableArchive, "\(error)")
        XCTAssertTrue(seen.calls.withLock { $0 }.isEmpty)
        XCTAssertEqual(try names(in: work), before)
    }

    func testAnArchiveWithoutTheFileIsNotChecked() throws {
        let work = try makeTemporaryFolder()
        let archive = try makeArchive(in: work, store: Data("tiny".utf8), format: .tarGzip)
        let seen = Seen()
        try Archive.extract(
            archive: archive, into: work.appendingPathComponent("out"),
            checking: ExtractedFileCheck(path: "StoreContent/other") { seen.record($0) })
        XCTAssertTrue(seen.calls.withLock { $0 }.isEmpty)
    }
}
