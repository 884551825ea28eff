import Foundation
import OutlineInterchange
import Outliner
import PodDocBenchmarkSupport
import PodDocStore

/// The outline document at scale, in a release build (`poddoc-bench outline`):
/// - OPML import rate (parse, insert into the main context, save to disk) for the
///   100,001-item "Archive" and for the whole 1,000,001-item outline, against raw SQLite
///   inserts of the same rows;
/// - opening the million-item document and printing its first level, in a fresh process
///   each time (`outline-open`), with that process's peak memory;
/// - deleting, undoing and redoing the 100,001-item "Archive" subtree, moving it, and saving
///   the delete and its undo;
/// - exporting the million items to OPML.
///
/// Every figure is wall-clock time and the process's CPU time: the machine is shared, and
/// CPU time does not grow when other processes take the cores.
enum OutlineBenchmark {
    /// The command that runs one open-and-print in this process (the parent starts it).
    static let openCommand = "outline-open"

    /// One measured figure.
    struct Row {
        let name: String
        let items: Int
        let wall: Double
        let cpu: Double
        let note: String

        static let header = "| outline benchmark | items | wall | CPU | items/s (wall) | notes |\n|---|---|---|---|---|---|"

        var line: String {
            String(format: "| %@ | %d | %.3f s | %.3f s | %.0f | %@ |", name, items, wall, cpu, Double(items) / wall, note)
        }
    }

    /// Wall and CPU seconds of one run of `body`.
    static func timed(_ body: () throws -> Void) rethrows -> (wall: Double, cpu: Double) {
        let start = (DispatchTime.now().uptimeNanoseconds, processCPUSeconds())
        try body()
        return (Double(DispatchTime.now().uptimeNanoseconds - start.0) / 1e9, processCPUSeconds() - start.1)
    }

    static func run() throws -> [Row] {
        let folder = try scratchFolder("outline")
        defer { try? FileManager.default.removeItem(at: folder) }
        let tree = OutlineBenchmarkDocument.millionItemTree()
        let url = folder.appending(path: "million.sqlite")
        var rows = try imports(tree, into: url, folder: folder)
        rows.append(try openInFreshProcesses(url, runs: 5))
        rows += try subtreeOperations(url)

        let doc = try OutlineBenchmarkDocument(url: url)
        var exported = Data()
        let export = try timed { exported = try doc.outline.exportOutline(as: .opml) }
        let imported = try tree.opmlData()
        precondition(exported == imported, "the export differs from the imported OPML")
        rows.append(
            Row(
                name: "export the whole outline to OPML", items: tree.count, wall: export.wall, cpu: export.cpu,
                note: String(format: "%.0f MB; peak memory of this process so far %.0f MiB", Double(exported.count) / 1e6, peakMemoryMiB()))
        )
        return rows
    }

    // MARK: - Import

    /// The "Archive" OPML into new documents (best of 3), then the whole million once, in
    /// phases, and raw SQLite inserts of the same million rows.
    static func imports(_ tree: OutlineTree, into url: URL, folder: URL) throws -> [Row] {
        let archive = subtree(of: tree, at: 0)
        let archiveOPML = try archive.opmlData()
        var best = (wall: Double.infinity, cpu: Double.infinity)
        for run in 0..<3 {
            let time = try timed {
                let doc = try OutlineBenchmarkDocument(url: folder.appending(path: "archive-\(run).sqlite"))
                try doc.outline.importOutline(archiveOPML, as: .opml)
                try doc.save()
            }
            if time.wall < best.wall { best = time }
        }
        var rows = [
            Row(
                name: "OPML import: parse, insert, save (best of 3)", items: archive.count, wall: best.wall, cpu: best.cpu,
                note: String(format: "%.1f MB of OPML", Double(archiveOPML.count) / 1e6))
        ]

        let opml = try tree.opmlData()
        var phases: [(String, (wall: Double, cpu: Double))] = []
        var parsed = OutlineTree()
        phases.append(("parse", try timed { parsed = try OutlineTree(opml: opml) }))
        let doc = try OutlineBenchmarkDocument(url: url)
        phases.append(("insert into main", try timed { try doc.outline.importOutline(parsed) }))
        phases.append(("save main → root", try timed { try doc.main.save() }))
        phases.append(("save root → disk", try timed { try doc.root.performAndWait { try $0.save() } }))
        let total = phases.reduce((wall: 0.0, cpu: 0.0)) { ($0.wall + $1.1.wall, $0.cpu + $1.1.cpu) }
        rows.append(
            Row(
                name: "OPML import: parse, insert, save", items: tree.count, wall: total.wall, cpu: total.cpu,
                note: String(format: "%.0f MB of OPML; ", Double(opml.count) / 1e6)
                    + phases.map { String(format: "%@ %.2f s (CPU %.2f s)", $0.0, $0.1.wall, $0.1.cpu) }.joined(separator: ", ")))

        let floorURL = folder.appending(path: "floor.sqlite")
        try PersistentStore(url: floorURL, model: ObjectModel(version: 1, entities: OutlineSchema.entities)).close()
        let floor = try timed { try RawOutlineInsert.insert(tree, into: floorURL) }
        rows.append(
            Row(
                name: "floor: raw SQLite inserts of the same rows, one transaction", items: tree.count, wall: floor.wall, cpu: floor.cpu,
                note: String(format: "the store's save to disk is %.1fx this", phases[3].1.wall / floor.wall)))
        return rows
    }

