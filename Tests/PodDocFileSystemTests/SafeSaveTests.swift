import Foundation
import Glibc
import PodDocFileSystem
import PodDocTesting
import XCTest

final class SafeSaveTests: XCTestCase {
    private let fileSystem = FileSystem()

    // MARK: - Files

    func testWriteCreatesFileAndLeavesNoTemporaryItem() throws {
        let folder = try makeTemporaryFolder()
        let target = folder.appendingPathComponent("DocumentMetadata.json")
        try fileSystem.write(Data("v1".utf8), to: target)
        XCTAssertEqual(try text(of: target), "v1")
        XCTAssertEqual(try names(in: folder), ["DocumentMetadata.json"])
    }

    func testWriteReplacesPreviousVersion() throws {
        let folder = try makeTemporaryFolder()
        let target = folder.appendingPathComponent("doc")
        try fileSystem.write(Data("v1".utf8), to: target)
        try fileSystem.write(Data("version two".utf8), to: target)
        XCTAssertEqual(try text(of: target), "version two")
        XCTAssertEqual(try names(in: folder), ["doc"])
    }

    func testStreamingWriteWritesEveryChunk() throws {
        let folder = try makeTemporaryFolder()
        let target = folder.appendingPathComponent("big")
        let chunk = Data(repeating: 0x5A, count: 3 << 20)
        try fileSystem.write(to: target) { sink in
            for _ in 0..<4 { try sink.write(chunk) }
        }
        let attributes = try FileManager.default.attributesOfItem(atPath: target.path)
        XCTAssertEqual(attributes[.size] as? Int, 12 << 20)
    }

    func testThrowingBodyKeepsPreviousVersion() throws {
        struct Abort: Error {}
        let folder = try makeTemporaryFolder()
        let target = folder.appendingPathComponent("doc")
        try fileSystem.write(Data("v1".utf8), to: target)
        XCTAssertThrowsError(
            try fileSystem.write(to: target) { sink in
                try sink.write(Data("partial".utf8))
                throw Abort()
            }
        ) { XCTAssertTrue($0 is Abort) }
        XCTAssertEqual(try text(of: target), "v1")
        XCTAssertEqual(try names(in: folder), ["doc"])
    }

    func testSinkRefusesWritesAfterTheSave() throws {
        let folder = try makeTemporaryFolder()
        let target = folder.appendingPathComponent("doc")
        var escaped: FileSink?
        try fileSystem.write(to: target) { sink in
            try sink.write(Data("v1".utf8))
            escaped = sink
        }
        let error = try expectFileSystemError { try escaped?.write(Data("late".utf8)) }
        XCTAssertTrue(error.message.contains(".doc.tmp-"), error.message)
        XCTAssertEqual(try text(of: target), "v1")
    }

