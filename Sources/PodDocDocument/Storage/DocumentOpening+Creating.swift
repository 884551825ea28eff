import Foundation
import PodDocArchive
import PodDocFileSystem
import PodDocStore

extension DocumentOpening {
    // MARK: - Creating

    /// Creates a new document at `url` (a package, or an archive when the name ends in an
    /// archive extension), or a never-saved one in a working copy when `url` is nil.
    static func create(_ url: URL?, type: DocumentType, options: ManagedDocument.OpenOptions) throws -> OpenedParts {
        let fs = options.fileSystem
        let format = url.map(DocumentFormat.init(inferringFrom:)) ?? .package
        let model = type.model
        let provider: ModelProvider = { _ in model }
        if let url, FileManager.default.fileExists(atPath: url.path) {
            throw DocumentError(.fileSystem, "\(url.path) already exists; choose another name or remove it first.", path: url.path)
        }
        switch (url, format) {
        case (let url?, .package):
            try wrapFiles("create \(url.path)", url) { try DocumentFiles.createPackage(at: url, type: type, fileSystem: fs) }
            return try openPackage(
                PackageLayout(root: url), model: provider, options: options, lockFile: PackageLayout(root: url).lock,
                workingCopy: nil, fileURL: url, format: .package, untrusted: nil)
        case (let url?, .archive(let archiveFormat)):
            let copy = try WorkingCopy.forDocument(url, environment: options.environment)
            try copy.prepareFolder(fileSystem: fs)
            let lock = try acquireLock(copy.folder.appendingPathComponent(lockName), readOnly: false, document: url, fileSystem: fs)
            let besideLock = try acquireBesideLock(for: url, releasing: lock, fileSystem: fs)
            do {
                try wrapFiles("create \(url.path)", url) {
                    try fs.removeItem(at: copy.package)
                    try DocumentFiles.createPackage(at: copy.package, type: type, fileSystem: fs)
                    try copy.writeOrigin(.init(archivePath: url.standardizedFileURL.path, dirty: true, modified: Date()), fileSystem: fs)
                }
                let parts = try openPackage(
                    PackageLayout(root: copy.package), model: provider, options: options,
                    lockFile: copy.folder.appendingPathComponent(lockName),
                    workingCopy: copy, fileURL: url, format: .archive(archiveFormat), untrusted: nil, heldLock: lock)
                parts.besideLock = besideLock
                return parts
            } catch {
                lock?.release()
                besideLock?.release()
                throw error
            }
        case (nil, _):
            let copy = try WorkingCopy.untitled(environment: options.environment)
            try copy.prepareFolder(fileSystem: fs)
            let lock = try acquireLock(
                copy.folder.appendingPathComponent(lockName), readOnly: false, document: copy.package, fileSystem: fs)
            try wrapFiles("create an untitled document", nil) {
                try DocumentFiles.createPackage(at: copy.package, type: type, fileSystem: fs)
                try copy.writeOrigin(.init(archivePath: nil, dirty: true, modified: Date()), fileSystem: fs)
            }
            return try openPackage(
                PackageLayout(root: copy.package), model: provider, options: options,
                lockFile: copy.folder.appendingPathComponent(lockName),
                workingCopy: copy, fileURL: nil, format: .package, untrusted: nil, heldLock: lock)
        }
    }

    private static func wrapFiles(_ action: String, _ url: URL?, _ body: () throws -> Void) throws {
        do {
            try body()
        } catch {
            throw DocumentError.wrap(error, .fileSystem, while: action, path: url?.path)
        }
    }
}
