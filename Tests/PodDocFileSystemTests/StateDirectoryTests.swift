import Foundation
import Glibc
import PodDocFileSystem
import PodDocTesting
import XCTest

final class StateDirectoryTests: XCTestCase {
    func testUsesXDGStateHomeAndCreatesPrivateFolder() throws {
        let base = try makeTemporaryFolder()
        let directory = try StateDirectory.create(environment: ["XDG_STATE_HOME": base.path, "HOME": "/nonexistent"])
        XCTAssertEqual(directory.path, base.appendingPathComponent("poddoc").path)
        XCTAssertEqual(try mode(of: directory), 0o700)
    }

    func testFallsBackToHomeWhenXDGStateHomeIsRelativeOrEmpty() throws {
        let home = try makeTemporaryFolder()
        for value in [nil, "", "relative/state"] {
            var environment = ["HOME": home.path]
            environment["XDG_STATE_HOME"] = value
            let directory = try StateDirectory.create(environment: environment)
            XCTAssertEqual(directory.path, home.appendingPathComponent(".local/state/poddoc").path)
        }
        for component in [".local", ".local/state", ".local/state/poddoc"] {
            XCTAssertEqual(try mode(of: home.appendingPathComponent(component)), 0o700, component)
        }
    }

    func testTightensAnExistingOpenFolder() throws {
        let base = try makeTemporaryFolder()
        let existing = base.appendingPathComponent("poddoc")
        try FileManager.default.createDirectory(at: existing, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o755])
        _ = try StateDirectory.create(environment: ["XDG_STATE_HOME": base.path])
        XCTAssertEqual(try mode(of: existing), 0o700)
    }

    func testFileInTheWayIsAClearError() throws {
        let base = try makeTemporaryFolder()
        let blocker = base.appendingPathComponent("poddoc")
        try Data("file".utf8).write(to: blocker)
        let error = try expectFileSystemError { _ = try StateDirectory.create(environment: ["XDG_STATE_HOME": base.path]) }
        XCTAssertEqual(error.code, .notADirectory)
        XCTAssertTrue(error.message.contains(blocker.path), error.message)
    }

    private func mode(of url: URL) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
        return try XCTUnwrap(attributes[.posixPermissions] as? Int)
    }
}