    // MARK: - Opening

    /// Opens the document in a new process `runs` times; the best time, with the peak
    /// memory of that process.
    static func openInFreshProcesses(_ url: URL, runs: Int) throws -> Row {
        var results: [(wall: Double, cpu: Double, note: String)] = []
        for _ in 0..<runs {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
            process.arguments = [openCommand, url.path]
            let output = Pipe()
            process.standardOutput = output
            try process.run()
            let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            let parts = text.split(separator: " ", maxSplits: 2)
            guard process.terminationStatus == 0, parts.count == 3, let wall = Double(parts[0]), let cpu = Double(parts[1]) else {
                throw BenchmarkError("outline-open failed: \(text)")
            }
            results.append((wall, cpu, parts[2].trimmingCharacters(in: .whitespacesAndNewlines)))
        }
        let best = results.min { $0.wall < $1.wall }!
        return Row(
            name: "open the document and print its first level (fresh process, best of \(runs))", items: 1_000_001,
            wall: best.wall, cpu: best.cpu,
            note: best.note + "; all runs: " + results.map { String(format: "%.1f ms", $0.wall * 1000) }.joined(separator: ", "))
    }

    /// In this process: open the document, print its first level. Prints the wall and CPU
    /// seconds, what was printed and the process's peak memory.
    static func openAndPrint(_ path: String) throws {
        var text = ""
        var opened = 0.0
        let time = try timed {
            let start = DispatchTime.now().uptimeNanoseconds
            let doc = try OutlineBenchmarkDocument(url: URL(fileURLWithPath: path))
            opened = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            text = try doc.outline.printTree(maxDepth: 1)
        }
        print(
            String(
                format: "%.4f %.4f %d lines printed; open %.1f ms, print %.1f ms; peak memory %.1f MiB",
                time.wall, time.cpu, text.split(separator: "\n").count, opened * 1000, (time.wall - opened) * 1000, peakMemoryMiB()))
    }

    // MARK: - The 100,001-item subtree

    /// Delete, undo, redo and move of "Archive" in memory on the main context, three times
    /// in a freshly opened document (the first run meets cold caches); then saving a delete
    /// and its undo to disk.
    static func subtreeOperations(_ url: URL) throws -> [Row] {
        let doc = try OutlineBenchmarkDocument(url: url)
        let archive = try doc.outline.itemID(at: .indexes([1]))
        let last = try doc.outline.itemID(at: .indexes([901]))
        var times: [String: [(wall: Double, cpu: Double)]] = [:]
        func measure(_ name: String, _ body: () throws -> Void) rethrows {
            times[name, default: []].append(try timed(body))
        }
        for _ in 0..<3 {
            var deleted = 0
            try measure("delete") { deleted = try doc.outline.delete(archive) }
            precondition(deleted == 100_001, "deleted \(deleted) items")
            measure("undo delete") { doc.undo.undo() }
            measure("redo delete") { doc.undo.redo() }
            doc.undo.undo()
            try measure("move") { try doc.outline.move(archive, under: last) }
            measure("undo move") { doc.undo.undo() }
        }
        try doc.outline.delete(archive)
        try measure("save delete") { try doc.save() }
        doc.undo.undo()
        try measure("save undone delete") { try doc.save() }
        return [
            ("delete", "delete \"Archive\" (100,001 items) from the 1,000,001"),
            ("undo delete", "undo that delete"),
            ("redo delete", "redo it"),
            ("move", "move \"Archive\" under the last top-level item"),
            ("undo move", "undo the move"),
            ("save delete", "save the delete: main → root → disk"),
            ("save undone delete", "save its undo: 100,001 rows back under their IDs"),
        ].map { key, name in
            let runs = times[key]!
            let first = runs[0]
            let note =
                runs.count == 1
                ? "one run"
                : "first run (cold) " + String(format: "%.3f s", first.wall) + "; runs: "
                    + runs.map { String(format: "%.3f", $0.wall) }.joined(separator: ", ") + " s"
            return Row(name: name, items: 100_001, wall: first.wall, cpu: first.cpu, note: note)
        }
    }

    /// A tree holding the top-level item at `index` of `tree` and everything below it.
    static func subtree(of tree: OutlineTree, at index: Int) -> OutlineTree {
        var copy = OutlineTree(opmlVersion: tree.opmlVersion, head: tree.head)
        let top = tree.children(of: tree.root)[index]
        var pending = [(top, copy.appendChild(tree[top], to: copy.root))]
        while let (from, to) = pending.popLast() {
            for child in tree.children(of: from) { pending.append((child, copy.appendChild(tree[child], to: to))) }
        }
        return copy
    }
}
