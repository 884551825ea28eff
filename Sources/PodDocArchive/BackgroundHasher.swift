import Crypto
import Dispatch
import Foundation

// MARK: - BackgroundHasher

/// SHA-256 of a stream of chunks, computed on a queue of its own so that hashing runs beside
/// the caller's work (compressing or decompressing, writing, reading a store's rows) instead
/// of after it.
///
/// ```swift
/// let hasher = BackgroundHasher()
/// try store.streamLogicalContent { hasher.update($0) }
/// let hex = hasher.finish()
/// ```
///
/// Each chunk is copied before it is handed over, because callers reuse their read buffers,
/// in pieces of at most `maximumPieceSize` bytes. At most `maximumChunksInFlight` pieces
/// wait at a time: a caller faster than the hash waits instead of queueing the whole stream
/// in memory, and a 50 MB value handed over at once is never copied whole.
public final class BackgroundHasher: @unchecked Sendable {
    // @unchecked Sendable: `hasher` is only read and written by blocks running on `queue`
    // (a serial queue): `update` enqueues them, `finish` waits for them with `queue.sync`.
    private let queue = DispatchQueue(label: "poddoc.archive.hash")
    private var hasher = SHA256()
    private let slots = DispatchSemaphore(value: BackgroundHasher.maximumChunksInFlight)

    /// How many pieces may wait to be hashed before ``update(_:)`` waits.
    static let maximumChunksInFlight = 8
    /// The largest piece of a chunk copied and handed over at once.
    static let maximumPieceSize = 1 << 20

    /// A hasher of an empty stream.
    public init() {}

    /// Hashes a copy of `chunk` after the chunks given before it.
    public func update(_ chunk: UnsafeRawBufferPointer) {
        var offset = 0
        repeat {
            let end = min(chunk.count, offset + Self.maximumPieceSize)
            slots.wait()
            let copy = Data(UnsafeRawBufferPointer(rebasing: chunk[offset..<end]))
            queue.async {
                self.hasher.update(data: copy)
                self.slots.signal()
            }
            offset = end
        } while offset < chunk.count
    }

    /// Waits for the chunks given so far and returns their digest as lowercase hex.
    public func finish() -> String {
        queue.sync { FileDigest.hex(hasher.finalize()) }
    }
}
