import ArgumentParser
import Foundation
import PodDocContent
import PodDocDocument
import PodDocFileSystem
import PodDocStore

/// `poddoc info DOC`.
struct InfoCommand: PodDocCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "Describe a document: kind, format, counts, sizes, last save, lock holder, work waiting for recovery.",
        discussion: Examples.discussion([
            "poddoc info Notes.poddoc",
            "poddoc info Notes.poddoc.tar.zst --json",
        ]))

    @OptionGroup var location: DocumentArgument

    @OptionGroup var reading: ReadingOptions
    @OptionGroup var outputOptions: OutputOptions
    var json: Bool { outputOptions.json }

    /// What `info` prints with `--json`.
    struct Shape: Encodable {
        struct Lock: Encodable {
            let pid: Int32
            let host: String
            let user: String
            let since: Date
            let running: Bool?
        }
        struct Model: Encodable {
            /// The model version the document was written with.
            let version: Int
            /// The newest version of the document's kind this poddoc knows.
            let thisPoddoc: Int
            /// `none` (up to date), `onFirstEdit` (read as it is, upgraded by the first edit),
            /// or `newer` (written by a newer poddoc: read, not edited).
            let upgrade: String
        }
        struct Recovery: Encodable {
            let workingCopy: String
            let autosaved: Date
            /// The size of the working copy holding the waiting work.
            let bytes: Int
        }
        let path: String
        let kind: String?
        let format: String
        let formatVersion: Int?
        let writer: String?
        let documentID: String?
        let created: Date?
        let lastSave: Date?
        let saveSequence: Int?
        let storeHash: String?
        let model: Model?
        let counts: [String: Int]?
        let bytes: Int
        let storeBytes: Int?
        let lock: Lock?
        let recovery: Recovery?
        /// Copies a file-sync tool kept beside the document after a conflict.
        let conflictCopies: [String]
        /// Files a file-sync tool kept inside a package after a conflict: other machines'
        /// stores (to merge in) and metadata.
        let conflictFiles: [String]
        /// The conflict copies whose every save this document already holds: they can go.
        let mergedCopies: [String]
    }

    /// Whether `document` holds every save of the copy at `copy` (false when it cannot be read).
    @MainActor private static func holds(_ copy: URL, in document: ManagedDocument) async -> Bool {
        guard let argument = try? DocumentArgument.parse([copy.path]),
            let other = try? await DocumentAccess.open(argument, mode: .read, command: "poddoc info")
        else { return false }
        let (theirs, mine) = (other.rootContext.store, document.rootContext.store)
        // Two graph reads: off the main actor.
        let holds = (try? await Task.detached { try CopyMerge.holdsEverything(of: theirs, in: mine) }.value) ?? false
        try? await other.close()
        return holds
    }

    func execute() async throws {
        let url = location.url.standardizedFileURL
        let holder = ManagedDocument.lockHolder(of: url)
        let recovery = ManagedDocument.waitingWork(for: url)
        // The document as it is on disk; the waiting work is described apart.
        var document: ManagedDocument?
        do {
            document = try await DocumentAccess.open(location, mode: .read, command: "poddoc info")
        } catch let error as DocumentError where error.code == .locked && holder != nil {
            document = nil
        }
        let copies = ManagedDocument.syncConflictCopies(of: url)
        var merged: [String] = []
        if let document {
            for copy in copies where await Self.holds(copy, in: document) { merged.append(copy.path) }
        }
        let counts = try await document?.contentCounts()
        let metadata = document?.metadata
        let shape = Shape(
            path: location.document, kind: metadata?.kind.rawValue,
            format: document?.format.description ?? DocumentFormat(inferringFrom: url).description,
            formatVersion: metadata?.formatVersion, writer: metadata?.writer, documentID: metadata?.documentID.uuidString,
            created: metadata?.created, lastSave: metadata?.modified, saveSequence: metadata?.saveSequence, storeHash: metadata?.storeHash,
            model: document.map { Self.model(of: $0.rootContext.store) },
            counts: counts, bytes: Self.bytes(at: url), storeBytes: document.map { Self.bytes(at: $0.storeURL) },
            lock: holder.map { Shape.Lock(pid: $0.pid, host: $0.host, user: $0.user, since: $0.acquiredAt, running: $0.isRunning) },
            recovery: recovery.map {
                Shape.Recovery(workingCopy: $0.workingCopy.path, autosaved: $0.modified, bytes: Self.bytes(at: $0.workingCopy))
            },
            conflictCopies: copies.map(\.path),
            conflictFiles: DocumentFormat(inferringFrom: url) == .package ? SyncConflictFiles(inPackage: url).all.map(\.path) : [],
            mergedCopies: merged)
        try await document?.close()
        outputOptions.output.emit(shape, text: Self.text(shape))
    }

    private static func model(of store: PersistentStore) -> Shape.Model {
        let (found, known) = (store.modelVersionOnDisk, store.model.version)
        return Shape.Model(
            version: found, thisPoddoc: known, upgrade: found == known ? "none" : found < known ? "onFirstEdit" : "newer")
    }

    private static func text(_ shape: Shape) -> String {
        var lines = [shape.path]
        func add(_ name: String, _ value: String?) {
            if let value { lines.append("  \(name.padding(toLength: 14, withPad: " ", startingAt: 0)) \(value)") }
        }
        add(
            "kind",
            shape.kind.map { kind in
                DocumentKind(rawValue: kind).flatMap(DocumentType.builtIn) != nil
                    ? kind : "\(kind) (an app's own kind, read with the model its store records)"
            })
        add("format", shape.format + (shape.formatVersion.map { " (document format \($0))" } ?? ""))
        add("contents", shape.counts?.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", "))
        add("size", "\(shape.bytes) bytes" + (shape.storeBytes.map { " (store \($0) bytes)" } ?? ""))
        add("last save", shape.lastSave.map { "\($0.formatted(.iso8601)) (save \(shape.saveSequence ?? 0))" })
        add("written by", shape.writer)
        add("document ID", shape.documentID)
        add("store hash", shape.storeHash)
        add(
            "model",
            shape.model.map { model in
                switch model.upgrade {
                case "none": "version \(model.version) (up to date)"
                case "onFirstEdit":
                    "version \(model.version): this poddoc reads it as it is and upgrades it to version \(model.thisPoddoc) on the first edit"
                default:
                    "version \(model.version), from a newer poddoc (this one knows up to \(model.thisPoddoc)): it reads, it does not edit"
                }
            })
        add(
            "lock",
            shape.lock.map {
                "pid \($0.pid) on \($0.host) (\($0.user)) since \($0.since.formatted(.iso8601))\($0.running == false ? ", dead: the next open takes it over" : "")"
            } ?? "none")
        add(
            "autosave",
            shape.recovery.map {
                "work autosaved \($0.autosaved.formatted(.iso8601)) (\($0.bytes) bytes) waits for recovery in \($0.workingCopy); run `poddoc recover \(shape.path)` (the lines above describe the document as it is on disk)"
            } ?? "nothing waiting")
        for copy in shape.conflictCopies {
            add(
                "conflict copy",
                shape.mergedCopies.contains(copy)
                    ? "\(copy): a copy a sync tool kept after a conflict, merged in already: it can go (`rm -r \(ShellQuoting.quote(copy))`)"
                    : "\(copy): a copy a sync tool kept after a conflict; `poddoc merge \(ShellQuoting.quote(shape.path)) \(ShellQuoting.quote(copy)) --remove-copy` merges it in and removes it"
            )
        }
        for file in shape.conflictFiles {
            let store = file.contains("/StoreContent/")
            add(
                "sync conflict",
                store
                    ? "\(file): another machine's store a sync tool kept inside the package after a conflict (it holds that machine's edits); `poddoc merge \(ShellQuoting.quote(shape.path)) \(ShellQuoting.quote(file))` merges it in"
                    : "\(file): another machine's metadata a sync tool kept inside the package after a conflict; merging the kept store removes it"
            )
        }
        if shape.kind == nil { lines.append("  (the document is open in another process; its content was not read)") }
        return lines.joined(separator: "\n")
    }

    /// The size of a file, or of everything in a folder.
    static func bytes(at url: URL) -> Int {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else { return 0 }
        guard isDirectory.boolValue else { return (try? url.resourceValues(forKeys: [.fileSizeKey]).fileSize) ?? 0 }
        let files = FileManager.default.enumerator(at: url, includingPropertiesForKeys: [.fileSizeKey, .isRegularFileKey])
        var total = 0
        while let file = files?.nextObject() as? URL {
            total += (try? file.resourceValues(forKeys: [.fileSizeKey]).fileSize) ?? 0
        }
        return total
    }
}
