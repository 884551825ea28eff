import Foundation
import PodDocFileSystem
import PodDocTesting
import XCTest

// MARK: - Temporary folders

extension XCTestCase {
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
