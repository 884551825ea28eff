import Foundation
import PodDocArchive
import PodDocFileSystem
import PodDocTesting
import XCTest

final class RoundTripTests: XCTestCase {
    private let options = ArchiveWriteOptions(modificationTime: 1_700_000_000)

    /// A document-like tree: empty folders, a 0-byte file, a ~20 MB file, Unicode names.
    private func makeDocumentTree(at root: URL) throws {
        try makeTree(
            at: root,
            [
                "StoreContent/persistentStore": noise(count: 20_000_000, seed: 7),
                "AdditionalContent/": Data(),
                "AdditionalContent/empty folder/": Data(),
                "DocumentMetadata.json": Data(#"{"title":"Notes"}"#.utf8),
                "empty.txt": Data(),
                "Überblick – café.txt": Data("é NFC".utf8),
                "日本語/ノート.md": Data("# ノート".utf8),
                "emoji 🎉/100% done.txt": Data("percent".utf8),
            ])
    }

    func testEachFormatRoundTripsTheTree() throws {
        let work = try makeTemporaryFolder()
        let source = work.appendingPathComponent("Name.poddoc")
        try makeDocumentTree(at: source)
        let expected = try snapshot(of: source)
        XCTAssertEqual(expected.count, 11)
        for format in ArchiveFormat.allCases {
            let archive = work.appendingPathComponent("Name.\(format.fileExtension)")
            try Archive.write(directory: source, to: archive, options: options)
            XCTAssertEqual(try Archive.detectFormat(of: archive), format)
            let destination = work.appendingPathComponent("extracted-\(format)")
            try Archive.extract(archive: archive, into: destination)
            XCTAssertEqual(try snapshot(of: destination), expected, "\(format)")
        }
    }

    func testFormatIsDetectedFromContentNotName() throws {
        let work = try makeTemporaryFolder()
        let source = work.appendingPathComponent("tree")
        try makeTree(at: source, ["a.txt": Data("a".utf8), "dir/b.txt": Data("b".utf8)])
        let pairs: [(ArchiveFormat, String)] = [(.zip, "lies.tar.zst"), (.tarZstd, "lies.zip"), (.tarGzip, "lies.tar.zst")]
        for (format, misleadingName) in pairs {
            let archive = work.appendingPathComponent(misleadingName)
            try Archive.write(directory: source, to: archive, format: format, options: options)
            XCTAssertEqual(try Archive.detectFormat(of: archive), format)
            let destination = work.appendingPathComponent("out-\(format)")
            try Archive.extract(archive: archive, into: destination)
            XCTAssertEqual(try snapshot(of: destination), try snapshot(of: source))
            try FileManager.default.removeItem(at: archive)
        }
    }

    func testFormatComesFromTheExtensionWhenWriting() throws {
        let work = try makeTemporaryFolder()
        let expectations: [(String, ArchiveFormat)] = [
            ("a.tar.zst", .tarZstd), ("b.TZST", .tarZstd), ("c.zip", .zip), ("d.tar.gz", .tarGzip), ("e.tgz", .tarGzip),
        ]
        for (name, format) in expectations {
            XCTAssertEqual(try ArchiveFormat(inferringFrom: work.appendingPathComponent(name)), format, name)
        }
        let unknown = work.appendingPathComponent("Name.poddoc")
        let error = try expectArchiveError { try Archive.write(directory: work, to: unknown, options: options) }
        XCTAssertEqual(error.code, .unsupportedFormat)
        XCTAssertTrue(error.message.contains(unknown.path), error.message)
        XCTAssertEqual(try names(in: work), [])
    }

    func testExcludedPathsAreLeftOut() throws {
        let work = try makeTemporaryFolder()
        let source = work.appendingPathComponent("Name.poddoc")
        try makeTree(at: source, [".poddoc-lock": Data("{}".utf8), "cache/x": Data("x".utf8), "keep": Data("k".utf8)])
        let archive = work.appendingPathComponent("out.tar.zst")
        let excluding = ArchiveWriteOptions(modificationTime: 0, excludedPaths: [".poddoc-lock", "cache"])
        try Archive.write(directory: source, to: archive, options: excluding)
        let destination = work.appendingPathComponent("extracted")
        try Archive.extract(archive: archive, into: destination)
        XCTAssertEqual(try names(in: destination), ["keep"])
    }

    func testEmptyTreeRoundTrips() throws {
        let work = try makeTemporaryFolder()
        let source = work.appendingPathComponent("empty")
        try FileManager.default.createDirectory(at: source, withIntermediateDirectories: false)
        for format in ArchiveFormat.allCases {
            let archive = work.appendingPathComponent("empty.\(format.fileExtension)")
            try Archive.write(directory: source, to: archive, options: options)
            let destination = work.appendingPathComponent("out-\(format)")
            try Archive.extract(archive: archive, into: destination)
            XCTAssertEqual(try names(in: destination), [], "\(format)")
        }
    }

    func testArchiveMadeBySystemTarWithDotPrefixesIsAccepted() throws {
        let work = try makeTemporaryFolder()
        let source = work.appendingPathComponent("tree")
        try makeTree(at: source, ["a.txt": Data("a".utf8), "dir/b.txt": Data("b".utf8), "empty/": Data()])
        let archive = work.appendingPathComponent("system.tar.gz")
        let tar = Process()
        tar.executableURL = URL(fileURLWithPath: "/bin/tar")
        tar.arguments = ["-czf", archive.path, "-C", source.path, "."]
        try tar.run()
        tar.waitUntilExit()
        XCTAssertEqual(tar.terminationStatus, 0)
        let destination = work.appendingPathComponent("out")
        try Archive.extract(archive: archive, into: destination)
        XCTAssertEqual(try snapshot(of: destination).keys.sorted(), ["a.txt", "dir", "dir/b.txt", "empty"])
    }
}
