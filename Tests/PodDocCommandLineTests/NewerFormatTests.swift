import Foundation
import XCTest

/// A document a newer poddoc made is called that, by the user's name for it, and refusing to
/// edit it leaves nothing behind; a format version that is no number poddoc reads is named.
final class NewerFormatTests: CommandLineTestCase {
    /// Rewrites the `formatVersion` of a package's metadata from `old` to `value` (JSON text).
    private func setFormatVersion(_ value: String, from old: String = "1", in package: String) throws {
        let url = URL(fileURLWithPath: package + "/DocumentMetadata.json")
        let text = try String(contentsOf: url, encoding: .utf8)
        let changed = text.replacingOccurrences(of: #""formatVersion" : \#(old),"#, with: #""formatVersion" : \#(value),"#)
        XCTAssertNotEqual(changed, text, "the metadata names its format")
        try Data(changed.utf8).write(to: url)
    }

    func testANewerFormatIsCalledThatAndARefusedEditLeavesNothingBehind() throws {
        let package = try makeOutline("New.poddoc", holding: "one")
        try setFormatVersion("2", in: package)
        // An archive of it, with its manifest, as a newer poddoc would send it.
        let archive = path("New.poddoc.tar.zst")
        try succeed("export", package, archive, "--format", "archive")
        // This poddoc reads it but cannot check it (see `check` below).
        writesArchivesThatCannotOpen = true
        for doc in [package, archive] {
            let newer = "\(doc) was made by a newer poddoc (format 2, written by poddoc "
            let check = try fail(66, "check", doc)
            XCTAssertTrue(check.stderr.contains(newer) && check.stderr.contains("reads format 1"), check.stderr)
            XCTAssertFalse(check.stdout.contains("damaged") || check.stderr.contains("damaged"), check.stdout + check.stderr)
            for edit in [["outline", "add", doc, "two"], ["open", doc, "-c", "add two"], ["save", doc, "--as", path("Copy.poddoc")]] {
                let refused = try run(edit)
                XCTAssertEqual(refused.status, 66, "\(edit): \(refused.stderr)")
                XCTAssertTrue(refused.stderr.contains(newer), "\(edit): \(refused.stderr)")
                XCTAssertFalse(refused.stderr.contains(path("state")), "names the user's file, not a working copy: \(refused.stderr)")
            }
            XCTAssertFalse(FileManager.default.fileExists(atPath: path("Copy.poddoc")))
            XCTAssertEqual(try succeed("outline", "ls", doc).stdout, "1. one\n", "reading commands still work")
        }
        let working = (try? FileManager.default.contentsOfDirectory(atPath: path("state/poddoc/working"))) ?? []
        XCTAssertEqual(working, [], "no unpacked copy left in the state folder")
        XCTAssertTrue(try succeed("recover").stdout.contains("No work is waiting for recovery."))
    }

    func testAFormatVersionPoddocCannotReadIsNamed() throws {
        let package = try makeOutline("Odd.poddoc", holding: "one")
        var previous = "1"
        for (value, expected) in [
            ("99999999999999999999999", "its formatVersion is 99999999999999999999999, not a whole number up to 9223372036854775807"),
            ("1.5", "its formatVersion is 1.5, not a whole number"),
            ("0", "its formatVersion 0 is no document format; formats count from 1"),
        ] {
            try setFormatVersion(value, from: previous, in: package)
            previous = value
            for command in [["info", package], ["outline", "add", package, "two"]] {
                let result = try run(command)
                XCTAssertEqual(result.status, 66, "\(command): \(result.stderr)")
                XCTAssertTrue(result.stderr.contains(expected), "\(value): \(result.stderr)")
                XCTAssertFalse(result.stderr.contains("not valid JSON"), result.stderr)
            }
        }
    }
}
