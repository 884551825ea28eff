import Crypto
import Foundation
import PodDocFileSystem

// MARK: - FileDigest

/// Streaming SHA-256 of a file, read in 1 MiB chunks.
enum FileDigest {
    /// A file's digest as lowercase hexadecimal digits, and the number of bytes hashed.
    typealias Result = (hex: String, size: Int64)

    /// Hashes a file.
    ///
    /// - Parameters:
    ///   - file: The file to hash.
    ///   - fileSystem: The file system to read through.
    /// - Returns: The lowercase hexadecimal digest and the number of bytes hashed.
    /// - Throws: `FileSystemError` if the file cannot be read.
    static func sha256(of file: URL, fileSystem: FileSystem) throws -> Result {
        var hasher = SHA256()
        let size = try fileSystem.readFile(at: file) { hasher.update(bufferPointer: $0) }
        return (hex(hasher.finalize()), size)
    }

    /// A digest as lowercase hexadecimal digits.
    static func hex(_ digest: SHA256.Digest) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(SHA256.byteCount * 2)
        for byte in digest {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
