import Foundation
import PodDocArchive
import PodDocTesting
import XCTest

final class ReproducibilityTests: XCTestCase {
    private let options = ArchiveWriteOptions(modificationTime: 1_700_000_000)

    func testTwoWritesOfTheSameTreeAreByteIdentical() throws {
        let work = try makeTemporaryFolder()
        for format in ArchiveFormat.allCases {
            let first = work.appendingPathComponent("first-\(format)")
            let second = work.appendingPathComponent("second-\(format)")
            // The same tree, created in a different order, with different times in between.
            try makeTree(at: first, treeItems)
            try makeTree(at: second, treeItems)
            for path in treeItems.keys.sorted() where !path.hasSuffix("/") {
                try FileManager.default.setAttributes(
                    [.modificationDate: Date(timeIntervalSince1970: 86_400)], ofItemAtPath: second.appendingPathComponent(path).path)
            }
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: second.appendingPathComponent("a.txt").path)

            let archiveA = work.appendingPathComponent("a.\(format.fileExtension)")
            let archiveB = work.appendingPathComponent("b.\(format.fileExtension)")
            try Archive.write(directory: first, to: archiveA, options: options)
            try FileManager.default.setAttributes([.modificationDate: Date()], ofItemAtPath: first.appendingPathComponent("a.txt").path)
            try Archive.write(directory: second, to: archiveB, options: options)
            let bytesA = try Data(contentsOf: archiveA)
            XCTAssertEqual(bytesA, try Data(contentsOf: archiveB), "\(format)")

            try Archive.write(directory: first, to: archiveB, options: options)
            XCTAssertEqual(bytesA, try Data(contentsOf: archiveB), "\(format): rewriting the first tree")

            try Archive.write(directory: first, to: archiveB, options: ArchiveWriteOptions(modificationTime: 1_700_000_060))
            XCTAssertNotEqual(bytesA, try Data(contentsOf: archiveB), "\(format): the fixed time must be stored")
        }
    }

    func testGzipHeaderHasNoTimestamp() throws {
        let work = try makeTemporaryFolder()
        let source = work.appendingPathComponent("tree")
        try makeTree(at: source, treeItems)
        let archive = work.appendingPathComponent("t.tar.gz")
        try Archive.write(directory: source, to: archive, options: options)
        let header = try Data(contentsOf: archive).prefix(10)
        XCTAssertEqual(Array(header.prefix(2)), [0x1F, 0x8B])
        XCTAssertEqual(Array(header[4..<8]), [0, 0, 0, 0], "MTIME must be zero")
    }

    func testZstdLevelIsApplied() throws {
        let work = try makeTemporaryFolder()
        let source = work.appendingPathComponent("tree")
        try makeTree(at: source, ["text.txt": Data(String(repeating: "poddoc keeps documents safe. ", count: 40_000).utf8)])
        let fast = work.appendingPathComponent("fast.tar.zst")
        let strong = work.appendingPathComponent("strong.tar.zst")
        try Archive.write(directory: source, to: fast, options: ArchiveWriteOptions(modificationTime: 0, zstdLevel: 1))
        try Archive.write(directory: source, to: strong, options: ArchiveWriteOptions(modificationTime: 0, zstdLevel: 19))
        XCTAssertNotEqual(try Data(contentsOf: fast), try Data(contentsOf: strong))
    }

    func testInvalidOptionsAreRefusedBeforeWriting() throws {
        let work = try makeTemporaryFolder()
        let source = work.appendingPathComponent("tree")
        try makeTree(at: source, treeItems)
        let archive = work.appendingPathComponent("x.tar.zst")
        for bad in [ArchiveWriteOptions(modificationTime: 0, zstdLevel: 0), ArchiveWriteOptions(modificationTime: -1)] {
            let error = try expectArchiveError { try Archive.write(directory: source, to: archive, options: bad) }
            XCTAssertEqual(error.code, .invalidOption)
            XCTAssertTrue(error.message.contains(archive.path), error.message)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: archive.path))
    }

    // MARK: - SOURCE_DATE_EPOCH

    func testSourceDateEpochIsRead() throws {
        XCTAssertEqual(try SourceDateEpoch.value(in: ["SOURCE_DATE_EPOCH": "1700000000"]), 1_700_000_000)
        XCTAssertNil(try SourceDateEpoch.value(in: [:]))
        XCTAssertNil(try SourceDateEpoch.value(in: ["SOURCE_DATE_EPOCH": ""]))
    }

    func testMalformedSourceDateEpochIsAClearError() throws {
        for value in ["-5", "12abc", " 17", "1.5", "99999999999999999999"] {
            let error = try expectArchiveError { _ = try SourceDateEpoch.value(in: ["SOURCE_DATE_EPOCH": value]) }
            XCTAssertEqual(error.code, .invalidOption, value)
            XCTAssertTrue(error.message.contains("SOURCE_DATE_EPOCH is set to '\(value)'"), error.message)
        }
    }

    private let treeItems: [String: Data] = [
        "a.txt": Data("alpha".utf8),
        "b/c.txt": Data("gamma".utf8),
        "b/ü.txt": Data("umlaut".utf8),
        "empty/": Data(),
        "zero": Data(),
        "z/big.bin": noise(count: 3 << 20, seed: 11),
    ]
}
