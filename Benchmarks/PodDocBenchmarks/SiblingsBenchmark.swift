import Foundation
import PodDocBenchmarkSupport

/// Edits among 100,000 siblings with the release binary, on a package: an insert at the top
/// and in the middle, a move of the last item to the top and one in the middle of the list,
/// each the best of three (wall time and peak memory from GNU time), against `poddoc info` on
/// the same document in the same run (the start, the open and the close every command pays);
/// then `diff --from 1` on an archive of those siblings with one item added since, against
/// `poddoc info` on that archive.
@MainActor
enum SiblingsBenchmark {
    static let siblings = 100_000

    static func run() throws -> [String] {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/time") else {
            return ["| edits among 100,000 siblings | skipped: GNU time (/usr/bin/time) is not installed | | |"]
        }
        let poddoc = OutlineCommandLineBenchmark.poddocBinary.path
        guard FileManager.default.isExecutableFile(atPath: poddoc) else {
            throw BenchmarkError("\(poddoc) is missing: `swift build -c release --product poddoc` first (make bench-e2e does)")
        }
        let folder = FileManager.default.temporaryDirectory.appending(path: "poddoc-bench-siblings-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        setenv("XDG_STATE_HOME", folder.appending(path: "state").path, 1)

        var opml = #"<?xml version="1.0" encoding="UTF-8"?><opml version="2.0"><head><title>Siblings</title></head><body>"#
        for index in 1...siblings { opml += #"<outline text="Item \#(index)"/>"# }
        opml += "</body></opml>"
        let source = folder.appending(path: "siblings.opml")
        try Data(opml.utf8).write(to: source)
        let doc = folder.appending(path: "Siblings.poddoc").path
        try DocumentBenchmarks.run(poddoc, ["new", doc, "--kind", "outline"])
        try DocumentBenchmarks.run(poddoc, ["import", doc, "--opml", source.path])

        func best(_ arguments: [String]) throws -> OutlineCommandLineBenchmark.Timed {
            var runs: [OutlineCommandLineBenchmark.Timed] = []
            for _ in 0..<3 { runs.append(try OutlineCommandLineBenchmark.timed([poddoc] + arguments, in: folder)) }
            return runs.min { $0.seconds < $1.seconds }!
        }
        let floor = try best(["info", doc])
        let edits: [(String, [String])] = [
            ("`outline insert DOC 1 Top`: a new first item", ["outline", "insert", doc, "1", "Top"]),
            ("`outline insert DOC 50000 Middle`: a new item in the middle", ["outline", "insert", doc, "50000", "Middle"]),
            (
                "`outline mv DOC 100000 --under / --at 1`: the last item to the top",
                ["outline", "mv", doc, "100000", "--under", "/", "--at", "1"]
            ),
            ("`outline mv DOC 50000 --at 3`: an item in the middle among its siblings", ["outline", "mv", doc, "50000", "--at", "3"]),
        ]
        var rows = [
            "| edit among \(siblings.formatted()) siblings (package) | poddoc (best of 3) | `poddoc info DOC` (same run) |",
            "|---|---|---|",
        ]
        for (name, arguments) in edits {
            let timed = try best(arguments)
            rows.append(
                "| \(name) | " + String(format: "%.3f s, peak %.0f MiB", timed.seconds, timed.peakMiB) + " | "
                    + String(format: "%.3f s, peak %.0f MiB", floor.seconds, floor.peakMiB) + " |")
        }
        let archive = folder.appending(path: "Siblings.poddoc.tar.zst").path
        try DocumentBenchmarks.run(poddoc, ["new", archive, "--kind", "outline"])
        try DocumentBenchmarks.run(poddoc, ["import", archive, "--opml", source.path])
        try DocumentBenchmarks.run(poddoc, ["outline", "insert", archive, "1", "Top"])
        let archiveFloor = try best(["info", archive])
        let diff = try best(["diff", archive, "--from", "1"])
        rows.append(
            "| `diff DOC --from 1` on an archive (one item added since save 1) | "
                + String(format: "%.3f s, peak %.0f MiB", diff.seconds, diff.peakMiB) + " | "
                + String(format: "%.3f s, peak %.0f MiB", archiveFloor.seconds, archiveFloor.peakMiB) + " |")
        return rows
    }
}
