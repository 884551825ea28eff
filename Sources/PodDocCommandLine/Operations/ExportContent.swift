import ArgumentParser
import Foundation
import OutlineInterchange
import Outliner
import PodDocDocument
import PodDocFileSystem
import PodDocStore
import PodSpecs

/// `export OUT --format …`: the document as an archive, or its content in another format.
struct ExportContent: DocumentOperation {
    static let name = "export"
    static let examples = [
        "poddoc export Notes.poddoc Notes.opml --format opml",
        "poddoc export Notes.poddoc Then.md --format markdown --at 1   # as it was after save 1",
        "poddoc export Specs.poddoc Specs.poddoc.tar.zst --format archive",
        "poddoc export Chores.poddoc Chores-now.json --format objects   # every object, any kind; `poddoc new Copy.poddoc --from Chores-now.json` rebuilds it",
    ]
    static let abstract =
        "Export: archive or objects (any document); json, csv, specs (pods); opml, markdown, text, json (outline)."
    static let kind: DocumentKind? = nil
    static let changesDocument = false

    /// The export formats.
    enum Format: String, ExpressibleByArgument, CaseIterable {
        case archive, objects, json, opml, markdown, text, csv, specs
    }

    @Argument(help: "Where to write: a new file (a new folder for specs), outside the document.", completion: .file())
    var output: String

    @Option(
        help:
            "archive (.tar.zst, .zip or .tar.gz by the name) | objects (every object as JSON, any kind; json too for kinds poddoc does not know) | json | csv | specs (pods) | opml | markdown | text | json (outline)."
    )
    var format: Format

    @Flag(
        help:
            "Replace an existing file or folder at OUTPUT: the export is written beside it and swapped in only when complete, so a failure leaves the old one."
    )
    var force = false

    @Option(
        name: .customLong("at"),
        help: ArgumentHelp(
            "Export the document as it was after save N (`poddoc versions` lists them) rather than as it is now; an archive then holds the history up to that save.",
            valueName: "N"))
    var save: Int?

    /// What `export` prints with `--json`.
    struct Shape: Encodable {
        let output: String
        let format: String
        let files: Int?
        let specs: Int?
        let bytes: Int?
        var objects: Int? = nil
    }

    func validate() throws {
        if let save, save < 0 { throw ValidationError("--at takes a save number, 0 or more; `poddoc versions` lists them.") }
    }

    func perform(in session: DocumentSession) async throws {
        let name = session.document.fileURL?.lastPathComponent ?? "the document"
        guard let save else { return try await export(session, name: name) }
        // The output is checked against the document itself before anything is copied.
        _ = try OutputPath(output, document: session.document, replacing: force)
        let copies = try PastCopies(for: "export")
        do {
            let copy = try await Progress.watching("export") { try await copies.document(session.document, at: save) }
            try await export(DocumentSession(document: copy, output: session.output), name: "\(name) as of save \(save)")
            await copies.close()
        } catch {
            await copies.close()
            throw error
        }
    }

