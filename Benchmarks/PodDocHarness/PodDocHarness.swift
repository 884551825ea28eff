import Benchmark
import Foundation
import PodDocBenchmarkSupport
import PodDocStore

// poddoc's benchmarks under ordo-one/benchmark 1.38.1 (`make bench`; CI: `make bench-check`).
//
// Floors are sibling benchmarks: `NAME` and `NAME.floor-WHAT` do the same work on the same data
// in the same run (the tool runs each benchmark in a process of its own, one after the other,
// sorted by name, so a floor follows its benchmark). A ratio is NAME's p50 over its floor's.
//
// Names carry no spaces and no slashes: `thresholds update` writes `PodDocHarness.NAME.p90.json`
// with those characters replaced by underscores, while `thresholds check` looks for the name as
// it is (1.38.1: BenchmarkTool+Export.swift against BenchmarkTool+ReadP90AbsoluteThresholds.swift).
// No tags either: they become part of the name, in parentheses.
//
// Each closure prepares its iteration before `startMeasurement()` (a fresh store, the changes an
// autosave is to save) and cleans up after `stopMeasurement()`: only the work in between is
// measured. Main-actor work runs on the main thread: the generated runner's async `main` leaves
// the main thread draining the main queue, while the benchmark closures run on the cooperative
// pool (sync closures on the runner's task; async ones in a `Task` the runner waits for).

/// Wall time; CPU time of all threads (from /proc/self/stat, in 10 ms ticks: meaningful for
/// iterations of 100 ms and more); malloc calls and requested bytes (the malloc interposer, every
/// thread of the process); peak resident memory (sampled every 5 ms); instructions where perf
/// events exist. On the project machine they do not (no hardware PMU: `perf_event_open` of
/// PERF_COUNT_HW_INSTRUCTIONS fails with ENOENT), and the tool then leaves the metric out
/// without a word (CLinuxOperatingSystemStats.c; BenchmarkExecutor.swift adds no sample of 0).
/// No ARC metrics: on Linux with Swift 6.3 they need the RuntimeInterposer trait, which the
/// package's `traits: ["MallocInterposer"]` leaves off.
let harnessMetrics: [BenchmarkMetric] = [
    .wallClock, .cpuTotal, .mallocCountTotal, .mallocBytesCount, .peakMemoryResident, .instructions,
]

/// The longest the main actor was kept busy at a stretch, in microseconds:
/// `Benchmark.measurement(_:_:)` records one value per iteration; only `.custom` metrics are
/// accepted there.
let mainActorStall = BenchmarkMetric.custom("Main actor longest stall (us)", polarity: .prefersSmaller, useScalingFactor: false)

/// `PODDOC_HARNESS_ITERATIONS=N` caps every benchmark at N measured iterations: CI's check of
/// malloc counts needs few, since they hardly vary from one iteration to the next.
func harnessIterations(_ wanted: Int) -> Int {
    guard let text = ProcessInfo.processInfo.environment["PODDOC_HARNESS_ITERATIONS"], let cap = Int(text), cap > 0 else {
        return wanted
    }
    return min(wanted, cap)
}

/// One warm-up iteration (caches, the Swift runtime's metadata), then up to `iterations`
/// measured ones within `seconds` (the time counts each iteration's unmeasured preparation too).
///
/// `mallocTolerance` is what `thresholds check` (and `baseline check`) allow the p90 malloc count
/// to move, in percent, either way: beyond it upward is a regression, downward an improvement.
/// Metrics without a tolerance here are compared strictly by `thresholds check`, which is why the
/// committed threshold files hold malloc counts only.
func harnessConfiguration(
    iterations: Int, seconds: Int = 15, mallocTolerance: Double = 2,
    metrics: [BenchmarkMetric] = harnessMetrics, skip: Bool = false
) -> Benchmark.Configuration {
    Benchmark.Configuration(
        metrics: metrics,
        timeUnits: .milliseconds,
        units: [mainActorStall: .count],
        warmupIterations: 1,
        maxDuration: .seconds(seconds),
        maxIterations: harnessIterations(iterations),
        skip: skip,
        thresholds: metrics.contains(.mallocCountTotal) ? [.mallocCountTotal: BenchmarkThresholds(relative: [.p90: mallocTolerance])] : [:]
    )
}

