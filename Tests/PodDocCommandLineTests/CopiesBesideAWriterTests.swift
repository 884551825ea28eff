import Foundation
import Glibc
import XCTest

/// Commands that copy a document (`export --format archive`, `save --as`, and the copies of
/// earlier saves behind `diff --from` and `export --at`), through the real binary, while the
/// package's `-wal` holds commits: beside a shell that autosaved and stays open, and after a
/// writer killed before it checkpointed. Each copy holds the commits of the log, opens, passes
/// `check`, and the document is left byte for byte as it was (but the `-shm`, the index every
/// reader of a log shares).
final class CopiesBesideAWriterTests: CommandLineTestCase {
    /// The shells' standard inputs, kept open until the test ends (closing one is Ctrl-D).
    private var inputs: [Pipe] = []

    /// The package's files and their hashes, but the `-shm`.
    private func contentHashes(_ doc: String) throws -> [String: String] {
        try hashes(doc).filter { !$0.key.hasSuffix("-shm") }
    }

    /// The size of the package's `-wal` (0 when there is none).
    private func logSize(_ doc: String) -> Int {
        (try? FileManager.default.attributesOfItem(atPath: doc + "/StoreContent/persistentStore-wal"))?[.size] as? Int ?? 0
    }

    /// Runs the four copying commands on `doc`, whose newest save holds `title` and whose
    /// save before it does not; checks every copy and that `doc` did not change.
    private func copyEveryWay(_ doc: String, holding title: String, file: StaticString = #filePath, line: UInt = #line) throws {
        XCTAssertGreaterThan(logSize(doc), 0, "the log holds commits", file: file, line: line)
        let before = try contentHashes(doc)
        let versions = try succeed("versions", doc, "--json", file: file, line: line).json(VersionsShape.self)
        let newest = try XCTUnwrap(versions.versions.first?.save, file: file, line: line)
        let archive = path("out/Copy.poddoc.tar.zst")
        let package = path("out/Copy.poddoc")
        let past = path("out/past.opml")
        try FileManager.default.createDirectory(atPath: path("out"), withIntermediateDirectories: true)

        try succeed("export", doc, archive, "--format", "archive", file: file, line: line)
        try succeed("save", doc, "--as", package, file: file, line: line)
        let diff = try succeed("diff", doc, "--from", "\(newest - 1)", "--json", file: file, line: line).json(DiffShape.self)
        XCTAssertEqual(diff.items?.map(\.title), [title], "the newest save added \(title)", file: file, line: line)
        try succeed("export", doc, past, "--format", "opml", "--at", "\(newest)", file: file, line: line)

        XCTAssertEqual(try contentHashes(doc), before, "the document is byte for byte as it was", file: file, line: line)
        for copy in [archive, package] {
            XCTAssertTrue(try succeed("outline", "tree", copy, file: file, line: line).stdout.contains(title), copy, file: file, line: line)
            XCTAssertTrue(try succeed("check", copy, file: file, line: line).stdout.contains(": ok"), copy, file: file, line: line)
        }
        XCTAssertTrue(try String(contentsOfFile: past, encoding: .utf8).contains(title), file: file, line: line)
        let copied = try hashes(package).keys
        XCTAssertFalse(
            copied.contains { $0.hasSuffix("-wal") || $0.hasSuffix("-shm") }, "a copy is closed: \(copied)", file: file, line: line)
    }

    func testCopiesBesideAShellThatAutosaved() throws {
        let doc = try makeOutline("Live.poddoc", holding: "first")
        let input = Pipe()
        inputs.append(input)
        let (shell, out, err) = try start(["open", doc, "--autosave-interval", "0.2"], stdin: input.fileHandleForReading)
        input.fileHandleForWriting.write(Data("add autosaved\n".utf8))
        XCTAssertTrue(err.wait(for: "autosaved Live.poddoc"), err.current)

        try copyEveryWay(doc, holding: "autosaved")

        // The shell goes on saving beside the readers it had, and ends with everything.
        input.fileHandleForWriting.write(Data("add later\n".utf8))
        XCTAssertTrue(err.wait(for: "autosaved Live.poddoc", count: 2), err.current)
        input.fileHandleForWriting.write(Data("quit\n".utf8))
        shell.waitUntilExit()
        XCTAssertEqual(shell.terminationStatus, 0, out.current + err.current)
        XCTAssertEqual(try succeed("outline", "tree", doc).stdout, "1. first\n2. autosaved\n3. later\n")
        XCTAssertTrue(try succeed("check", doc).stdout.contains(": ok"))
    }

    func testCopiesOfAPackageAWriterLeftWithItsLog() throws {
        let doc = try makeOutline("Crashed.poddoc", holding: "first")
        try crashAfterAutosave(doc, typing: "add \"in the log\"\n")

        try copyEveryWay(doc, holding: "in the log")

        // The next writer takes the log over, as before.
        try succeed("outline", "add", doc, "after")
        XCTAssertEqual(try succeed("outline", "tree", doc).stdout, "1. first\n2. in the log\n3. after\n")
    }

    /// A pods document copied while the specs its shell imported (and saved) are in the log:
    /// the archive holds them.
    func testAnArchiveOfPodsBesideAShellCountsTheAutosavedSpecs() throws {
        let doc = path("Specs.poddoc")
        try succeed("new", doc, "--kind", "pods")
        let input = Pipe()
        inputs.append(input)
        let (shell, out, err) = try start(["open", doc, "--autosave-interval", "0.2"], stdin: input.fileHandleForReading)
        input.fileHandleForWriting.write(Data("import --from \(Self.sampleSpecs)\n".utf8))
        XCTAssertTrue(out.wait(for: "Imported 300 specs"), out.current + err.current)
        XCTAssertGreaterThan(logSize(doc), 0)
        let counted = try succeed("pods", "count", doc, "--json").stdout
        try succeed("export", doc, path("Specs.zip"), "--format", "archive")
        XCTAssertEqual(try succeed("pods", "count", path("Specs.zip"), "--json").stdout, counted)
        XCTAssertTrue(try succeed("check", path("Specs.zip")).stdout.contains(": ok"))
        input.fileHandleForWriting.write(Data("quit\n".utf8))
        shell.waitUntilExit()
        XCTAssertEqual(shell.terminationStatus, 0)
    }
}
