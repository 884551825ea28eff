import Foundation
import XCTest

/// Exports stream to their file through the real binary: memory stays far below the size of
/// what is written, and a file that would be almost all indentation is announced first.
final class ExportMemoryTests: CommandLineTestCase {
    /// A saved outline streams from the store one item at a time: exporting 100,000 items
    /// takes about the memory of exporting one (the tree in memory took 1.3 KB an item).
    func testAnExportHoldsNeitherTheOutputNorTheTree() throws {
        let count = 100_000
        try writeOPML("items.opml", body: (0..<count).map { #"<outline text="item \#($0) with a few words" _note="note \#($0)"/>"# })
        let doc = path("Flat.poddoc")
        let small = path("Small.poddoc")
        try succeed("new", doc, "--kind", "outline")
        try succeed("import", doc, "--opml", path("items.opml"))
        try succeed("new", small, "--kind", "outline")
        try succeed("outline", "add", small, "one")
        for format in ["opml", "json", "markdown", "text"] {
            let (one, onePeak) = try peakMemory(["export", small, path("small.\(format)"), "--format", format])
            XCTAssertEqual(one.status, 0, one.stderr)
            let (all, peak) = try peakMemory(["export", doc, path("flat.\(format)"), "--format", format])
            XCTAssertEqual(all.status, 0, all.stderr)
            XCTAssertLessThan(peak - onePeak, 24 << 20, "\(format): \(peak) bytes at the peak for \(count) items, \(onePeak) for one")
        }
        let exported = try String(contentsOfFile: path("flat.text"), encoding: .utf8)
        XCTAssertEqual(exported.split(separator: "\n").count, count)
        XCTAssertTrue(exported.hasPrefix("item 0 with a few words\nitem 1 with a few words\n"))
    }

    func testADeepMarkdownExportStreamsAndIsAnnounced() throws {
        let depth = 20_000
        try writeOPML(
            "deep.opml", body: (0..<depth).map { #"<outline text="level \#($0)">"# } + Array(repeating: "</outline>", count: depth))
        let doc = path("Deep.poddoc")
        try succeed("new", doc, "--kind", "outline")
        try succeed("import", doc, "--opml", path("deep.opml"))

        let (result, peak) = try peakMemory(["export", doc, path("deep.md"), "--format", "markdown"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let size = try XCTUnwrap(try FileManager.default.attributesOfItem(atPath: path("deep.md"))[.size] as? Int)
        XCTAssertGreaterThan(size, 390_000_000, "two spaces a level: about depth² bytes of indentation")
        XCTAssertLessThan(peak, size / 3, "memory stays far below the file written (peak \(peak) bytes for \(size))")
        XCTAssertTrue(result.stderr.contains("levels deep") && result.stderr.contains("almost all of it indentation"), result.stderr)
        // The same outline as OPML: no warning.
        let opmlExport = try succeed("export", doc, path("deep.opml.out"), "--format", "opml")
        XCTAssertFalse(opmlExport.stderr.contains("warning"), opmlExport.stderr)
        try FileManager.default.removeItem(atPath: path("deep.md"))
    }
}