let benchmarks: @Sendable () -> Void = {
    // MARK: find-or-create (poddoc-bench `find-or-create` at a tenth of its size)

    // 10,000 records keyed by a unique string, half already stored with older values: worker
    // context → root → SQLite in one transaction (WAL, synchronous=FULL), as poddoc-bench does.
    Benchmark("find-or-create-10k", configuration: harnessConfiguration(iterations: 20)) {
        (benchmark: Benchmark, data: FindOrCreateData) async throws in
        let folder = try scratchFolder("harness-find-or-create")
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try FindOrCreateBenchmark.prepareStore(at: folder.appending(path: "store"), existing: data.existing)
        benchmark.startMeasurement()
        let counts = try await FindOrCreateBenchmark.storeAll(data.all, in: store)
        benchmark.stopMeasurement()
        try store.close()
        guard counts.created == data.all.count - data.existing.count, counts.updated == data.existing.count else {
            throw BenchmarkError("unexpected find-or-create counts \(counts)")
        }
    } setup: {
        FindOrCreateData(count: 10_000)
    }

    // The same records as rows: one keyed batch upsert, worker → root → SQLite.
    Benchmark("find-or-create-rows-10k", configuration: harnessConfiguration(iterations: 20)) {
        (benchmark: Benchmark, data: FindOrCreateData) async throws in
        let folder = try scratchFolder("harness-find-or-create-rows")
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try FindOrCreateBenchmark.prepareStore(at: folder.appending(path: "store"), existing: data.existing)
        benchmark.startMeasurement()
        let counts = try await FindOrCreateBenchmark.storeAllAsRows(data.all, in: store)
        benchmark.stopMeasurement()
        try store.close()
        guard counts.created == data.all.count - data.existing.count, counts.updated == data.existing.count else {
            throw BenchmarkError("unexpected batch upsert counts \(counts)")
        }
    } setup: {
        FindOrCreateData(count: 10_000)
    }

    // The floor: raw `INSERT … ON CONFLICT(key) DO UPDATE` of the same rows, one transaction,
    // same schema and pragmas.
    Benchmark("find-or-create-10k.floor-raw-sqlite", configuration: harnessConfiguration(iterations: 20)) {
        (benchmark: Benchmark, data: FindOrCreateData) throws in
        let folder = try scratchFolder("harness-find-or-create-floor")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appending(path: "raw.sqlite")
        try RawSQLite.prepare(file, existing: data.existing)
        benchmark.startMeasurement()
        try RawSQLite.upsert(file, data.all)
        benchmark.stopMeasurement()
    } setup: {
        FindOrCreateData(count: 10_000)
    }

    // MARK: outline import (poddoc-bench `outline`'s OPML import of "Archive", a tenth of it)

    // A 10,001-item OPML outline into a new outline store: parse, insert on the main context,
    // save main → root → disk.
    Benchmark("outline-import-10k", configuration: harnessConfiguration(iterations: 15)) {
        (benchmark: Benchmark, data: OutlineImportData) async throws in
        let folder = try scratchFolder("harness-outline-import")
        defer { try? FileManager.default.removeItem(at: folder) }
        benchmark.startMeasurement()
        try await OutlineImportWork.importAndSave(data.opml, at: folder.appending(path: "outline.sqlite"))
        benchmark.stopMeasurement()
    } setup: {
        try OutlineImportData()
    }

    // The floor: the same rows written with the raw SQLite C API into the table the store made,
    // one transaction (poddoc-bench's floor for the save of the million-item import).
    Benchmark("outline-import-10k.floor-raw-sqlite", configuration: harnessConfiguration(iterations: 15)) {
        (benchmark: Benchmark, data: OutlineImportData) throws in
        let folder = try scratchFolder("harness-outline-import-floor")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appending(path: "floor.sqlite")
        try OutlineImportWork.makeEmptyStore(at: file)
        benchmark.startMeasurement()
        try RawOutlineInsert.insert(data.tree, into: file)
        benchmark.stopMeasurement()
    } setup: {
        try OutlineImportData()
    }

    // MARK: outline subtree operations (poddoc-bench `outline`, a tenth of its size; no floor)

    // Deleting "Archive" (10,001 items) from a 100,001-item outline on the main context, and
    // undoing that delete. Warm figures: poddoc-bench keeps the first (cold) run.
    Benchmark("outline-delete-10k", configuration: harnessConfiguration(iterations: 20)) {
        (benchmark: Benchmark, outline: OutlineFixture) async throws in
        benchmark.startMeasurement()
        try await outline.deleteArchive()
        benchmark.stopMeasurement()
        await outline.undo()
    } setup: {
        try await OutlineFixture.open()
    } teardown: {
        await OutlineFixture.closeCurrent()
    }

    Benchmark("outline-undo-delete-10k", configuration: harnessConfiguration(iterations: 20)) {
        (benchmark: Benchmark, outline: OutlineFixture) async throws in
        try await outline.deleteArchive()
        benchmark.startMeasurement()
        await outline.undo()
        benchmark.stopMeasurement()
    } setup: {
        try await OutlineFixture.open()
    } teardown: {
        await OutlineFixture.closeCurrent()
    }

    // MARK: autosave (poddoc-bench `autosave`; no floor: its target is < 5 ms on the main actor)

    // 10,000 notes changed on the main context, then one autosave of a package document
    // (main → root → SQLite → metadata): its wall time, CPU time and mallocs.
    Benchmark("autosave-10k", configuration: harnessConfiguration(iterations: 30, mallocTolerance: 5)) {
        (benchmark: Benchmark, autosave: AutosaveFixture) async throws in
        try await autosave.changeEveryNote()
        benchmark.startMeasurement()
        try await autosave.autosave()
        benchmark.stopMeasurement()
    } setup: {
        try await AutosaveFixture.open()
    } teardown: {
        try await AutosaveFixture.closeCurrent()
    }

    // The same autosave with the store's history off: what recording the history costs.
    Benchmark("autosave-10k.floor-no-history", configuration: harnessConfiguration(iterations: 30)) {
        (benchmark: Benchmark, autosave: AutosaveFixture) async throws in
        try await autosave.changeEveryNote()
        benchmark.startMeasurement()
        try await autosave.autosave()
        benchmark.stopMeasurement()
    } setup: {
        try await AutosaveFixture.open(recordingHistory: false)
    } teardown: {
        try await AutosaveFixture.closeCurrent()
    }

    // The same autosave, for what it costs the main actor: the longest the main actor was busy
    // at a stretch during it (a ticker's allocations would blur the malloc counts above, so this
    // is a benchmark of its own, without a threshold).
    Benchmark("autosave-10k.main-actor", configuration: harnessConfiguration(iterations: 30, metrics: [.wallClock, mainActorStall])) {
        (benchmark: Benchmark, autosave: AutosaveFixture) async throws in
        try await autosave.changeEveryNote()
        benchmark.startMeasurement()
        let stall = try await autosave.longestMainActorStall { try await autosave.autosave() }
        benchmark.stopMeasurement()
        benchmark.measurement(mainActorStall, stall)
    } setup: {
        try await AutosaveFixture.open()
    } teardown: {
        try await AutosaveFixture.closeCurrent()
    }
}
