import Foundation
import Glibc
import XCTest

/// A one-shot edit reports success only once its save committed, through the real binary: a
/// full disk gets the error alone, and a signal gets one line saying what was saved.
final class SaveReportingTests: CommandLineTestCase {
    /// An OPML file of `count` items of about 200 bytes each.
    private func writeOPML(_ count: Int) throws -> String {
        try writeOPML(
            "big.opml",
            body: (0..<count).lazy.map { i in
                #"<outline text="item number \#(i) \#(String(repeating: "y", count: 150))" _note="note \#(i)"/>"#
            })
    }

    private func itemCount(_ doc: String) throws -> Int {
        try succeed("outline", "ls", doc).stdout.split(separator: "\n").count
    }

    func testAFullDiskGetsTheErrorAndNoReportOfSuccess() throws {
        let opml = try writeOPML(20_000)
        let disk = path("full")
        try mount(["-t", "tmpfs", "-o", "size=3m", "tmpfs"], at: disk, why: "a full 3 MB tmpfs")
        let doc = disk + "/N.poddoc"
        try succeed("new", doc, "--kind", "outline")
        for arguments in [["import", doc, "--opml", opml], ["import", doc, "--opml", opml, "--json"]] {
            let result = try run(arguments)
            XCTAssertEqual(result.status, 66, result.stderr)
            XCTAssertEqual(result.stdout, "", "no report of an import that was not saved")
            XCTAssertTrue(result.stderr.contains("disk is full"), result.stderr)
        }
        XCTAssertEqual(try itemCount(doc), 0)
        XCTAssertTrue(try succeed("check", doc).stdout.contains(": ok"))
    }

    func testASignalDuringAnImportLeavesAReportThatIsTrue() throws {
        let opml = try writeOPML(20_000)
        for (round, delay) in [0.05, 0.4, 0.9, 1.5, 2.2].enumerated() {
            let doc = path("T\(round).poddoc")
            try succeed("new", doc, "--kind", "outline")
            let (process, out, err) = try start(["import", doc, "--opml", opml, "--json"])
            Thread.sleep(forTimeInterval: delay)
            kill(process.processIdentifier, SIGTERM)
            process.waitUntilExit()
            out.waitForEnd()
            err.waitForEnd()
            let items = try itemCount(doc)
            switch process.terminationReason == .uncaughtSignal ? -process.terminationStatus : process.terminationStatus {
            case -SIGTERM:
                // Killed before poddoc had started listening for signals (the process was
                // still starting): it had done nothing, and says nothing.
                XCTAssertEqual(out.current, "", "no success reported")
                XCTAssertEqual(items, 0)
            case 0:
                XCTAssertTrue(out.current.contains(#""done":"Import 20,000 items""#), out.current)
                XCTAssertEqual(items, 20_000, "a reported import is saved")
            case 143:
                XCTAssertEqual(out.current, "", "no success reported")
                XCTAssertTrue(err.current.contains("Stopped by SIGTERM; nothing of this command was saved"), err.current)
                XCTAssertEqual(items, 0)
            default:
                XCTFail("delay \(delay): exit \(process.terminationStatus): \(err.current)")
            }
            XCTAssertTrue(try succeed("check", doc).stdout.contains(": ok"))
        }
    }
}
