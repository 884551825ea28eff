// swift-tools-version:6.1
// poddoc's benchmarks, as a package of their own beside the library (as swift-nio keeps its
// own), so that the package apps depend on carries no benchmark dependency. `make bench`,
// `make bench-check` and `make bench-e2e` run them from the repository's root; the harness's
// malloc thresholds are kept per toolchain in Thresholds/<Swift major.minor>/.
import PackageDescription

let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny")
]

/// Library products of poddoc's own package.
func poddoc(_ products: String...) -> [Target.Dependency] {
    products.map { .product(name: $0, package: "poddoc") }
}

let package = Package(
    name: "poddoc-benchmarks",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(name: "poddoc", path: "../"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        // The benchmark harness (wall and CPU time, malloc counts, peak memory, custom
        // metrics, thresholds). The malloc interposer counts allocations without jemalloc.
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        // What both benchmark programs share: the data they make, the raw SQLite floors, the
        // outline document of the outline benchmarks, CPU and memory readings.
        .target(
            name: "PodDocBenchmarkSupport",
            dependencies: poddoc("PodDocStore", "PodDocDocument", "Outliner", "OutlineInterchange") + [
                // Floors write SQLite directly, beside the store.
                .product(name: "GRDBSQLite", package: "GRDB.swift")
            ],
            path: "PodDocBenchmarkSupport",
            swiftSettings: strictSettings),
        // The suite ordo-one/benchmark runs (`make bench`, `make bench-check`): each benchmark
        // beside its floor, with wall and CPU time, malloc counts, peak memory and main-actor CPU.
        .executableTarget(
            name: "PodDocHarness",
            dependencies: ["PodDocBenchmarkSupport", .product(name: "Benchmark", package: "benchmark")]
                + poddoc("PodDocStore", "PodDocDocument", "Outliner", "OutlineInterchange"),
            path: "PodDocHarness",
            swiftSettings: strictSettings,
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]),
        // The end-to-end runs the harness cannot hold: HTTP over loopback, the 718,000-spec index,
        // archives against tar, a million-item outline opened in fresh processes.
        .executableTarget(
            name: "poddoc-bench",
            dependencies: ["PodDocBenchmarkSupport"]
                + poddoc(
                    "PodDocStore", "PodDocDocument", "Outliner", "OutlineInterchange", "PodDocArchive", "PodSpecs", "PodSpecsServer",
                    "PodDocContent", "PodDocRandom")
                + [
                    // Floors read SQLite directly, beside the store.
                    .product(name: "GRDB", package: "GRDB.swift"),
                    .product(name: "GRDBSQLite", package: "GRDB.swift"),
                    .product(name: "AsyncHTTPClient", package: "async-http-client"),
                ],
            path: "PodDocBenchmarks",
            swiftSettings: strictSettings),
    ],
    swiftLanguageModes: [.v6]
)
