import Foundation
import XCTest

/// Mistakes get one clear line, the documented exit status, and leave the document as it was.
final class BadInputTests: CommandLineTestCase {
    func testMissingDocumentAndUsageErrors() throws {
        let missing = try fail(66, "info", path("Nothing.poddoc"))
        XCTAssertTrue(missing.stderr.contains("does not exist"), missing.stderr)
        XCTAssertEqual(missing.stdout, "")
        let json = try fail(66, "pods", "count", path("Nothing.poddoc"), "--json")
        let shape = try RunResult(status: 0, stdout: json.stderr, stderr: "").json(ErrorShape.self)
        XCTAssertEqual(shape.error.code, "notADocument")
        XCTAssertEqual(shape.error.exitStatus, 66)

        XCTAssertEqual(try poddoc("frobnicate").status, 64)
        XCTAssertEqual(try poddoc("new", path("X.poddoc")).status, 64, "--kind is required")
        XCTAssertEqual(try poddoc("new", path("X.poddoc"), "--kind", "spreadsheet").status, 64)
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("X.poddoc")))
        let help = try succeed("--help")
        XCTAssertTrue(help.stdout.contains("EXIT STATUS"), help.stdout)
        XCTAssertTrue(help.stdout.contains("75"), help.stdout)
    }

    func testWrongKindIsRefused() throws {
        try succeed("new", path("Notes.poddoc"), "--kind", "outline")
        let result = try fail(66, "pods", "count", path("Notes.poddoc"))
        XCTAssertTrue(result.stderr.contains("outline document"), result.stderr)
        try fail(64, "import", path("Notes.poddoc"), "--from", Self.sampleSpecs)
    }

    func testMalformedImportsChangeNothing() throws {
        try succeed("new", path("Notes.poddoc"), "--kind", "outline")
        try succeed("outline", "add", path("Notes.poddoc"), "Keep me")
        try succeed("new", path("Specs.poddoc"), "--kind", "pods")
        let before = try ["Notes.poddoc", "Specs.poddoc"].map { try succeed("info", path($0), "--json").json(InfoShape.self) }

        let bad = Self.repository.appending(path: "Tests/Fixtures/opml/menubar-not-well-formed.opml").path
        let opml = try fail(65, "import", path("Notes.poddoc"), "--opml", bad)
        XCTAssertTrue(opml.stderr.contains("menubar-not-well-formed.opml") || opml.stderr.lowercased().contains("opml"), opml.stderr)
        try Data("{\"number_of_pages\": 1, \"result\": [{\"name\": ".utf8).write(to: URL(fileURLWithPath: path("broken.json")))
        try fail(65, "import", path("Specs.poddoc"), "--from", path("broken.json"))
        try fail(65, "import", path("Specs.poddoc"), "--from", path("no-such-folder"))
        try fail(65, "outline", "rename", path("Notes.poddoc"), "7", "Nope")

        let after = try ["Notes.poddoc", "Specs.poddoc"].map { try succeed("info", path($0), "--json").json(InfoShape.self) }
        XCTAssertEqual(after.map(\.storeHash), before.map(\.storeHash))
        XCTAssertEqual(after.map(\.saveSequence), before.map(\.saveSequence))
        XCTAssertEqual(try succeed("outline", "tree", path("Notes.poddoc")).stdout, "1. Keep me\n")
    }

    func testLockedDocumentNamesItsHolder() throws {
        try succeed("new", path("Notes.poddoc"), "--kind", "outline")
        let input = Pipe()
        let (shell, _, shellErrors) = try start(["open", path("Notes.poddoc")], stdin: input.fileHandleForReading)
        input.fileHandleForWriting.write(Data("status\n".utf8))
        let info = try waitForLock(on: path("Notes.poddoc"))
        XCTAssertEqual(info.lock?.pid, shell.processIdentifier)
        let locked = try fail(75, "outline", "add", path("Notes.poddoc"), "Second writer")
        XCTAssertTrue(locked.stderr.contains("\(shell.processIdentifier)"), locked.stderr)
        XCTAssertEqual(try succeed("outline", "tree", path("Notes.poddoc")).stdout, "", "reading works while another process edits")
        try input.fileHandleForWriting.close()
        shell.waitUntilExit()
        XCTAssertEqual(shell.terminationStatus, 0, shellErrors.current)
    }

    func testCheckReportsADamagedStore() throws {
        try succeed("new", path("Specs.poddoc"), "--kind", "pods")
        try succeed("import", path("Specs.poddoc"), "--from", Self.sampleSpecs)
        let store = URL(fileURLWithPath: path("Specs.poddoc/StoreContent/persistentStore"))
        var bytes = try Data(contentsOf: store)
        for offset in stride(from: 4096 * 3, to: min(bytes.count, 4096 * 6), by: 7) { bytes[offset] ^= 0x5A }
        try bytes.write(to: store)
        let result = try run(["check", path("Specs.poddoc"), "--json"])
        XCTAssertEqual(result.status, 76, result.stderr)
        XCTAssertFalse(try result.json(CheckShape.self).ok)
    }

    private func waitForLock(on document: String) throws -> InfoShape {
        for _ in 0..<300 {
            let info = try succeed("info", document, "--json").json(InfoShape.self)
            if info.lock != nil { return info }
            Thread.sleep(forTimeInterval: 0.05)
        }
        throw TestSetupFailure(description: "the shell never locked \(document)")
    }
}
