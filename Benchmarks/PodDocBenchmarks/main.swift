import Foundation

// Runs the benchmarks named on the command line (all when none) and prints a Markdown table.
// Build in release: `make bench`.
let available = ["find-or-create", "specs-import", "specs-index"]
let chosen = CommandLine.arguments.dropFirst().isEmpty ? available : Array(CommandLine.arguments.dropFirst())
for name in chosen where !available.contains(name) {
    FileHandle.standardError.write(Data("unknown benchmark '\(name)'; choose from: \(available.joined(separator: ", "))\n".utf8))
    exit(2)
}
print(Measurement.header)
for name in chosen {
    switch name {
    case "find-or-create":
        for m in try await FindOrCreateBenchmark.run() { print(m.row) }
    case "specs-import":
        for m in try await SpecsImportBenchmark.run100k() { print(m.row) }
    case "specs-index":
        for m in try await SpecsImportBenchmark.runWholeIndex() { print(m.row) }
    default:
        break
    }
}
