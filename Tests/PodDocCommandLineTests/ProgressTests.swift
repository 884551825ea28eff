import Foundation
import PodSpecs
import PodSpecsServer
import Synchronization
import XCTest

/// The progress of an import, through the real binary: on a terminal the bar is erased when
/// the work ends (the result line is not left under a stale bar), `--quiet` shows none, and
/// a resumed import counts its pages as its percent does, from the source's first page.
final class ProgressTests: CommandLineTestCase {
    /// The sample specs in pages of 30 (10 pages), page N answered N + 1 times `delay` after
    /// it is asked (the client asks for several at once), so they come one after the other.
    private final class SlowCatalog: SpecsCatalog {
        private let specs: PageFileSpecsCatalog
        let delay: Mutex<Duration>

        init(delay: Duration) throws {
            specs = try PageFileSpecsCatalog(file: SpecsPageFile(url: URL(fileURLWithPath: CommandLineTestCase.sampleSpecs)))
            self.delay = Mutex(delay)
        }

        func count() async throws -> Int { try await specs.count() }

        func json(in range: Range<Int>) async throws -> [String] {
            try await Task.sleep(for: delay.withLock { $0 } * (range.lowerBound / 30 + 1))
            return try await specs.json(in: range)
        }
    }

    private func serve(_ catalog: SlowCatalog) async throws -> (SpecsServer, url: String) {
        let server = SpecsServer(catalog: catalog, configuration: .init(pageSize: 30))
        let port = try await server.start()
        return (server, "http://127.0.0.1:\(port)/specs")
    }

    func testTheBarIsErasedAtTheEndAndQuietShowsNone() async throws {
        let (server, url) = try await serve(try SlowCatalog(delay: .milliseconds(30)))
        defer { Task { await server.stop() } }
        for quiet in [false, true] {
            let doc = path(quiet ? "Quiet.poddoc" : "Shown.poddoc")
            try succeed("new", doc, "--kind", "pods")
            let (process, screen, _) = try startOnTerminal(["import", doc, "--from", url] + (quiet ? ["--quiet"] : []))
            XCTAssertTrue(screen.wait(for: "Imported 300 specs"), screen.current)
            process.waitUntilExit()
            XCTAssertEqual(process.terminationStatus, 0, screen.current)
            let shown = screen.current
            if quiet {
                XCTAssertFalse(shown.contains("import ["), "--quiet draws no bar: \(shown.debugDescription)")
            } else {
                XCTAssertTrue(shown.contains("import ["), "a bar on a terminal: \(shown.debugDescription)")
                // The last bar is erased, and the result printed in its place.
                let beforeResult = try XCTUnwrap(shown.range(of: "Imported 300 specs")).lowerBound
                XCTAssertTrue(shown[..<beforeResult].hasSuffix("\r\u{1B}[2K"), "erased: \(shown.debugDescription)")
            }
        }
    }

    func testAResumedImportCountsItsPagesAsItsPercentDoes() async throws {
        // Slow enough that the first save (after a second of pages) comes long before the last page.
        let catalog = try SlowCatalog(delay: .milliseconds(700))
        let (server, url) = try await serve(catalog)
        defer { Task { await server.stop() } }
        let doc = path("Specs.poddoc")
        try succeed("new", doc, "--kind", "pods")
        // Stopped by SIGTERM once a page is saved; --resume goes on from the next one.
        let (first, firstOutput, firstErrors) = try start(["import", doc, "--from", url])
        XCTAssertTrue(firstErrors.wait(for: "import: "), firstErrors.current)
        kill(first.processIdentifier, SIGTERM)
        first.waitUntilExit()
        firstErrors.waitForEnd()
        firstOutput.waitForEnd()
        XCTAssertEqual(first.terminationStatus, 143, firstErrors.current + firstOutput.current)
        catalog.delay.withLock { $0 = .milliseconds(20) }
        let resumed = try succeed("import", doc, "--from", url, "--resume")
        let lines = resumed.stderr.split(separator: "\n").filter { $0.hasPrefix("import: ") && $0.contains(" pages") }
        XCTAssertFalse(lines.isEmpty, resumed.stderr)
        for line in lines {
            // "import: 50% 5/10 pages, …"
            let words = line.split(separator: " ")
            let percent = try XCTUnwrap(Int(words[1].dropLast()), String(line))
            let pages = words[2].split(separator: "/").compactMap { Int($0) }
            XCTAssertEqual(pages.count, 2, String(line))
            XCTAssertEqual(percent, Int((Double(pages[0]) * 100 / Double(pages[1])).rounded()), String(line))
            XCTAssertGreaterThan(pages[0], 1, "counted from the source's first page: \(line)")
        }
    }
}
