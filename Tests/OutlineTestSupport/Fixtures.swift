import Foundation
import XCTest

// MARK: - Fixtures

/// The OPML fixtures in `Tests/Fixtures/opml` and the optional full data set.
public enum Fixtures {
    /// `Tests/Fixtures/opml`, found from this source file so it works without bundles.
    public static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // OutlineTestSupport
        .deletingLastPathComponent()  // Tests
        .appendingPathComponent("Fixtures/opml")

    /// The full real data set in `../shared/data/opml` beside the repository (or under
    /// `$PODDOC_SHARED_DATA`); absent on a fresh machine.
    public static let realDataDirectory: URL = {
        if let shared = ProcessInfo.processInfo.environment["PODDOC_SHARED_DATA"] {
            return URL(fileURLWithPath: shared).appendingPathComponent("opml")
        }
        return
            directory
            .deletingLastPathComponent()  // Fixtures
            .deletingLastPathComponent()  // Tests
            .deletingLastPathComponent()  // repository
            .deletingLastPathComponent()  // the folder holding it and shared/
            .appendingPathComponent("shared/data/opml")
    }()

    /// The fixtures that are well-formed OPML.
    public static let wellFormed = [
        "AREACODE.opml", "blogCN-feedlist.opml", "cactus-notes.opml", "includes.opml",
        "opmlPackage-source.opml", "readFile-latin1.opml", "synthetic-notes.opml",
    ]

    /// The fixture that is not well-formed XML.
    public static let notWellFormed = "menubar-not-well-formed.opml"

    /// The bytes of fixture `name`.
    public static func data(_ name: String) throws -> Data {
        try Data(contentsOf: directory.appendingPathComponent(name))
    }

    /// Every `.opml` file under `directory`, sorted by path.
    public static func opmlFiles(under directory: URL) -> [URL] {
        let enumerator = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil)
        return (enumerator?.compactMap { $0 as? URL } ?? [])
            .filter { $0.pathExtension == "opml" }
            .sorted { $0.path < $1.path }
    }
}
