import Foundation

// MARK: - Reading one small file

extension Archive {
    /// The contents of one small file at the archive's root, read without extracting anything
    /// (for comparing an archive's `DocumentMetadata.json` with a working copy's); nil when the
    /// archive has no such file, or it is larger than `limit`.
    ///
    /// - Parameters:
    ///   - name: The file's name, as the archive stores it.
    ///   - archive: The archive file (any ``ArchiveFormat``).
    ///   - limit: The most bytes read (hostile input stays bounded).
    /// - Throws: ``ArchiveError`` when the archive cannot be read up to that file.
    public static func readFile(named name: String, in archive: URL, limit: Int = 1 << 20) throws -> Data? {
        let reader = try LibArchiveReader(path: archive.path)
        var previous: String?
        while let header = try reader.nextHeader(after: previous) {
            previous = header.displayName
            guard header.displayName == name, header.fileType == S_IFREG else { continue }
            var contents = Data()
            var buffer = [UInt8](repeating: 0, count: 64 << 10)
            while true {
                let count = try buffer.withUnsafeMutableBytes { try reader.readData(into: $0, entry: name) }
                if count == 0 { return contents }
                contents.append(contentsOf: buffer[..<count])
                if contents.count > limit { return nil }
            }
        }
        return nil
    }
}
