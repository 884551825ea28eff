import Foundation
import Glibc
import PodDocArchive
import PodDocTesting
import XCTest

/// A corpus of malicious archives, built by the tests with libarchive's writer (and a hand-made
/// ustar header where libarchive refuses). Each must be refused with an error naming the entry,
/// leave nothing outside the staging folder, and leave no staging folder behind.
final class HostileArchiveTests: XCTestCase {
    /// A hostile archive and what extraction must say about it.
    private struct Case {
        var label: String
        var entries: [RawEntry]
        var code: ArchiveError.Code
        var entry: String
        var format: ArchiveFormat = .tarZstd
        var limits = ExtractionLimits()
    }

    /// A harmless entry written before the hostile one, so the staging folder is not empty
    /// when the hostile entry is refused.
    private let harmless = RawEntry(path: "ok/first.txt", contents: Data("fine".utf8))

    // MARK: - Paths

    func testPathTraversalAndAbsolutePathsAreRefused() throws {
        try verify { outside in
            [
                Case(
                    label: "dot-dot", entries: [RawEntry(path: "../escape", contents: Data("x".utf8))], code: .pathTraversal,
                    entry: "../escape"),
                Case(
                    label: "nested dot-dot", entries: [RawEntry(path: "a/../../escape", contents: Data("x".utf8))], code: .pathTraversal,
                    entry: "a/../../escape"),
                Case(
                    label: "overwrite sentinel", entries: [RawEntry(path: "../../outside/sentinel", contents: Data("pwned".utf8))],
                    code: .pathTraversal, entry: "../../outside/sentinel"),
                Case(
                    label: "absolute", entries: [RawEntry(path: outside.path + "/abs-pwned", contents: Data("x".utf8))],
                    code: .absolutePath, entry: outside.path + "/abs-pwned"),
                Case(
                    label: "abs path", entries: [RawEntry(path: "/abs/path", contents: Data("x".utf8))], code: .absolutePath,
                    entry: "/abs/path"),
                Case(
                    label: "zip dot-dot", entries: [RawEntry(path: "../escape", contents: Data("x".utf8))], code: .pathTraversal,
                    entry: "../escape", format: .zip),
                Case(
                    label: "zip absolute", entries: [RawEntry(path: outside.path + "/zip-pwned", contents: Data("x".utf8))],
                    code: .absolutePath, entry: outside.path + "/zip-pwned", format: .zip),
                Case(
                    label: "gzip dot-dot", entries: [RawEntry(path: "ok/../../escape", contents: Data("x".utf8))], code: .pathTraversal,
                    entry: "ok/../../escape", format: .tarGzip),
            ]
        }
    }

    func testBadCharactersInNamesAreRefused() throws {
        try verify { _ in
            [
                Case(
                    label: "control", entries: [RawEntry(path: "bad\u{1}name", contents: Data("x".utf8))], code: .invalidName,
                    entry: "bad\u{1}name"),
                Case(
                    label: "newline", entries: [RawEntry(path: "line\nbreak", contents: Data("x".utf8))], code: .invalidName,
                    entry: "line\nbreak"),
                Case(
                    label: "backslash", entries: [RawEntry(path: "..\\evil", contents: Data("x".utf8))], code: .invalidName,
                    entry: "..\\evil"),
                Case(label: "double slash", entries: [RawEntry(path: "a//b", contents: Data("x".utf8))], code: .invalidName, entry: "a//b"),
            ]
        }
    }

    func testEmptyNameIsRefused() throws {
        let work = try makeTemporaryFolder()
        let contents = Data("x".utf8)
        var tar = ustarHeader(name: "ok.txt", size: 4) + Data("fine".utf8) + Data(count: 508)
        tar += ustarHeader(name: "", size: contents.count) + contents + Data(count: 512 - contents.count)
        tar += Data(count: 1024)
        let archive = work.appendingPathComponent("corpus/empty-name.tar.zst")
        try FileManager.default.createDirectory(at: archive.deletingLastPathComponent(), withIntermediateDirectories: true)
        try zstdCompress(tar, to: archive)
        try expectRefusal(of: archive, in: work, code: .invalidName, entry: "", limits: ExtractionLimits())
    }

