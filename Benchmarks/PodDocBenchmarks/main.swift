import Foundation
import PodDocBenchmarkSupport

// Runs the benchmarks named on the command line (all when none) and prints Markdown rows.
// Build in release: `make bench` (or `make bench BENCHMARKS="autosave archive"`).
let available = [
    "find-or-create", "autosave", "archive", "specs-import", "specs-index", "outline", "outline-cli", "siblings", "serve-load", "versions",
    "merge", "migration",
]
if CommandLine.arguments.count == 3, CommandLine.arguments[1] == OutlineBenchmark.openCommand {
    // One open-and-print of the outline benchmark, in the fresh process it started.
    try OutlineBenchmark.openAndPrint(CommandLine.arguments[2])
    exit(0)
}
let chosen = CommandLine.arguments.dropFirst().isEmpty ? available : Array(CommandLine.arguments.dropFirst())
for name in chosen where !available.contains(name) {
    FileHandle.standardError.write(Data("unknown benchmark '\(name)'; choose from: \(available.joined(separator: ", "))\n".utf8))
    exit(2)
}
/// Runs the chosen benchmarks on the main actor.
@MainActor
func runChosen() async throws {
    for name in chosen {
        switch name {
        case "find-or-create":
            print(Measurement.header)
            for m in try await FindOrCreateBenchmark.run() { print(m.row) }
        case "autosave":
            for row in try await DocumentBenchmarks.autosave() { print(row) }
        case "archive":
            for row in try await DocumentBenchmarks.exportAndOpen() { print(row) }
        case "specs-import":
            for m in try await SpecsImportBenchmark.run100k() { print(m.row) }
        case "specs-index":
            for m in try await SpecsImportBenchmark.runWholeIndex() { print(m.row) }
        case "serve-load":
            for row in try await ServeLoadBenchmark.run() { print(row) }
        case "versions":
            for row in try await VersionsBenchmark.run() { print(row) }
        case "merge":
            for items in [20_000, 200_000] {
                for row in try await MergeBenchmark.run(items: items) { print(row) }
            }
        case "migration":
            for row in try await MigrationBenchmark.run() { print(row) }
        case "outline-cli":
            for row in try OutlineCommandLineBenchmark.run() { print(row) }
        case "siblings":
            for row in try SiblingsBenchmark.run() { print(row) }
        case "outline":
            let rows = try OutlineBenchmark.run()
            print(OutlineBenchmark.Row.header)
            for row in rows { print(row.line) }
        default:
            break
        }
        print("")
    }
}

// The main thread's run loop drains the main queue (the main actor), as in an application with
// a user-interface loop: main-actor work then runs on the main thread, where its CPU time can
// be read (top-level `await` would hand the main queue to libdispatch's worker threads).
Task { @MainActor in
    do {
        try await runChosen()
        exit(0)
    } catch {
        FileHandle.standardError.write(Data("poddoc-bench: \(error)\n".utf8))
        exit(1)
    }
}
RunLoop.main.run()
