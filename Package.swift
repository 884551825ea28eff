// swift-tools-version:6.1
import PackageDescription

/// Settings every poddoc module shares: Swift 6 mode (strict concurrency) is set package-wide below.
let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
    name: "poddoc",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "PodDocStore", targets: ["PodDocStore"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
    ],
    targets: [
        // MARK: Object store (Core Data's job)
        .target(
            name: "PodDocStore",
            dependencies: [
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ],
            swiftSettings: strictSettings),

        // MARK: Benchmarks (release builds; `make bench`)
        .executableTarget(
            name: "poddoc-bench",
            dependencies: [
                "PodDocStore",
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ],
            path: "Benchmarks/PodDocBenchmarks",
            swiftSettings: strictSettings),

        // MARK: Tests
        .testTarget(
            name: "PodDocStoreTests",
            dependencies: ["PodDocStore", .product(name: "GRDB", package: "GRDB.swift")],
            swiftSettings: strictSettings),
    ],
    swiftLanguageModes: [.v6]
)
