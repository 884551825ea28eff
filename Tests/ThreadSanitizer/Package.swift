// swift-tools-version:6.1
// The object store and its tests alone, for running them under ThreadSanitizer without
// building every other module (and its dependencies) a second time with the sanitizer.
// `make test-tsan` runs it; the sources are the main package's, by symbolic links.
import PackageDescription

let package = Package(
    name: "poddoc-tsan",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
    ],
    targets: [
        .target(
            name: "PodDocStore",
            dependencies: [
                "PodDocJSON",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: [.enableUpcomingFeature("ExistentialAny")]),
        .target(name: "PodDocJSON", swiftSettings: [.enableUpcomingFeature("ExistentialAny")]),
        .target(name: "PodDocRandom", swiftSettings: [.enableUpcomingFeature("ExistentialAny")]),
        // The store's tests need only PodDocTesting's temporary folders, which depend on nothing.
        .target(
            name: "PodDocTesting", path: "Sources/PodDocTesting", sources: ["Files"],
            swiftSettings: [.enableUpcomingFeature("ExistentialAny")]),
        .testTarget(
            name: "PodDocStoreTests",
            dependencies: ["PodDocStore", "PodDocRandom", "PodDocTesting", .product(name: "GRDB", package: "GRDB.swift")],
            swiftSettings: [.enableUpcomingFeature("ExistentialAny")]),
    ],
    swiftLanguageModes: [.v6]
)
