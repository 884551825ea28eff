import Foundation
import Synchronization

// MARK: - ExtractedFileCheck

/// A check of one file of an archive that runs on another thread while the extraction goes on
/// (for a document: SQLite's `quick_check` of its store).
///
/// The check starts as soon as the file is written, and runs beside the rest of the extraction
/// and the final sync. It is handed the file's bytes in memory: a private mapping of the file
/// just written, whose pages are still in the page cache, so that it reads them without a
/// system call per page. The extracted folder goes into place only when the check passes, and
/// what the check throws is thrown as it is.
///
/// ```swift
/// let check = ExtractedFileCheck(path: "StoreContent/persistentStore") { file in
///     if let bytes = file.bytes {
///         try PersistentStore.checkIntegrity(ofImage: bytes, of: file.url)
///     } else {
///         try PersistentStore.checkIntegrity(ofFileAt: file.url)
///     }
/// }
/// try Archive.extract(archive: archive, into: folder, checking: check)
/// ```
public struct ExtractedFileCheck: Sendable {
    /// The file's path inside the archive, such as `StoreContent/persistentStore`. An archive
    /// without it is not checked.
    public var path: String
    /// The check. It runs once, on another thread.
    public var check: @Sendable (ExtractedFile) throws -> Void

    /// Makes a check of the file at `path` inside the archive.
    ///
    /// - Parameters:
    ///   - path: The file's path inside the archive.
    ///   - check: The check; it runs once, on another thread.
    public init(path: String, check: @escaping @Sendable (ExtractedFile) throws -> Void) {
        self.path = path
        self.check = check
    }
}

/// The file an ``ExtractedFileCheck`` checks.
public struct ExtractedFile {
    /// The file, in the staging folder.
    public let url: URL
    /// The file's bytes, mapped into memory copy-on-write: the check may change them without
    /// changing the file. Valid only while the check runs; nil when the file is empty or could
    /// not be mapped, and the check must read the file.
    public let bytes: UnsafeMutableRawBufferPointer?
}

// MARK: - Running the check beside the extraction

/// Runs an ``ExtractedFileCheck`` for one extraction: ``start(at:)`` when the file is written,
/// ``finishWhileSyncing(_:)`` while the staging folder is synced.
final class ConcurrentFileCheck: Sendable {
    let check: ExtractedFileCheck
    private let outcome = Mutex<Result<Void, any Error>?>(nil)
    /// Entered when the check starts, left when it ends: waiting on it returns at once when
    /// the archive had no such file.
    private let running = DispatchGroup()

    init(_ check: ExtractedFileCheck) {
        self.check = check
    }

    /// Starts the check of the file at `url`, which is written and closed.
    func start(at url: URL) {
        let check = check.check
        DispatchQueue.global(qos: .userInitiated).async(group: running) {
            let mapping = MappedFile(url)
            let result = Result { try check(ExtractedFile(url: url, bytes: mapping?.bytes)) }
            withExtendedLifetime(mapping) {}
            self.outcome.withLock { $0 = result }
        }
    }

    /// Waits for the check, if the archive had the file: for
    /// `FileSystem.writeDirectory(at:replacingExisting:verifying:_:)`, which calls it while
    /// the staging folder is synced.
    ///
    /// - Throws: What the check threw.
    @Sendable func finishWhileSyncing(_ staging: URL) throws {
        waitUntilDone()
        try outcome.withLock { $0 }?.get()
    }

    /// Waits for the check if it started.
    func waitUntilDone() {
        running.wait()
    }
}
