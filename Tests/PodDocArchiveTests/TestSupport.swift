import Crypto
import Foundation
import PodDocArchive
import PodDocTesting
import XCTest

// MARK: - Folders and trees

extension XCTestCase {
    /// Writes files (path → contents) and empty folders (paths ending in `/`) under `root`.
    func makeTree(at root: URL, _ items: [String: Data]) throws {
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        for (path, contents) in items {
            let url = root.appendingPathComponent(path)
            if path.hasSuffix("/") {
                try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            } else {
                try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try contents.write(to: url)
            }
        }
    }

    /// Every item under `root`: relative path → `dir` or the SHA-256 of the file's contents,
    /// plus its permission bits.
    func snapshot(of root: URL) throws -> [String: String] {
        var result: [String: String] = [:]
        let enumerator = try XCTUnwrap(FileManager.default.enumerator(atPath: root.path))
        while let relative = enumerator.nextObject() as? String {
            let url = root.appendingPathComponent(relative)
            let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
            let permissions = String(try XCTUnwrap(attributes[.posixPermissions] as? Int), radix: 8)
            if attributes[.type] as? FileAttributeType == .typeDirectory {
                result[relative] = "dir \(permissions)"
            } else {
                let digest = SHA256.hash(data: try Data(contentsOf: url)).map { String(format: "%02x", $0) }.joined()
                result[relative] = "\(digest) \(permissions)"
            }
        }
        return result
    }

    /// Runs `body`, which must throw an ``ArchiveError``, and returns it.
    func expectArchiveError(
        _ body: () throws -> Void, file: StaticString = #filePath, line: UInt = #line
    ) throws -> ArchiveError {
        do {
            try body()
        } catch let error as ArchiveError {
            return error
        }
        XCTFail("expected an ArchiveError", file: file, line: line)
        throw CancellationError()
    }
}

/// Deterministic pseudo-random bytes (xorshift), incompressible enough to exercise streaming.
func noise(count: Int, seed: UInt64) -> Data {
    var state = seed | 1
    var bytes = [UInt8](repeating: 0, count: count)
    for index in 0..<count {
        state ^= state << 13
        state ^= state >> 7
        state ^= state << 17
        bytes[index] = UInt8(truncatingIfNeeded: state)
    }
    return Data(bytes)
}
