import Crypto
import Dispatch
import Foundation

// MARK: - BackgroundHasher

/// SHA-256 of a stream of chunks, computed on a queue of its own so that hashing runs beside
/// the caller's work (compressing the same chunks) instead of after it.
///
/// Each chunk is copied before it is handed over, because callers reuse their read buffers.
final class BackgroundHasher: @unchecked Sendable {
    // @unchecked Sendable: `hasher` is only read and written by blocks running on `queue`
    // (a serial queue): `update` enqueues them, `finish` waits for them with `queue.sync`.
    private let queue = DispatchQueue(label: "poddoc.archive.hash")
    private var hasher = SHA256()

    /// Hashes a copy of `chunk` after the chunks given before it.
    func update(_ chunk: UnsafeRawBufferPointer) {
        let copy = Data(chunk)
        queue.async { self.hasher.update(data: copy) }
    }

    /// Waits for the chunks given so far and returns their digest as lowercase hex.
    func finish() -> String {
        queue.sync { FileDigest.hex(hasher.finalize()) }
    }
}
