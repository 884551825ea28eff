import Foundation
public import PodDocFileSystem

// MARK: - Looking at a document from outside

extension ManagedDocument {
    /// The process holding the document at `url` open for writing, if any: the holder of a
    /// package's lock, or of an archive's lock beside it (any user, any machine sharing the
    /// folder) or of this user's working copy. The holder may have died (see
    /// `LockHolder.isRunning`); opening the document takes such a lock over (one on another
    /// machine is respected until its lock file is removed).
    ///
    /// - Parameters:
    ///   - url: The document (a package or an archive).
    ///   - environment: Where working copies live (`XDG_STATE_HOME`, `HOME`).
    public static func lockHolder(of url: URL, environment: [String: String] = ProcessInfo.processInfo.environment) -> LockHolder? {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else { return nil }
        let lockFile: URL
        if isDirectory.boolValue {
            lockFile = PackageLayout(root: url).lock
        } else {
            let archive = DocumentOpening.resolvingLinks(url)
            if let holder = try? DocumentLock.currentHolder(of: DocumentOpening.besideLockFile(for: archive)) { return holder }
            guard let copy = try? WorkingCopy.forDocument(archive, environment: environment) else { return nil }
            lockFile = copy.folder.appendingPathComponent(DocumentOpening.lockName)
        }
        return try? DocumentLock.currentHolder(of: lockFile)
    }
}
