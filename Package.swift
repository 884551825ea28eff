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
        .library(name: "PodDocFileSystem", targets: ["PodDocFileSystem"]),
        .library(name: "PodDocArchive", targets: ["PodDocArchive"]),
        .library(name: "Outliner", targets: ["Outliner"]),
        .library(name: "PodDocDocument", targets: ["PodDocDocument"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
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
        .target(name: "Outliner", dependencies: ["PodDocStore"], swiftSettings: strictSettings),

        // MARK: Examples
        .executableTarget(name: "store-tour", dependencies: ["PodDocStore"], path: "Examples/StoreTour", swiftSettings: strictSettings),

        // MARK: Benchmarks (release builds; `make bench`)
        .executableTarget(
            name: "poddoc-bench",
            dependencies: [
                "PodDocStore", "PodDocDocument", "Outliner",
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ],
            path: "Benchmarks/PodDocBenchmarks",
            swiftSettings: strictSettings),

        // MARK: Tests
        .testTarget(
            name: "PodDocStoreTests",
            dependencies: ["PodDocStore", .product(name: "GRDB", package: "GRDB.swift")],
            swiftSettings: strictSettings),
        .testTarget(name: "PodDocFileSystemTests", dependencies: ["PodDocFileSystem"], swiftSettings: strictSettings),
        .testTarget(name: "PodDocArchiveTests", dependencies: ["PodDocArchive"], swiftSettings: strictSettings),
        .testTarget(name: "OutlinerTests", dependencies: ["Outliner", "PodDocStore"], swiftSettings: strictSettings),
        .testTarget(
            name: "PodDocDocumentTests",
            dependencies: ["PodDocDocument", "poddoc-crash-child", .product(name: "GRDB", package: "GRDB.swift")],
            swiftSettings: strictSettings),
        // A child process the crash tests start, edit through, and kill.
        .executableTarget(name: "poddoc-crash-child", dependencies: ["PodDocDocument"], path: "Tests/CrashChild", swiftSettings: strictSettings),
    ],
    swiftLanguageModes: [.v6]
)
