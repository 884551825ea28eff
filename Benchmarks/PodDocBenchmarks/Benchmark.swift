import Foundation
import PodDocBenchmarkSupport

/// One measured figure, printed as a Markdown table row.
struct Measurement {
    let name: String
    let seconds: Double
    let count: Int
    let floorName: String?
    let floorSeconds: Double?

    var rate: Double { Double(count) / seconds }

    var row: String {
        let ratio = floorSeconds.map { String(format: "%.2fx", seconds / $0) } ?? "–"
        let floor = floorSeconds.map { String(format: "%.3f s (%@)", $0, floorName ?? "") } ?? "–"
        return String(format: "| %@ | %d | %.3f s | %.0f/s | %@ | %@ |", name, count, seconds, rate, floor, ratio)
    }

    static let header = "| benchmark | items | time | rate | floor (same run) | ratio to floor |\n|---|---|---|---|---|---|"
}

/// Wall-clock time of `body`, the best of `runs` runs after `setUp` prepares each run.
func measure(runs: Int = 3, setUp: () throws -> Void = {}, _ body: () throws -> Void) rethrows -> Double {
    var best = Double.infinity
    for _ in 0..<runs {
        try setUp()
        let start = DispatchTime.now().uptimeNanoseconds
        try body()
        best = min(best, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
    }
    return best
}

/// The same, for async work.
func measureAsync(runs: Int = 3, setUp: () async throws -> Void = {}, _ body: () async throws -> Void) async rethrows -> Double {
    var best = Double.infinity
    for _ in 0..<runs {
        try await setUp()
        let start = DispatchTime.now().uptimeNanoseconds
        try await body()
        best = min(best, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
    }
    return best
}
