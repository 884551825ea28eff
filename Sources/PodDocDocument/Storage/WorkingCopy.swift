import Crypto
import Foundation
import PodDocFileSystem

/// A per-user working copy of a document, under `$XDG_STATE_HOME/poddoc/`: where archive
/// documents and never-saved documents are edited and autosaved ("autosave elsewhere"), and
/// where a package document keeps the user's version once the package changed on disk behind
/// it (until the user chooses: keep mine, take theirs, or save mine as a copy).
struct WorkingCopy: Sendable {
    /// What the working copy is a copy of, kept in `origin.json` beside it.
    struct Origin: Codable, Sendable {
        /// The document it belongs to: the archive it was unpacked from, or the package whose
        /// version it keeps; nil for a never-saved document.
        var archivePath: String?
        /// Saved or autosaved since it was last written back to the archive.
        var dirty: Bool
        /// When the working copy was last saved.
        var modified: Date
        /// The archive (for a package: its `DocumentMetadata.json`) as it was when the working
        /// copy was unpacked or last written back to it: a recovered working copy whose
        /// document has changed since (another writer, on another machine or under another
        /// user's state folder) opens in conflict.
        var archiveStamp: FileStamp?
    }

    /// The folder holding the package and `origin.json`.
    let folder: URL

    var package: URL { folder.appendingPathComponent("Document.poddoc", isDirectory: true) }
    private var originFile: URL { folder.appendingPathComponent("origin.json") }

    /// The working copy for a document (an archive, or a package in conflict), named after
    /// its absolute path.
    static func forDocument(_ document: URL, environment: [String: String] = ProcessInfo.processInfo.environment) throws -> WorkingCopy {
        WorkingCopy(folder: try root(environment).appendingPathComponent(relativePath(of: document), isDirectory: true))
    }

    /// The working copy of `document` when one holds work waiting to be written back (a
    /// package's kept version after a conflict); creates nothing, not even the state folder.
    static func waiting(for document: URL, environment: [String: String]) -> WorkingCopy? {
        guard let root = try? StateDirectory.url(environment: environment) else { return nil }
        let copy = WorkingCopy(folder: root.appendingPathComponent(relativePath(of: document), isDirectory: true))
        return copy.exists && copy.readOrigin()?.dirty == true ? copy : nil
    }

    /// `working/NAME-DIGEST`: the document's name (letters, digits, `.` and `-`, at most 100
    /// bytes, so that any name a file system allows gives a valid folder name) and a digest of
    /// its absolute path.
    private static func relativePath(of document: URL) -> String {
        let path = document.standardizedFileURL.resolvingSymlinksInPath().path
        let name = document.lastPathComponent.filter { $0.isLetter || $0.isNumber || $0 == "." || $0 == "-" }
        return "working/\(shortened(name, toBytes: 100))-\(digest(of: path))"
    }

    /// The longest start of `text` (whole characters) that fits in `limit` UTF-8 bytes.
    static func shortened(_ text: String, toBytes limit: Int) -> String {
        var bytes = 0
        return String(
            text.prefix { character in
                bytes += character.utf8.count
                return bytes <= limit
            })
    }

    /// 24 hexadecimal digits of the SHA-256 of `text`: names kept short stay apart.
    static func digest(of text: String) -> String {
        SHA256.hash(data: Data(text.utf8)).prefix(12).map { String(format: "%02x", $0) }.joined()
    }

    /// A private, throw-away copy an archive is unpacked into to be read: never the archive's
    /// working copy, so reading works beside a writer and never meets work waiting for
    /// recovery. Removed on close; copies left by a process that died are swept up by the
    /// next one (``sweepReadingCopies(environment:fileSystem:)``).
    ///
    /// When the state folder cannot be written (a read-only home, a full disk), the copy goes
    /// to the system's temporary folder instead: reading must not depend on it.
    static func forReading(environment: [String: String]) -> WorkingCopy {
        if let root = try? root(environment), FileManager.default.isWritableFile(atPath: root.path) {
            return WorkingCopy(folder: root.appendingPathComponent("reading/\(UUID().uuidString)", isDirectory: true))
        }
        return WorkingCopy(
            folder: FileManager.default.temporaryDirectory.appendingPathComponent("poddoc-reading-\(UUID().uuidString)", isDirectory: true))
    }

