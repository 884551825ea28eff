// MARK: - Writing indentation

extension Array where Element == UInt8 {
    /// Appends `count` copies of `byte` (spaces or tabs for indentation) in bulk copies, which
    /// keeps deep outlines fast to write even in unoptimized builds.
    mutating func appendRepeated(_ byte: UInt8, count: Int) {
        let chunk = [UInt8](repeating: byte, count: Swift.min(count, 256))
        var remaining = count
        while remaining > 0 {
            let length = Swift.min(remaining, chunk.count)
            append(contentsOf: chunk[..<length])
            remaining -= length
        }
    }
}
