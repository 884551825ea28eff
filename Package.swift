// swift-tools-version:6.1
import PackageDescription

/// Settings every poddoc module shares: Swift 6 mode (strict concurrency) is set package-wide below.
let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny")
]

let package = Package(
    name: "poddoc",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "PodDocStore", targets: ["PodDocStore"]),
        .library(name: "PodDocFileSystem", targets: ["PodDocFileSystem"]),
        .library(name: "PodDocArchive", targets: ["PodDocArchive"]),
        .library(name: "PodDocJSON", targets: ["PodDocJSON"]),
        .library(name: "OutlineInterchange", targets: ["OutlineInterchange"]),
        .library(name: "Outliner", targets: ["Outliner"]),
        .library(name: "PodDocDocument", targets: ["PodDocDocument"]),
        .library(name: "PodSpecs", targets: ["PodSpecs"]),
        .library(name: "PodSpecsServer", targets: ["PodSpecsServer"]),
        .library(name: "PodDocContent", targets: ["PodDocContent"]),
        .library(name: "PodDocCommandLine", targets: ["PodDocCommandLine"]),
        .executable(name: "poddoc", targets: ["poddoc"]),
        .library(name: "PodDocReliability", targets: ["PodDocReliability"]),
        .library(name: "PodDocRandom", targets: ["PodDocRandom"]),
        // For the tests of apps built on poddoc: a test document in a temporary folder, a
        // manual clock, a reference specs server, loopback sockets.
        .library(name: "PodDocTesting", targets: ["PodDocTesting"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        // No plugin and no benchmark harness here: the benchmarks are a package of their own
        // (Benchmarks/Package.swift), and `make docs` runs the toolchain's `docc` on the
        // symbol graphs SwiftPM dumps.
    ],
    targets: [
        // MARK: Object store (Core Data's job)
        .target(
            name: "PodDocStore",
            dependencies: [
                "PodDocJSON",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: strictSettings),

        // MARK: Files: safe save, locks, archives
        .target(name: "PodDocFileSystem", swiftSettings: strictSettings),
        .systemLibrary(name: "CArchive", pkgConfig: "libarchive", providers: [.apt(["libarchive-dev"])]),
        .target(
            name: "PodDocArchive",
            dependencies: [
                "CArchive",
                "PodDocFileSystem",
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: strictSettings),

        // MARK: Managed document
        .target(
            name: "PodDocDocument",
            dependencies: [
                "PodDocStore", "PodDocFileSystem", "PodDocArchive",
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: strictSettings),

        // MARK: Content kinds
        // JSON text: one strict scanner and one string escaper for every reader and writer.
        .target(name: "PodDocJSON", swiftSettings: strictSettings),
        // Outline formats (OPML, Markdown, plain text, JSON): no store, no files.
        .target(name: "OutlineInterchange", dependencies: ["PodDocJSON"], swiftSettings: strictSettings),
        .target(name: "Outliner", dependencies: ["OutlineInterchange", "PodDocStore"], swiftSettings: strictSettings),
        .target(
            name: "PodSpecs",
            dependencies: [
                "PodDocJSON",
                "PodDocStore",
                "PodDocFileSystem",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: strictSettings),
        // The specs web service (Hummingbird): serves a store or a folder as pages.
        .target(
            name: "PodSpecsServer",
            dependencies: [
                "PodDocJSON",
                "PodSpecs",
                "PodDocStore",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strictSettings),

        // MARK: Documents of each kind (the layer tools build on)
        .target(
            name: "PodDocContent", dependencies: ["PodDocDocument", "PodSpecs", "Outliner", "OutlineInterchange", "PodDocStore"],
            swiftSettings: strictSettings),

        // MARK: The command line
        .systemLibrary(name: "CEditLine", pkgConfig: "libedit", providers: [.apt(["libedit-dev"])]),
        .target(
            name: "PodDocCommandLine",
            dependencies: [
                "PodDocContent", "PodDocDocument", "PodDocFileSystem", "PodDocReliability", "PodSpecs", "PodSpecsServer", "Outliner",
                "OutlineInterchange", "PodDocStore", "PodDocJSON", "CEditLine", "CMalloc",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strictSettings),
        // glibc's `mallopt`, which the program uses to keep two malloc arenas (docs/DESIGN.md).
        .systemLibrary(name: "CMalloc"),
        .executableTarget(name: "poddoc", dependencies: ["PodDocCommandLine", "CMalloc"], swiftSettings: strictSettings),
        // MARK: Reliability: crash tests, fuzzing
        // Seeded randomness (SplitMix64), so crash tests, fuzz runs, property tests and
        // benchmarks replay exactly from their seed.
        .target(name: "PodDocRandom", swiftSettings: strictSettings),
        .target(
            name: "PodDocReliability",
            dependencies: [
                "PodDocRandom", "PodDocContent", "PodDocDocument", "PodDocFileSystem", "PodDocArchive", "PodSpecs", "Outliner",
                "OutlineInterchange", "PodDocStore",
            ],
            swiftSettings: strictSettings),

        // Fuzzing of every reader of outside input (`make fuzz`).
        .executableTarget(
            name: "poddoc-fuzz", dependencies: ["PodDocReliability"], path: "Fuzz/poddoc-fuzz", swiftSettings: strictSettings),

        // MARK: Examples
        .executableTarget(name: "store-tour", dependencies: ["PodDocStore"], path: "Examples/StoreTour", swiftSettings: strictSettings),
        // A task-list app's own document type, start to finish (README: "Your own document type").
        .executableTarget(
            name: "task-list", dependencies: ["PodDocDocument", "PodDocStore"], path: "Examples/TaskList", swiftSettings: strictSettings),

        // MARK: Testing (a library for apps' tests, and the one this package's tests use)
        .target(
            name: "PodDocTesting",
            dependencies: [
                "PodDocDocument", "PodDocFileSystem", "PodDocRandom",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strictSettings),

        // MARK: Tests
        .testTarget(
            name: "PodDocStoreTests",
            dependencies: ["PodDocStore", "PodDocRandom", "PodDocTesting", .product(name: "GRDB", package: "GRDB.swift")],
            swiftSettings: strictSettings),
        .testTarget(name: "PodDocJSONTests", dependencies: ["PodDocJSON"], swiftSettings: strictSettings),
        .testTarget(name: "PodDocFileSystemTests", dependencies: ["PodDocFileSystem", "PodDocTesting"], swiftSettings: strictSettings),
        .testTarget(name: "PodDocArchiveTests", dependencies: ["PodDocArchive", "PodDocTesting"], swiftSettings: strictSettings),
        // Outlines in the formats: generated trees, the OPML fixtures, format assertions.
        .target(
            name: "OutlineTestSupport", dependencies: ["OutlineInterchange", "PodDocRandom"], path: "Tests/OutlineTestSupport",
            swiftSettings: strictSettings),
        .testTarget(
            name: "OutlineInterchangeTests", dependencies: ["OutlineInterchange", "OutlineTestSupport"], swiftSettings: strictSettings),
        .testTarget(
            name: "OutlinerTests",
            dependencies: ["Outliner", "OutlineInterchange", "PodDocStore", "PodDocRandom", "PodDocTesting", "OutlineTestSupport"],
            swiftSettings: strictSettings),
        .testTarget(
            name: "PodDocDocumentTests",
            dependencies: ["PodDocDocument", "PodDocTesting", .product(name: "GRDB", package: "GRDB.swift")],
            swiftSettings: strictSettings),
        // A child process the crash tests start, edit through, and kill.
        .executableTarget(
            name: "poddoc-crash-child", dependencies: ["PodDocReliability"], path: "Tests/CrashChild", swiftSettings: strictSettings),
        .testTarget(
            name: "PodDocReliabilityTests",
            dependencies: [
                "PodDocReliability", "poddoc-crash-child", "PodDocContent", "PodDocDocument", "PodDocFileSystem", "PodDocStore",
            ],
            swiftSettings: strictSettings),
        .testTarget(
            name: "PodDocContentTests",
            dependencies: [
                "PodDocContent", "PodDocDocument", "PodSpecs", "Outliner", "PodDocStore", "PodDocTesting",
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            swiftSettings: strictSettings),
        .testTarget(
            name: "PodDocCommandLineTests",
            dependencies: [
                "poddoc", "PodDocContent", "PodDocDocument", "PodSpecs", "PodSpecsServer", "Outliner", "PodDocStore", "PodDocTesting",
                "PodDocRandom",
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            swiftSettings: strictSettings),
        .testTarget(
            name: "PodSpecsTests",
            dependencies: [
                "PodSpecs", "PodSpecsServer", "PodDocStore", "PodDocRandom", "PodDocTesting",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ],
            swiftSettings: strictSettings),
        .testTarget(
            name: "PodSpecsServerTests",
            dependencies: [
                "PodSpecsServer", "PodSpecs", "PodDocStore", "PodDocTesting",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            swiftSettings: strictSettings),
        .testTarget(
            name: "PodDocTestingTests",
            dependencies: [
                "PodDocTesting", "PodDocDocument", "PodDocFileSystem", "PodDocStore",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ],
            swiftSettings: strictSettings),
    ],
    swiftLanguageModes: [.v6]
)
