import Foundation
import PodDocFileSystem

extension FileSystem {
    /// A whole file's bytes, read without following a symbolic link.
    ///
    /// - Throws: `PodDocFileSystem.FileSystemError` when it cannot be opened or read.
    func readData(at file: URL) throws -> Data {
        var data = Data()
        try readFile(at: file, chunkSize: 1 << 16) { data.append(contentsOf: $0) }
        return data
    }
}
