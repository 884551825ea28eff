// MARK: - ASCII bytes

/// Whether UTF-8 bytes are all ASCII, checked eight at a time: the store's one test before
/// text skips the work non-ASCII text needs (folding for the search index, UTF-8 checks).
enum ASCIIBytes {
    /// Whether every byte is below 0x80 (so the bytes are also valid UTF-8).
    static func contains(only bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        let raw = UnsafeRawPointer(base)
        var offset = 0
        while offset + 8 <= bytes.count {
            if raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self) & 0x8080_8080_8080_8080 != 0 { return false }
            offset += 8
        }
        while offset < bytes.count {
            if base[offset] >= 0x80 { return false }
            offset += 1
        }
        return true
    }

    /// Whether every byte of a sequence is below 0x80, read in place when it is contiguous.
    static func contains(only bytes: some Sequence<UInt8>) -> Bool {
        bytes.withContiguousStorageIfAvailable { contains(only: $0) } ?? bytes.allSatisfy { $0 < 0x80 }
    }
}
