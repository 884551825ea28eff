// MARK: - Writing in chunks

/// Hands a writer's output on in chunks as it grows, so that writing an outline to a file
/// holds one chunk of output at a time, not the whole file (a 100,000-level Markdown export is
/// gigabytes of indentation).
final class OutputChunks {
    /// Output is handed on once it reaches this size: large enough that a file sees few
    /// writes, small next to the outline itself.
    static let size = 1 << 20

    private let deliver: ([UInt8]) -> Void

    /// - Parameter deliver: Receives each chunk, in order.
    init(_ deliver: @escaping ([UInt8]) -> Void) {
        self.deliver = deliver
    }

    /// Hands `output` on and empties it, once it has reached ``size``.
    func takeIfLarge(_ output: inout [UInt8]) {
        guard output.count >= Self.size else { return }
        deliver(output)
        output.removeAll(keepingCapacity: true)
    }

    /// Hands the rest of `output` on.
    func finish(_ output: inout [UInt8]) {
        if !output.isEmpty { deliver(output) }
        output = []
    }
}
