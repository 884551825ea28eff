import Foundation

// MARK: - ByteSearch

/// Fast searches in byte buffers (C `memchr`), so long runs of text or indentation cost one
/// call instead of a loop iteration per byte, even in unoptimized builds.
enum ByteSearch {
    /// The offset of the first `byte` in `bytes[range]`, or `nil`.
    static func firstIndex(of byte: UInt8, in bytes: [UInt8], _ range: Range<Int>) -> Int? {
        guard !range.isEmpty else { return nil }
        return bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress, let found = memchr(base + range.lowerBound, Int32(byte), range.count) else {
                return nil
            }
            return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
        }
    }

    /// The offset of the first byte in `bytes[range]` that `isWanted` accepts, or the range's
    /// end. For predicates that need to look at every byte.
    static func firstIndex(in bytes: [UInt8], _ range: Range<Int>, where isWanted: (UInt8) -> Bool) -> Int {
        bytes.withUnsafeBufferPointer { buffer in
            var index = range.lowerBound
            while index < range.upperBound && !isWanted(buffer[index]) { index += 1 }
            return index
        }
    }
}
