import Foundation
import PodDocFileSystem
import XCTest

// MARK: - Temporary folders

extension XCTestCase {
    /// A fresh folder under the system temporary folder, removed when the test ends.
    func makeTemporaryFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("poddoc-fs-test-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
        addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
        return folder
    }

    /// The sorted names in a folder, hidden ones included.
    func names(in folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    }

    /// The text of a file.
    func text(of file: URL) throws -> String {
        try String(decoding: Data(contentsOf: file), as: UTF8.self)
    }

    /// Runs `body`, which must throw a ``FileSystemError``, and returns it.
    func expectFileSystemError(
        _ body: () throws -> Void, file: StaticString = #filePath, line: UInt = #line
    ) throws -> FileSystemError {
        do {
            try body()
        } catch let error as FileSystemError {
            return error
        }
        XCTFail("expected a FileSystemError", file: file, line: line)
        throw CancellationError()
    }
}