    func testSymbolicLinkTargetIsReplacedNotFollowed() throws {
        let folder = try makeTemporaryFolder()
        let elsewhere = folder.appendingPathComponent("elsewhere")
        try Data("outside".utf8).write(to: elsewhere)
        let link = folder.appendingPathComponent("link")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: elsewhere)
        try fileSystem.write(Data("new".utf8), to: link)
        XCTAssertEqual(try text(of: elsewhere), "outside")
        XCTAssertEqual(try text(of: link), "new")
        XCTAssertNil(try? FileManager.default.destinationOfSymbolicLink(atPath: link.path))
    }

    func testWritingAFileOverAFolderIsRefused() throws {
        let folder = try makeTemporaryFolder()
        let target = folder.appendingPathComponent("package")
        try FileManager.default.createDirectory(at: target, withIntermediateDirectories: false)
        try Data("keep".utf8).write(to: target.appendingPathComponent("inside"))
        let error = try expectFileSystemError { try fileSystem.write(Data("x".utf8), to: target) }
        XCTAssertEqual(error.code, .alreadyExists)
        XCTAssertTrue(error.message.contains(target.path), error.message)
        XCTAssertEqual(try text(of: target.appendingPathComponent("inside")), "keep")
        XCTAssertEqual(try names(in: folder), ["package"])
    }

    func testWriteIntoMissingFolderNamesTheTarget() throws {
        let folder = try makeTemporaryFolder()
        let target = folder.appendingPathComponent("missing/doc")
        let error = try expectFileSystemError { try fileSystem.write(Data("x".utf8), to: target) }
        XCTAssertEqual(error.code, .notFound)
        XCTAssertEqual(error.systemCall, .open)
        XCTAssertTrue(error.message.contains(target.path), error.message)
    }

    // MARK: - Copies and folder sync

    func testCopyFileCopiesBytes() throws {
        let folder = try makeTemporaryFolder()
        let source = folder.appendingPathComponent("persistentStore")
        let bytes = Data((0..<(3 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        try bytes.write(to: source)
        let copy = folder.appendingPathComponent("recovery-copy")
        try fileSystem.copyFile(at: source, to: copy)
        XCTAssertEqual(try Data(contentsOf: copy), bytes)
        XCTAssertEqual(try names(in: folder), ["persistentStore", "recovery-copy"])
    }

    func testCopyOfMissingFileKeepsTargetAndNamesSource() throws {
        let folder = try makeTemporaryFolder()
        let target = folder.appendingPathComponent("copy")
        try Data("old copy".utf8).write(to: target)
        let source = folder.appendingPathComponent("nope")
        let error = try expectFileSystemError { try fileSystem.copyFile(at: source, to: target) }
        XCTAssertTrue(error.message.contains(source.path), error.message)
        XCTAssertEqual(try text(of: target), "old copy")
        XCTAssertEqual(try names(in: folder), ["copy"])
    }

    func testSyncDirectoryOfMissingFolderNamesIt() throws {
        let folder = try makeTemporaryFolder().appendingPathComponent("absent")
        let error = try expectFileSystemError { try fileSystem.syncDirectory(at: folder) }
        XCTAssertEqual(error.code, .notFound)
        XCTAssertTrue(error.message.contains(folder.path), error.message)
    }

    // MARK: - Folders

    func testWriteDirectoryCreatesTree() throws {
        let folder = try makeTemporaryFolder()
        let target = folder.appendingPathComponent("Name.poddoc")
        try fileSystem.writeDirectory(at: target) { staging in
            try fileSystem.createDirectory(at: staging.appendingPathComponent("StoreContent"))
            try fileSystem.createFile(at: staging.appendingPathComponent("StoreContent/persistentStore")) {
                try $0.write(Data("db".utf8))
            }
        }
        XCTAssertEqual(try text(of: target.appendingPathComponent("StoreContent/persistentStore")), "db")
        XCTAssertEqual(try names(in: folder), ["Name.poddoc"])
    }

    func testWriteDirectoryReplacesTreeAtomically() throws {
        let folder = try makeTemporaryFolder()
        let target = folder.appendingPathComponent("Name.poddoc")
        try writeTree(at: target, files: ["a": "1", "old-only": "x"])
        try writeTree(at: target, files: ["a": "2", "new-only": "y"])
        XCTAssertEqual(try names(in: target), ["a", "new-only"])
        XCTAssertEqual(try text(of: target.appendingPathComponent("a")), "2")
        XCTAssertEqual(try names(in: folder), ["Name.poddoc"])
    }

    func testWriteDirectoryWithoutReplacingRefusesExistingTarget() throws {
        let folder = try makeTemporaryFolder()
        let target = folder.appendingPathComponent("Name.poddoc")
        try writeTree(at: target, files: ["a": "1"])
        var bodyRan = false
        let error = try expectFileSystemError {
            try fileSystem.writeDirectory(at: target, replacingExisting: false) { _ in bodyRan = true }
        }
        XCTAssertFalse(bodyRan)
        XCTAssertEqual(error.code, .alreadyExists)
        XCTAssertTrue(error.message.contains(target.path), error.message)
        XCTAssertEqual(try text(of: target.appendingPathComponent("a")), "1")
    }

    func testWriteDirectoryPutsTheTreeInPlaceOnlyWhenTheCheckPasses() throws {
        let folder = try makeTemporaryFolder()
        let target = folder.appendingPathComponent("Name.poddoc")
        let checked = folder.appendingPathComponent("checked")
        // Runs on another thread, on the filled folder, before it is put in place.
        let check: @Sendable (URL) throws -> Void = { staging in
            XCTAssertEqual(try String(contentsOf: staging.appendingPathComponent("a"), encoding: .utf8), "1")
            XCTAssertNotEqual(staging.lastPathComponent, "Name.poddoc")
            try Data().write(to: checked)
        }
        try fileSystem.writeDirectory(at: target, verifying: check) { staging in
            try fileSystem.createFile(at: staging.appendingPathComponent("a")) { try $0.write(Data("1".utf8)) }
        }
        XCTAssertTrue(FileManager.default.fileExists(atPath: checked.path))
        XCTAssertEqual(try text(of: target.appendingPathComponent("a")), "1")

        struct Refused: Error {}
        let replaced = folder.appendingPathComponent("Other.poddoc")
        try writeTree(at: replaced, files: ["a": "old"])
        XCTAssertThrowsError(
            try fileSystem.writeDirectory(at: replaced, verifying: { _ in throw Refused() }) { staging in
                try fileSystem.createFile(at: staging.appendingPathComponent("a")) { try $0.write(Data("new".utf8)) }
            }
        ) { XCTAssertTrue($0 is Refused, "\($0)") }
        XCTAssertEqual(try text(of: replaced.appendingPathComponent("a")), "old", "the previous version stays")
        XCTAssertEqual(try names(in: folder), ["Name.poddoc", "Other.poddoc", "checked"], "no staging folder is left")
    }

    func testCreateFileRefusesExistingFileAndSymbolicLink() throws {
        let folder = try makeTemporaryFolder()
        let existing = folder.appendingPathComponent("existing")
        try Data("keep".utf8).write(to: existing)
        let link = folder.appendingPathComponent("link")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: existing)
        for target in [existing, link] {
            let error = try expectFileSystemError {
                try fileSystem.createFile(at: target) { try $0.write(Data("overwritten".utf8)) }
            }
            XCTAssertEqual(error.code, .alreadyExists)
            XCTAssertTrue(error.message.contains(target.path), error.message)
        }
        XCTAssertEqual(try text(of: existing), "keep")
    }

    func testContentsOfDirectoryReportsKinds() throws {
        let folder = try makeTemporaryFolder()
        try Data("12345".utf8).write(to: folder.appendingPathComponent("file"))
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("dir"), withIntermediateDirectories: false)
        try FileManager.default.createSymbolicLink(
            at: folder.appendingPathComponent("link"), withDestinationURL: folder.appendingPathComponent("dir"))
        XCTAssertEqual(mkfifo(folder.appendingPathComponent("fifo").path, 0o600), 0)
        let entries = try fileSystem.contentsOfDirectory(at: folder).sorted { $0.name < $1.name }
        XCTAssertEqual(entries.map(\.name), ["dir", "fifo", "file", "link"])
        XCTAssertEqual(entries.map(\.kind), [.directory, .special, .regularFile, .symbolicLink])
        XCTAssertEqual(entries[2].size, 5)
    }

    func testContentsOfDirectoryRefusesNonUTF8Names() throws {
        let folder = try makeTemporaryFolder()
        let raw = Array(folder.path.utf8) + Array("/bad-".utf8) + [0xFF, 0]
        let fd = raw.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_CREAT | O_WRONLY, 0o644) }
        }
        XCTAssertGreaterThanOrEqual(fd, 0)
        close(fd)
        let error = try expectFileSystemError { _ = try fileSystem.contentsOfDirectory(at: folder) }
        XCTAssertEqual(error.code, .invalidName)
        XCTAssertTrue(error.message.contains(folder.path), error.message)
    }

    // MARK: - Helpers

    private func writeTree(at target: URL, files: [String: String]) throws {
        try fileSystem.writeDirectory(at: target) { staging in
            for (name, contents) in files {
                try fileSystem.createFile(at: staging.appendingPathComponent(name)) { try $0.write(Data(contents.utf8)) }
            }
        }
    }
}
