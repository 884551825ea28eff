import Crypto
import Dispatch
import Foundation

// MARK: - BackgroundHasher

/// SHA-256 of a stream of chunks, computed on a queue of its own so that hashing runs beside
/// the caller's work (compressing or decompressing, writing) instead of after it.
///
/// Each chunk is copied before it is handed over, because callers reuse their read buffers.
/// At most ``maximumChunksInFlight`` chunks wait at a time: a caller faster than the hash
/// waits instead of queueing the whole stream in memory.
final class BackgroundHasher: @unchecked Sendable {
    // @unchecked Sendable: `hasher` is only read and written by blocks running on `queue`
    // (a serial queue): `update` enqueues them, `finish` waits for them with `queue.sync`.
    private let queue = DispatchQueue(label: "poddoc.archive.hash")
    private var hasher = SHA256()
    private let slots = DispatchSemaphore(value: BackgroundHasher.maximumChunksInFlight)

    /// How many chunks may wait to be hashed before ``update(_:)`` waits.
    static let maximumChunksInFlight = 8

    /// Hashes a copy of `chunk` after the chunks given before it.
    func update(_ chunk: UnsafeRawBufferPointer) {
        slots.wait()
        let copy = Data(chunk)
        queue.async {
            self.hasher.update(data: copy)
            self.slots.signal()
        }
    }

    /// Waits for the chunks given so far and returns their digest as lowercase hex.
    func finish() -> String {
        queue.sync { FileDigest.hex(hasher.finalize()) }
    }
}