    func testNameThatIsNotUTF8IsRefused() throws {
        let work = try makeTemporaryFolder()
        var tar = ustarHeader(nameBytes: Array("bad-".utf8) + [0xFF, 0xFE], size: 1) + Data("x".utf8) + Data(count: 511)
        tar += Data(count: 1024)
        let archive = work.appendingPathComponent("corpus/latin1.tar.zst")
        try FileManager.default.createDirectory(at: archive.deletingLastPathComponent(), withIntermediateDirectories: true)
        try zstdCompress(tar, to: archive)
        try expectRefusal(of: archive, in: work, code: .invalidName, entry: "bad-\u{FFFD}\u{FFFD}", limits: ExtractionLimits())
    }

    // MARK: - Types and modes

    func testLinksAndSpecialFilesAreRefused() throws {
        try verify { outside in
            [
                Case(
                    label: "symlink", entries: [RawEntry(path: "link", type: S_IFLNK, symlinkTarget: outside.path)], code: .link,
                    entry: "link"),
                Case(
                    label: "symlink then file through it",
                    entries: [
                        RawEntry(path: "evil", type: S_IFLNK, symlinkTarget: outside.path),
                        RawEntry(path: "evil/pwned", contents: Data("x".utf8)),
                    ],
                    code: .link, entry: "evil"),
                Case(
                    label: "hardlink outside", entries: [RawEntry(path: "hl", hardlinkTarget: outside.path + "/sentinel")], code: .link,
                    entry: "hl"),
                Case(
                    label: "hardlink relative", entries: [RawEntry(path: "hl2", hardlinkTarget: "../../outside/sentinel")], code: .link,
                    entry: "hl2"),
                Case(label: "char device", entries: [RawEntry(path: "console", type: S_IFCHR)], code: .specialFile, entry: "console"),
                Case(label: "block device", entries: [RawEntry(path: "disk", type: S_IFBLK)], code: .specialFile, entry: "disk"),
                Case(label: "fifo", entries: [RawEntry(path: "pipe", type: S_IFIFO)], code: .specialFile, entry: "pipe"),
                Case(
                    label: "zip symlink", entries: [RawEntry(path: "ziplink", type: S_IFLNK, symlinkTarget: "/etc")], code: .link,
                    entry: "ziplink", format: .zip),
                Case(
                    label: "setuid", entries: [RawEntry(path: "tool", permissions: 0o4755, contents: Data("x".utf8))],
                    code: .forbiddenPermissions, entry: "tool"),
                Case(
                    label: "setgid", entries: [RawEntry(path: "tool-g", permissions: 0o2755, contents: Data("x".utf8))],
                    code: .forbiddenPermissions, entry: "tool-g"),
                Case(
                    label: "sticky dir", entries: [RawEntry(path: "shared", type: S_IFDIR, permissions: 0o1777)],
                    code: .forbiddenPermissions, entry: "shared/"),
            ]
        }
    }

    // MARK: - Names that collide

    func testDuplicateAndCollidingNamesAreRefused() throws {
        try verify { _ in
            [
                Case(
                    label: "duplicate",
                    entries: [RawEntry(path: "a.txt", contents: Data("1".utf8)), RawEntry(path: "a.txt", contents: Data("2".utf8))],
                    code: .duplicateEntry, entry: "a.txt"),
                Case(
                    label: "case",
                    entries: [RawEntry(path: "Readme", contents: Data("1".utf8)), RawEntry(path: "README", contents: Data("2".utf8))],
                    code: .nameCollision, entry: "README"),
                // libarchive hands names over in NFC, so the NFD spelling arrives as the same name.
                Case(
                    label: "normalisation",
                    entries: [
                        RawEntry(path: "caf\u{E9}", contents: Data("nfc".utf8)), RawEntry(path: "cafe\u{301}", contents: Data("nfd".utf8)),
                    ],
                    code: .duplicateEntry, entry: "caf\u{E9}"),
                Case(
                    label: "case in folder",
                    entries: [RawEntry(path: "Docs/a", contents: Data("1".utf8)), RawEntry(path: "docs/b", contents: Data("2".utf8))],
                    code: .nameCollision, entry: "docs/b"),
                Case(
                    label: "file then folder",
                    entries: [RawEntry(path: "a", contents: Data("1".utf8)), RawEntry(path: "a/b", contents: Data("2".utf8))],
                    code: .pathConflict, entry: "a/b"),
            ]
        }
    }

