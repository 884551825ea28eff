import Foundation
import XCTest

/// poddoc opens every archive it writes: content as compressible as a compression bomb (a
/// 1.6 MB note of `====` lines packs into a few kilobytes) is vouched for by the archive's
/// manifest, through every way an archive is written, in every format.
final class CompressibleArchiveTests: CommandLineTestCase {
    /// An outline JSON file holding one item whose note is 20,000 lines of 79 `=`.
    private func writeBigNote() throws -> String {
        let note = Array(repeating: String(repeating: "=", count: 79), count: 20_000).joined(separator: "\n")
        let tree: [String: Any] = [
            "opmlVersion": NSNull(), "head": [Any](), "bodyAttributes": [Any](),
            "children": [["title": "Note", "note": note, "attributes": [Any](), "children": [Any]()]],
        ]
        let file = path("big.json")
        try JSONSerialization.data(withJSONObject: tree).write(to: URL(fileURLWithPath: file))
        return file
    }

    /// Asserts a `.tar.zst` is far over the 200× ratio (zip and gzip pack the store about
    /// 110×), then opens the archive every way: `check`, a reading command, the read-only
    /// shell, and an edit.
    private func assertOpens(_ archive: String, holding expected: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let size = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: archive)[.size] as? Int, file: file, line: line)
        if archive.hasSuffix(".tar.zst") {
            XCTAssertLessThan(size * 200, 1_600_000, "\(archive) has a compression bomb's shape (\(size) bytes)", file: file, line: line)
        }
        let check = try succeed("check", archive, file: file, line: line)
        XCTAssertTrue(check.stdout.contains(": ok (sha256:"), check.stdout, file: file, line: line)
        XCTAssertEqual(try succeed("outline", "ls", archive, file: file, line: line).stdout, expected, file: file, line: line)
        try succeed("open", archive, "--read-only", "-c", "ls", file: file, line: line)
        try succeed("outline", "add", archive, "edited", file: file, line: line)
        try succeed("check", archive, file: file, line: line)
    }

    func testArchivesOfVeryCompressibleContentOpenThroughEveryWritingPath() throws {
        let big = try writeBigNote()
        let package = try makeOutline("Notes.poddoc", holding: "first")
        try succeed("import", package, "--outline-json", big)
        let saveWithNote = 2
        try succeed("outline", "rm", package, "1")
        for format in ["tar.zst", "zip", "tar.gz"] {
            // Made as an archive, edited, saved.
            let made = path("Made.poddoc.\(format)")
            try succeed("new", made, "--kind", "outline")
            try succeed("import", made, "--outline-json", big)
            try succeed("save", made)
            try assertOpens(made, holding: "1. Note  [note]\n")
            // Saved as a copy, exported, and exported as of an earlier save.
            let copy = path("Copy.\(format)")
            try succeed("save", package, "--as", copy)
            try assertOpens(copy, holding: "1. Note  [note]\n")
            let export = path("Export.\(format)")
            try succeed("export", package, export, "--format", "archive")
            try assertOpens(export, holding: "1. Note  [note]\n")
            let past = path("Past.\(format)")
            try succeed("export", package, past, "--format", "archive", "--at", "\(saveWithNote)")
            try assertOpens(past, holding: "1. first\n2. Note  [note]\n")
        }
    }

    /// A copy as of an earlier save leaves out the pages of the saves after it.
    func testAPastCopyCarriesNoFreePages() throws {
        let big = try writeBigNote()
        let package = try makeOutline("Notes.poddoc", holding: "first")
        try succeed("import", package, "--outline-json", big)
        try succeed("outline", "rm", package, "2")
        try succeed("export", package, path("Past.tar.zst"), "--format", "archive", "--at", "1")
        let unpacked = path("unpacked")
        try FileManager.default.createDirectory(atPath: unpacked, withIntermediateDirectories: false)
        XCTAssertEqual(try runTool("/usr/bin/tar", ["--zstd", "-xf", path("Past.tar.zst"), "-C", unpacked]).status, 0)
        let store = "StoreContent/persistentStore"
        let pastSize = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: unpacked + "/" + store)[.size] as? Int)
        XCTAssertLessThan(pastSize, 200_000, "save 1 holds one item, not the 1.6 MB note's free pages")
    }
}