    @MainActor private func export(_ session: DocumentSession, name: String) async throws {
        let document = session.document
        let url = try OutputPath(output, document: document, replacing: force).url
        let replacing = force
        let shape: Shape
        switch (format, document.metadata.kind) {
        case (.archive, _):
            let target = DocumentFormat(inferringFrom: url)
            guard target.isArchive else {
                throw CommandFailure(
                    .usage, code: "usage", "Name the archive .tar.zst, .zip or .tar.gz (\(output) has none of these endings).")
            }
            try await Progress.watching("export") { try await document.save(to: url, format: target) }
            shape = Shape(output: output, format: target.description, files: 1, specs: nil, bytes: Self.size(of: url))
        case (.objects, _),
            (.json, _) where document.metadata.kind != .pods && document.metadata.kind != .outline:
            let store = document.rootContext.store
            let kind = document.metadata.kind.rawValue
            let counts = try await Progress.watching("export") {
                try await Task.detached {
                    var counts = ObjectsJSON.Counts()
                    try FileSystem().write(to: url, replacingExisting: replacing) { sink in
                        counts = try ObjectsJSON.write(store, kind: kind, to: { try sink.write($0) })
                    }
                    return counts
                }.value
            }
            shape = Shape(
                output: output, format: ExportContent.Format.objects.rawValue, files: 1, specs: nil, bytes: Self.size(of: url),
                objects: counts.total)
        case (.json, .pods), (.csv, .pods), (.specs, .pods):
            let exporter = SpecsExporter(store: document.rootContext.store, replacingExisting: replacing)
            let format = self.format
            let summary = try await Progress.watching("export") {
                try await Task.detached { () throws -> ExportSummary in
                    switch format {
                    case .csv: try exporter.exportCSV(to: url)
                    case .specs: try exporter.exportTree(to: url)
                    default: try exporter.exportPageFile(to: url)
                    }
                }.value
            }
            // A file's size as written; a Specs folder's, the sum of its files'.
            let bytes = format == .specs ? summary.bytes : Self.size(of: url)
            shape = Shape(output: output, format: format.rawValue, files: summary.files, specs: summary.specs, bytes: bytes)
        case (.opml, .outline), (.markdown, .outline), (.text, .outline), (.json, .outline):
            let formats: [Format: OutlineFormat] = [.opml: .opml, .markdown: .markdown, .text: .plainText, .json: .json]
            let outlineFormat = formats[format]!
            // As saved, the outline streams from the store one item at a time; unsaved changes
            // (a shell's) need the tree in memory.
            let outline: any OutlineWalk & Sendable =
                document.hasUnsavedChanges ? try session.outline().exportOutline() : try session.outline().savedOutline()
            let messages = session.output
            let bytes = try await Progress.watching("export") {
                try await Task.detached {
                    // Markdown and indented text are measured first, in one walk: for the
                    // warning about deep outlines, and for what they leave out.
                    let lossy = outlineFormat == .markdown || outlineFormat == .plainText
                    let size = lossy ? try outline.estimatedSize(format: outlineFormat) : nil
                    if let size { try Self.warnIfAbsurd(outline, size, outlineFormat, output: messages) }
                    let bytes = try Self.write(outline, as: outlineFormat, to: url, replacing: replacing)
                    if let size {
                        Self.sayWhatWasDropped(size.dropped(by: outlineFormat, head: outline.head), outlineFormat, output: messages)
                    }
                    return bytes
                }.value
            }
            shape = Shape(output: output, format: format.rawValue, files: 1, specs: nil, bytes: bytes)
        default:
            let kind = document.metadata.kind
            let formats =
                kind == .pods
                ? "archive, objects, json, csv or specs"
                : kind == .outline ? "archive, objects, opml, markdown, text or json" : "archive, objects or json"
            let what = kind == .pods ? "A pods document" : kind == .outline ? "An outline document" : "A document of kind '\(kind)'"
            throw CommandFailure(.usage, code: "usage", "\(what) does not export as \(format.rawValue); use \(formats).")
        }
        var text = "Exported \(name) to \(output) (\(shape.format)"
        if let specs = shape.specs { text += ", \(specs) specs" }
        if let objects = shape.objects { text += ", \(objects) object\(objects == 1 ? "" : "s")" }
        session.output.emit(shape, text: text + ").")
    }

    /// Streams an outline to a file through the safe save: one chunk of output in memory at a
    /// time, whatever the file's size.
    ///
    /// - Returns: The bytes written.
    private static func write(_ outline: some OutlineWalk, as format: OutlineFormat, to url: URL, replacing: Bool) throws -> Int {
        var written = 0
        try FileSystem().write(to: url, replacingExisting: replacing) { sink in
            var failure: (any Error)?
            try outline.write(format: format) { chunk in
                guard failure == nil else { return }
                do {
                    try chunk.withUnsafeBytes { try sink.write($0) }
                    written += chunk.count
                } catch {
                    failure = error
                }
            }
            if let failure { throw failure }
        }
        return written
    }

    /// Says so before writing a file that is almost all indentation (Markdown or indented
    /// text of a very deep outline grows with the square of its depth).
    private static func warnIfAbsurd(_ outline: some OutlineWalk, _ size: OutlineSize, _ format: OutlineFormat, output: Output) throws {
        guard size.bytes >= 256 << 20, size.indentation * 10 >= size.bytes * 9 else { return }
        let compact = try outline.estimatedSize(format: .json).bytes
        output.message(
            "poddoc: warning: this outline is \(size.maxDepth) levels deep, and \(format == .markdown ? "Markdown" : "indented text") indents every level, so the file will be about \(ByteCountFormatter.string(fromByteCount: Int64(size.bytes), countStyle: .file)), almost all of it indentation; as JSON or OPML it takes about \(ByteCountFormatter.string(fromByteCount: Int64(compact), countStyle: .file)). Writing it anyway (Ctrl-C stops)."
        )
    }

    /// Says, in one line, what a lossy format left out (notes, attributes, head fields).
    private static func sayWhatWasDropped(
        _ dropped: (notes: Int, itemsWithAttributes: Int, tasks: Int, headFields: Int), _ format: OutlineFormat, output: Output
    ) {
        var parts: [String] = []
        if dropped.notes > 0 { parts.append("\(dropped.notes) note\(dropped.notes == 1 ? "" : "s")") }
        if dropped.itemsWithAttributes > 0 {
            parts.append("the attributes of \(dropped.itemsWithAttributes) item\(dropped.itemsWithAttributes == 1 ? "" : "s")")
        }
        if dropped.tasks > 0 { parts.append("whether \(dropped.tasks) task\(dropped.tasks == 1 ? " is" : "s are") done") }
        if dropped.headFields > 0 { parts.append("\(dropped.headFields) head field\(dropped.headFields == 1 ? "" : "s")") }
        guard !parts.isEmpty else { return }
        let kept = format == .markdown ? "Markdown keeps titles, notes and tasks" : "indented text keeps titles only"
        output.message("poddoc: \(kept); left out: \(parts.joined(separator: ", ")) (opml or json keep everything).")
    }

    private static func size(of url: URL) -> Int? {
        (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? nil
    }
}
