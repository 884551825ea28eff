// MARK: - Writing in chunks

/// Hands a writer's output on in chunks as it grows, so that writing an outline to a file
/// holds one chunk of output at a time, not the whole file (a 100,000-level Markdown export is
/// gigabytes of indentation).
final class OutputChunks {
    /// Output is handed on once it reaches this size: large enough that a file sees few
    /// writes, small next to the outline itself.
    static let size = 1 << 20

    /// Escapers of long texts hand their output on after every this many bytes of text
    /// (a power of two), so that one long note passes in chunks rather than whole.
    static let textStep = 1 << 16
    /// ``textStep`` − 1, for testing a byte count against it.
    static let textStepMask = textStep - 1

    private let deliver: ([UInt8]) -> Void

    /// - Parameter deliver: Receives each chunk, in order.
    init(_ deliver: @escaping ([UInt8]) -> Void) {
        self.deliver = deliver
    }

    /// Hands `output` on and empties it, once it has reached ``size``.
    ///
    /// Pass it as the `handOn` of an escaper (``XMLEscaping``, ``LineEscaping``,
    /// `JSONEscaping`) for text that may be long.
    func takeIfLarge(_ output: inout [UInt8]) {
        guard output.count >= Self.size else { return }
        deliver(output)
        output.removeAll(keepingCapacity: true)
    }

    /// ``takeIfLarge(_:)`` as a function, for the `handOn` of an escaper.
    var handOn: (inout [UInt8]) -> Void { { [self] in takeIfLarge(&$0) } }

    /// Hands the rest of `output` on.
    func finish(_ output: inout [UInt8]) {
        if !output.isEmpty { deliver(output) }
        output = []
    }
}