    // MARK: - Caps

    func testCapsAreEnforced() throws {
        try verify { _ in
            [
                Case(
                    label: "too many entries",
                    entries: (0...10).map { RawEntry(path: String(format: "f%02d", $0), contents: Data("x".utf8)) },
                    code: .tooManyEntries, entry: "f08", limits: ExtractionLimits(maximumEntryCount: 10)),
                Case(
                    label: "deep implied folders",
                    entries: [RawEntry(path: "a/b/c/d/e/f.txt", contents: Data("x".utf8))],
                    code: .tooManyEntries, entry: "a/b/c/d/e/f.txt", limits: ExtractionLimits(maximumEntryCount: 7)),
                Case(
                    label: "total size",
                    entries: [RawEntry(path: "big", contents: noise(count: 2 << 20, seed: 3))],
                    code: .tooLarge, entry: "big", limits: ExtractionLimits(maximumTotalBytes: 1 << 20)),
                Case(
                    label: "expansion bomb",
                    entries: [RawEntry(path: "zeros", contents: Data(count: 50_000_000))],
                    code: .expansionRatioExceeded, entry: "zeros"),
            ]
        }
    }

    /// The expansion ratio applies to bytes the manifest does not declare: a bomb hidden
    /// beside an honest manifest is refused at its entry, a manifest declaring the bomb's
    /// bytes lets them in only up to the absolute cap, and its lie is caught by the hashes.
    func testBombsBesideAManifestAreStillRefused() throws {
        let work = try makeTemporaryFolder()
        let zeros = Data(count: 50_000_000)
        // A true manifest of the small files; the 50 MB of zeros are not in it.
        let honest = try manifest(of: ["ok/first.txt": Data("fine".utf8), "small.txt": Data("small".utf8)], in: work)
        let unbacked = work.appendingPathComponent("unbacked.tar.zst")
        try writeRawArchive(
            [
                harmless, RawEntry(path: "small.txt", contents: Data("small".utf8)), RawEntry(path: "zeros", contents: zeros),
                RawEntry(path: Manifest.fileName, contents: honest),
            ],
            to: unbacked, format: .tarZstd)
        try expectRefusal(of: unbacked, in: work, code: .expansionRatioExceeded, entry: "zeros", limits: ExtractionLimits())
        // A manifest that declares 50 MB of zeros (whose hash it gets wrong): let in only
        // up to the absolute cap,
        var lying = String(
            decoding: try manifest(of: ["ok/first.txt": Data("fine".utf8), "zeros": Data(count: 16)], in: work), as: UTF8.self)
        lying = lying.replacingOccurrences(of: "Payload-Oxum: 20.2", with: "Payload-Oxum: \(zeros.count + 4).2")
        let declared = work.appendingPathComponent("declared.tar.zst")
        try writeRawArchive(
            [harmless, RawEntry(path: "zeros", contents: zeros), RawEntry(path: Manifest.fileName, contents: Data(lying.utf8))],
            to: declared, format: .tarZstd)
        try expectRefusal(of: declared, in: work, code: .tooLarge, entry: "zeros", limits: ExtractionLimits(maximumTotalBytes: 16 << 20))
        // and within the cap, refused by the hash it gets wrong, leaving nothing.
        let parent = work.appendingPathComponent("lying")
        try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: false)
        let error = try expectArchiveError {
            try Archive.extract(archive: declared, into: parent.appendingPathComponent("Doc.poddoc"), manifestPolicy: .require)
        }
        XCTAssertEqual(error.code, .hashMismatch, error.message)
        XCTAssertEqual(error.entry, "zeros", error.message)
        XCTAssertEqual(try names(in: parent), [])
    }

    /// Honest content as compressible as a bomb (50 MB of zeros, every byte in the manifest,
    /// the manifest last as poddoc writes it) is extracted, in every format.
    func testCompressibleContentDeclaredByItsManifestIsExtracted() throws {
        let work = try makeTemporaryFolder()
        let files = ["ok/first.txt": Data("fine".utf8), "zeros": Data(count: 50_000_000)]
        let manifest = try manifest(of: files, in: work)
        for format in ArchiveFormat.allCases {
            let archive = work.appendingPathComponent("honest.\(format.fileExtension)")
            try writeRawArchive(
                [harmless, RawEntry(path: "zeros", contents: files["zeros"]!), RawEntry(path: Manifest.fileName, contents: manifest)],
                to: archive, format: format)
            let size = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: archive.path)[.size] as? Int)
            XCTAssertGreaterThan(50_000_000 / size, 200, "\(format): the archive is over the ratio")
            let destination = work.appendingPathComponent("extracted-\(format.fileExtension)")
            try Archive.extract(archive: archive, into: destination, manifestPolicy: .require)
            let attributes = try FileManager.default.attributesOfItem(atPath: destination.appendingPathComponent("zeros").path)
            XCTAssertEqual(attributes[.size] as? Int, 50_000_000, "\(format)")
        }
    }

    /// The bytes of `manifest-sha256.txt` for these files (path → contents).
    private func manifest(of files: [String: Data], in work: URL) throws -> Data {
        let tree = work.appendingPathComponent("manifest-tree-\(UUID().uuidString)")
        try makeTree(at: tree, files)
        defer { try? FileManager.default.removeItem(at: tree) }
        return try Manifest.compute(for: tree).serialized()
    }

    // MARK: - Harness

    /// Builds each case's archive and checks that extracting it is refused cleanly.
    private func verify(_ makeCases: (_ outside: URL) -> [Case], file: StaticString = #filePath, line: UInt = #line) throws {
        let work = try makeTemporaryFolder()
        let outside = work.appendingPathComponent("outside")
        for hostile in makeCases(outside) {
            let archive = work.appendingPathComponent("corpus/\(hostile.label).\(hostile.format.fileExtension)")
            try FileManager.default.createDirectory(at: archive.deletingLastPathComponent(), withIntermediateDirectories: true)
            try writeRawArchive([harmless] + hostile.entries, to: archive, format: hostile.format)
            try expectRefusal(
                of: archive, in: work, code: hostile.code, entry: hostile.entry, limits: hostile.limits, file: file, line: line)
        }
    }

    /// Extracts `archive` next to a sentinel folder and checks the refusal.
    private func expectRefusal(
        of archive: URL, in work: URL, code: ArchiveError.Code, entry: String, limits: ExtractionLimits,
        file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let outside = work.appendingPathComponent("outside")
        if !FileManager.default.fileExists(atPath: outside.path) {
            try makeTree(at: outside, ["sentinel": Data("untouched".utf8)])
        }
        let parent = work.appendingPathComponent("extract-here")
        try? FileManager.default.removeItem(at: parent)
        try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: false)
        let workBefore = try names(in: work)
        let outsideBefore = try snapshot(of: outside)
        let destination = parent.appendingPathComponent("Imported.poddoc")

        let error = try expectArchiveError(
            { try Archive.extract(archive: archive, into: destination, limits: limits) }, file: file, line: line)
        let label = archive.lastPathComponent
        XCTAssertEqual(error.code, code, "\(label): \(error.message)", file: file, line: line)
        XCTAssertEqual(error.entry, entry, "\(label): \(error.message)", file: file, line: line)
        XCTAssertTrue(error.message.contains(archive.path), "\(label): \(error.message)", file: file, line: line)
        XCTAssertTrue(
            error.message.contains(
                "entry '\(entry.replacingOccurrences(of: "\u{1}", with: "\\u{1}").replacingOccurrences(of: "\n", with: "\\u{A}"))'"),
            "\(label): \(error.message)", file: file, line: line)
        XCTAssertEqual(try names(in: parent), [], "\(label): staging or destination left behind", file: file, line: line)
        XCTAssertEqual(try names(in: work), workBefore, "\(label): something appeared beside the corpus", file: file, line: line)
        XCTAssertEqual(try snapshot(of: outside), outsideBefore, "\(label): the outside folder changed", file: file, line: line)
        XCTAssertFalse(FileManager.default.fileExists(atPath: "/abs/path"), file: file, line: line)
    }
}
