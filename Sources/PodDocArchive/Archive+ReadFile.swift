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
        try readFile(named: name, in: archive, limit: limit, skippingAtMost: nil)
    }

    /// ``readFile(named:in:limit:)``, giving up (nil) once more than `skipLimit` bytes of the
    /// entries before the file were read past, so a look into hostile input stays bounded
    /// (nil: no bound). `./name` is taken for `name`.
    static func readFile(named name: String, in archive: URL, limit: Int, skippingAtMost skipLimit: Int64?) throws -> Data? {
        let reader = try LibArchiveReader(path: archive.path)
        var previous: String?
        var skipped: Int64 = 0
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        while let header = try reader.nextHeader(after: previous) {
            let entry = header.displayName
            previous = entry
            guard entry == name || entry == "./" + name, header.fileType == S_IFREG else {
                // Skipped bytes are counted only when bounded; libarchive skips the rest itself.
                guard let skipLimit else { continue }
                while true {
                    let count = try buffer.withUnsafeMutableBytes { try reader.readData(into: $0, entry: entry) }
                    if count == 0 { break }
                    skipped += Int64(count)
                    if skipped > skipLimit { return nil }
                }
                continue
            }
            var contents = Data()
            while true {
                let count = try buffer.withUnsafeMutableBytes { try reader.readData(into: $0, entry: entry) }
                if count == 0 { return contents }
                contents.append(contentsOf: buffer[..<count])
                if contents.count > limit { return nil }
            }
        }
        return nil
    }
}
