import Foundation
import PodDocArchive
import PodDocFileSystem
import PodDocTesting
import XCTest

/// Damaged or unsuitable archives are refused cleanly: an error naming the archive, no
/// destination, no staging folder.
final class DamagedArchiveTests: XCTestCase {
    private let options = ArchiveWriteOptions(modificationTime: 1_700_000_000)

    /// A tree with a manifest, archived in `format`.
    private func makeArchive(in work: URL, format: ArchiveFormat) throws -> URL {
        let source = work.appendingPathComponent("source-\(format)")
        try makeTree(
            at: source,
            [
                "StoreContent/persistentStore": noise(count: 3 << 20, seed: 5),
                "DocumentMetadata.json": Data("{}".utf8),
            ])
        try Manifest.create(in: source)
        let archive = work.appendingPathComponent("doc.\(format.fileExtension)")
        try Archive.write(directory: source, to: archive, options: options)
        return archive
    }

    func testTruncatedArchivesAreRefused() throws {
        for format in ArchiveFormat.allCases {
            let work = try makeTemporaryFolder()
            let archive = try makeArchive(in: work, format: format)
            let bytes = try Data(contentsOf: archive)
            try bytes.prefix(bytes.count / 2).write(to: archive)
            let error = try expectRefusal(of: archive, in: work)
            XCTAssertEqual(error.code, .unreadableArchive, "\(format): \(error.message)")
        }
    }

    func testBitFlippedArchivesAreRefused() throws {
        for format in ArchiveFormat.allCases {
            let work = try makeTemporaryFolder()
            let archive = try makeArchive(in: work, format: format)
            var bytes = try Data(contentsOf: archive)
            let middle = bytes.count / 2
            for index in middle..<(middle + 16) { bytes[index] ^= 0xA5 }
            try bytes.write(to: archive)
            let error = try expectRefusal(of: archive, in: work)
            XCTAssertTrue([.unreadableArchive, .hashMismatch].contains(error.code), "\(format): \(error.message)")
        }
    }

    func testNonArchivesAreRefused() throws {
        let work = try makeTemporaryFolder()
        let garbage = work.appendingPathComponent("garbage.tar.zst")
        try noise(count: 10_000, seed: 9).write(to: garbage)
        XCTAssertEqual(try expectRefusal(of: garbage, in: work).code, .unreadableArchive)
        let empty = work.appendingPathComponent("empty.zip")
        try Data().write(to: empty)
        XCTAssertEqual(try expectRefusal(of: empty, in: work).code, .unreadableArchive)
        let missing = work.appendingPathComponent("missing.zip")
        XCTAssertEqual(try expectRefusal(of: missing, in: work).code, .unreadableArchive)
        let folder = work.appendingPathComponent("folder.zip")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
        let notAFile = try expectRefusal(of: folder, in: work)
        XCTAssertTrue(notAFile.message.contains("not a regular file"), notAFile.message)
    }

    func testUncompressedTarIsNotAcceptedFormat() throws {
        let work = try makeTemporaryFolder()
        let source = work.appendingPathComponent("tree")
        try makeTree(at: source, ["a.txt": Data("a".utf8)])
        let archive = work.appendingPathComponent("plain.tar.zst")
        let tar = Process()
        tar.executableURL = URL(fileURLWithPath: "/bin/tar")
        tar.arguments = ["-cf", archive.path, "-C", source.path, "a.txt"]
        try tar.run()
        tar.waitUntilExit()
        let error = try expectRefusal(of: archive, in: work)
        XCTAssertEqual(error.code, .unsupportedFormat)
        XCTAssertTrue(error.message.contains("tar"), error.message)
        XCTAssertEqual((try? Archive.detectFormat(of: archive)), nil)
    }

    func testExistingDestinationIsRefusedAndKept() throws {
        let work = try makeTemporaryFolder()
        let archive = try makeArchive(in: work, format: .zip)
        let destination = work.appendingPathComponent("extract-here/Imported.poddoc")
        try makeTree(at: destination, ["mine.txt": Data("keep".utf8)])
        let error = try expectArchiveError { try Archive.extract(archive: archive, into: destination) }
        XCTAssertEqual(error.code, .destinationExists)
        XCTAssertTrue(error.message.contains(destination.path), error.message)
        XCTAssertEqual(try names(in: destination.deletingLastPathComponent()), ["Imported.poddoc"])
        XCTAssertEqual(try Data(contentsOf: destination.appendingPathComponent("mine.txt")), Data("keep".utf8))
    }

    func testFailingFsyncDuringExtractionLeavesNothing() throws {
        let work = try makeTemporaryFolder()
        let archive = try makeArchive(in: work, format: .tarZstd)
        let failing = FileSystem(faults: .failing(.fsync, with: EIO))
        let error = try expectRefusal(of: archive, in: work, fileSystem: failing)
        XCTAssertEqual(error.code, .fileSystem)
        XCTAssertEqual((error.cause as? FileSystemError)?.systemCall, .fsync)
    }

    func testFailingWriteDuringExportKeepsThePreviousArchive() throws {
        let work = try makeTemporaryFolder()
        let archive = try makeArchive(in: work, format: .tarZstd)
        let previous = try Data(contentsOf: archive)
        let source = work.appendingPathComponent("other")
        try makeTree(at: source, ["x": noise(count: 2 << 20, seed: 1)])
        let before = try names(in: work)
        for code in [ENOSPC, EIO] {
            let failing = FileSystem(faults: .failing(.write, with: code, path: .containing("doc.tar.zst")))
            let error = try expectArchiveError { try Archive.write(directory: source, to: archive, options: options, fileSystem: failing) }
            XCTAssertEqual(error.code, .fileSystem)
            XCTAssertEqual((error.cause as? FileSystemError)?.errno, code)
            XCTAssertTrue(error.message.contains(archive.path), error.message)
            XCTAssertEqual(try Data(contentsOf: archive), previous)
            XCTAssertEqual(try names(in: work), before)
        }
    }

    // MARK: - Helpers

    /// Extracts into a fresh folder and checks nothing is left there.
    private func expectRefusal(
        of archive: URL, in work: URL, fileSystem: FileSystem = FileSystem(),
        file: StaticString = #filePath, line: UInt = #line
    ) throws -> ArchiveError {
        let parent = work.appendingPathComponent("extract-here")
        try? FileManager.default.removeItem(at: parent)
        try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: false)
        let before = try names(in: work)
        let error = try expectArchiveError(
            { try Archive.extract(archive: archive, into: parent.appendingPathComponent("Imported.poddoc"), fileSystem: fileSystem) },
            file: file, line: line)
        XCTAssertTrue(error.message.contains(archive.path), error.message, file: file, line: line)
        XCTAssertEqual(try names(in: parent), [], "partial destination or staging left", file: file, line: line)
        XCTAssertEqual(try names(in: work), before, file: file, line: line)
        return error
    }
}
