import Foundation
import Glibc
import PodDocArchive
import PodDocTesting
import XCTest

/// Trees that cannot be archived: the writer refuses them, naming the item, and writes nothing.
final class SourceTreeTests: XCTestCase {
    private let options = ArchiveWriteOptions(modificationTime: 0)

    func testSymbolicLinkInTreeIsRefused() throws {
        let work = try makeTemporaryFolder()
        let source = work.appendingPathComponent("tree")
        try makeTree(at: source, ["StoreContent/persistentStore": Data("db".utf8)])
        try FileManager.default.createSymbolicLink(
            at: source.appendingPathComponent("StoreContent/link"), withDestinationURL: URL(fileURLWithPath: "/etc/passwd"))
        try expectRefusal(of: source, in: work, code: .unsupportedSourceFile, entry: "StoreContent/link", reason: "is a symbolic link")
    }

    func testSpecialFileInTreeIsRefused() throws {
        let work = try makeTemporaryFolder()
        let source = work.appendingPathComponent("tree")
        try makeTree(at: source, ["a": Data("a".utf8)])
        XCTAssertEqual(mkfifo(source.appendingPathComponent("pipe").path, 0o600), 0)
        try expectRefusal(of: source, in: work, code: .unsupportedSourceFile, entry: "pipe", reason: "is a device, FIFO or socket")
    }

    func testNamesExtractionWouldRefuseAreRefused() throws {
        let cases: [(String, String, ArchiveError.Code)] = [
            ("Readme", "README", .nameCollision),
            ("caf\u{E9}", "cafe\u{301}", .nameCollision),
            ("ok", "tab\tname", .invalidName),
            ("ok", "back\\slash", .invalidName),
        ]
        for (first, second, code) in cases {
            let work = try makeTemporaryFolder()
            let source = work.appendingPathComponent("tree")
            try FileManager.default.createDirectory(at: source, withIntermediateDirectories: false)
            for name in [first, second] {
                XCTAssertTrue(FileManager.default.createFile(atPath: source.path + "/" + name, contents: Data(name.utf8)), name)
            }
            let error = try expectArchiveError {
                try Archive.write(directory: source, to: work.appendingPathComponent("x.zip"), options: options)
            }
            XCTAssertEqual(error.code, code, error.message)
            XCTAssertTrue([first, second].contains { $0.utf8.elementsEqual((error.entry ?? "").utf8) }, error.message)
            XCTAssertEqual(try names(in: work), ["tree"])
        }
    }

    func testMissingSourceFolderIsNamed() throws {
        let work = try makeTemporaryFolder()
        let missing = work.appendingPathComponent("missing")
        let error = try expectArchiveError {
            try Archive.write(directory: missing, to: work.appendingPathComponent("x.tar.zst"), options: options)
        }
        XCTAssertEqual(error.code, .fileSystem)
        XCTAssertTrue(error.message.contains(missing.path), error.message)
        XCTAssertEqual(try names(in: work), [])
    }

    private func expectRefusal(of source: URL, in work: URL, code: ArchiveError.Code, entry: String, reason: String) throws {
        for format in ArchiveFormat.allCases {
            let archive = work.appendingPathComponent("out.\(format.fileExtension)")
            let error = try expectArchiveError { try Archive.write(directory: source, to: archive, options: options) }
            XCTAssertEqual(error.code, code, error.message)
            XCTAssertEqual(error.entry, entry, error.message)
            XCTAssertTrue(error.message.contains("'\(entry)' \(reason)"), error.message)
            XCTAssertEqual(try names(in: work), ["tree"], "\(format)")
        }
    }
}
