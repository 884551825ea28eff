import Foundation
import XCTest

// MARK: - Temporary folders

/// Fresh folders under the system temporary folder, one per test.
public enum TemporaryFolder {
    /// Creates an empty folder named `prefix-<UUID>` under the system temporary folder.
    ///
    /// - Throws: The file system's error when the folder cannot be made.
    public static func make(_ prefix: String) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appending(path: "\(prefix)-\(UUID().uuidString)", directoryHint: .isDirectory)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }
}

extension XCTestCase {
    /// A fresh folder under the system temporary folder, removed when the test ends.
    ///
    /// - Parameter prefix: The start of its name, to tell the suites' leftovers apart.
    public func makeTemporaryFolder(_ prefix: String = "poddoc-test") throws -> URL {
        let folder = try TemporaryFolder.make(prefix)
        addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
        return folder
    }

    /// The sorted names in a folder, hidden ones included.
    public func names(in folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    }
}