    /// Removes the reading copies whose process is gone: their lock's holder is not running,
    /// or they have no lock an hour after they were made (a process killed before it locked;
    /// a younger one may be about to lock it).
    static func sweepReadingCopies(environment: [String: String], fileSystem: FileSystem) {
        guard let root = try? StateDirectory.url(environment: environment) else { return }
        let folder = root.appendingPathComponent("reading", isDirectory: true)
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [] {
            let copy = folder.appendingPathComponent(name, isDirectory: true)
            let lockFile = copy.appendingPathComponent(DocumentOpening.lockName)
            if let holder = try? DocumentLock.currentHolder(of: lockFile, fileSystem: fileSystem) {
                if holder.isRunning != false { continue }
            } else {
                let made = (try? FileManager.default.attributesOfItem(atPath: copy.path)[.modificationDate] as? Date) ?? Date()
                if Date().timeIntervalSince(made) < 3600 { continue }
            }
            try? fileSystem.removeItem(at: copy)
        }
    }

    /// A fresh working copy for a never-saved document.
    static func untitled(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> WorkingCopy {
        WorkingCopy(folder: try root(environment).appendingPathComponent("untitled/\(UUID().uuidString)", isDirectory: true))
    }

    static func root(_ environment: [String: String]) throws -> URL {
        do {
            return try StateDirectory.create(environment: environment)
        } catch {
            throw DocumentError.wrap(error, .fileSystem, while: "prepare the per-user state folder for working copies", path: nil)
        }
    }

    /// Every working copy on this machine for this user.
    static func all(environment: [String: String] = ProcessInfo.processInfo.environment) -> [WorkingCopy] {
        guard let root = try? StateDirectory.url(environment: environment) else { return [] }
        var copies: [WorkingCopy] = []
        for group in ["working", "untitled"] {
            let folder = root.appendingPathComponent(group, isDirectory: true)
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
            copies += names.sorted().map { WorkingCopy(folder: folder.appendingPathComponent($0, isDirectory: true)) }
        }
        return copies
    }

    func readOrigin() -> Origin? {
        guard let data = try? Data(contentsOf: originFile) else { return nil }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return try? decoder.decode(Origin.self, from: data)
    }

    func writeOrigin(_ origin: Origin, fileSystem: FileSystem) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        try fileSystem.write(try encoder.encode(origin), to: originFile)
    }

    /// Marks the working copy as holding work the archive does not have (keeping what else
    /// `origin.json` says).
    func markDirty(archivePath: String?, fileSystem: FileSystem) throws {
        var origin = readOrigin() ?? Origin(archivePath: archivePath, dirty: true, modified: Date())
        origin.archivePath = archivePath
        origin.dirty = true
        origin.modified = Date()
        try writeOrigin(origin, fileSystem: fileSystem)
    }

    var exists: Bool { FileManager.default.fileExists(atPath: package.path) }

    func remove(fileSystem: FileSystem) throws {
        try fileSystem.removeItem(at: folder)
    }

    func prepareFolder(fileSystem: FileSystem) throws {
        try FileManager.default.createDirectory(
            at: folder, withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700])
    }
}

/// A document whose working copy holds work not written back: an archive document autosaved
/// after its last save, or a document never saved.
public struct RecoverableDocument: Sendable, Hashable {
    /// The archive the work belongs to; nil for a never-saved document.
    public let archive: URL?
    /// The working copy (a package) holding the work.
    public let workingCopy: URL
    /// When the work was last autosaved.
    public let modified: Date
}
