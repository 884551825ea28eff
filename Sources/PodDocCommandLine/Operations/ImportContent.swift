import ArgumentParser
import Foundation
import OutlineInterchange
import Outliner
import PodDocContent
import PodDocDocument
import PodSpecs

/// `import`: specs into a pods document (`--from URL|FOLDER|FILE [--resume]`), or an outline
/// file into an outline document (`--opml`, `--markdown`, `--text`, `--outline-json`).
struct ImportContent: DocumentOperation {
    static let name = "import"
    static let examples = [
        "poddoc import Specs.poddoc --from specs.json",
        "poddoc import Notes.poddoc --opml notes.opml --under /Work",
        "poddoc import Specs.poddoc --from http://127.0.0.1:8080/specs --resume   # from `poddoc serve specs.json --port 8080`; goes on where a cut-off import stopped",
    ]
    static let abstract = "Import specs (--from URL|FOLDER|FILE) or an outline file (--opml, --markdown, --text, --outline-json)."
    static let kind: DocumentKind? = nil
    static let changesDocument = true

    @Option(
        help: ArgumentHelp(
            "Pods: a specs service URL (http://…/specs), a Specs folder (or a folder of spec files), a page file, or one spec file (Name.podspec.json).",
            valueName: "source"))
    var from: String?

    @Flag(help: "Pods: continue an interrupted import after its last saved page.")
    var resume = false

    @Option(help: ArgumentHelp("Outline: an OPML file to add.", valueName: "file"), completion: .file())
    var opml: String?

    @Option(help: ArgumentHelp("Outline: a Markdown list to add.", valueName: "file"), completion: .file())
    var markdown: String?

    @Option(help: ArgumentHelp("Outline: an indented text file to add.", valueName: "file"), completion: .file())
    var text: String?

    @Option(
        name: .customLong("outline-json"), help: ArgumentHelp("Outline: a file in the outline JSON format to add.", valueName: "file"),
        completion: .file())
    var outlineJSON: String?

    @Option(help: "Outline: the item to add under (default: the top level).")
    var under: String?

    /// What `import` prints with `--json` for specs.
    struct SpecsShape: Encodable {
        let source: String
        let pages: Int
        let created: Int
        let updated: Int
        /// Specs the document held already as the source has them.
        let unchanged: Int
        let rejected: Int
        let skipped: Int
        let complete: Bool
        /// Each refused spec: `{"location", "reason"}`.
        let rejectedSpecs: [Rejection]
        /// Each file that is not a spec.
        let skippedFiles: [String]
        /// Each spec imported with a remark.
        let warnings: [String]

        struct Rejection: Encodable {
            let location: String
            let reason: String
        }
    }

    /// How many refused specs, skipped files or remarks the text summary lists (`--json` lists
    /// them all).
    static let listedInText = 10

    /// What `import` prints with `--json` for an outline.
    struct OutlineShape: Encodable {
        let file: String
        let format: String
        /// The undo name, which counts every item: `Import 1,329 items`.
        let done: String
        let topLevel: Int
    }

    func perform(in session: DocumentSession) async throws {
        let outlineFiles: [(String?, OutlineFormat)] = [(opml, .opml), (markdown, .markdown), (text, .plainText), (outlineJSON, .json)]
        let given = outlineFiles.compactMap { file, format in file.map { ($0, format) } }
        switch session.document.metadata.kind {
        case .pods:
            guard let from, given.isEmpty else {
                throw CommandFailure(
                    .usage, code: "usage",
                    "A pods document imports specs: give --from URL|FOLDER|FILE (--opml, --markdown, --text are for outlines).")
            }
            guard under == nil else {
                throw CommandFailure(
                    .usage, code: "usage", "--under places an outline import; a pods document's specs have no place: leave it out.")
            }
            try await importSpecs(from, into: session)
        case .outline:
            guard from == nil, given.count == 1 else {
                throw CommandFailure(
                    .usage, code: "usage",
                    "An outline document imports one file: give one of --opml, --markdown, --text, --outline-json (--from is for pods).")
            }
            try await importOutline(given[0].0, format: given[0].1, into: session)
        default:
            let kind = session.document.metadata.kind
            throw CommandFailure(
                .badInput, code: "badInput",
                "\(session.document.fileURL?.path ?? "The document") is a document of kind '\(kind)': poddoc imports specs into pods documents and outlines into outline documents. Import into it with the app that made it."
            )
        }
    }

    @MainActor
    private func importSpecs(_ text: String, into session: DocumentSession) async throws {
        let source = try SpecsSource(text)
        let importer = SpecsImporter(document: session.document)
        let savedBefore = session.document.metadata.saveSequence
        let progress = Progress("import")
        defer { progress.finish() }
        // A passing failure is asked again within a second, shown as a count on the progress
        // line; a longer wait (the server failing) is a line of its own.
        let client: SpecsClient? =
            if case .service(let configuration) = source {
                SpecsClient(configuration: configuration) { notice in
                    if notice.delay >= .seconds(1) { progress.note("import: \(notice)") }
                }
            } else {
                nil
            }
        let report: @Sendable (ImportProgress) -> Void = { status in
            // Pages counted as the percent is, from the source's first page (a resumed import
            // starts where the last one stopped).
            let pages = status.numberOfPages.map { "\(status.lastCompletedPage + 1)/\($0)" } ?? "\(status.pagesDone)"
            let waiting = client.map(\.pagesWaitingForRetry) ?? 0
            progress.update(
                fraction: status.fractionCompleted,
                detail: "\(pages) pages, \(status.specsDone) specs, \(Int(status.specsPerSecond)) specs/s"
                    + (waiting > 0 ? ", \(waiting) waiting for a retry" : ""))
        }
        let summary: ImportSummary
        switch source {
        case .service:
            guard let client else { preconditionFailure("a service is read through a client") }
            summary = try await importer.importService(client, resume: resume, progress: report)
        case .folder(let folder):
            summary = try await importer.importFolder(folder, resume: resume, progress: report)
        case .pageFile(let file):
            summary = try await importer.importPageFile(file, progress: report)
        }
        progress.finish()
        let shape = SpecsShape(
            source: source.description, pages: summary.pages, created: summary.created, updated: summary.updated,
            unchanged: summary.unchanged, rejected: summary.rejected.count, skipped: summary.skipped.count, complete: summary.isComplete,
            rejectedSpecs: summary.rejected.map { .init(location: $0.location, reason: $0.reason) },
            skippedFiles: summary.skipped, warnings: summary.warnings)
        if summary.specs == 0, !summary.rejected.isEmpty || !summary.skipped.isEmpty {
            let first = summary.rejected.first.map { "first: \($0)" } ?? "first: \(summary.skipped[0]) is not a spec file"
            throw CommandFailure(
                .badInput, code: "nothingImported",
                "Imported nothing from \(source): \(Self.count(summary.rejected.count, "spec")) refused, \(Self.count(summary.skipped.count, "file")) skipped (\(first))."
            )
        }
        var lines = [
            "Imported \(Self.count(summary.specs, "spec")) from \(source) (\(summary.created) new, \(summary.updated) updated, \(summary.unchanged) unchanged, \(Self.count(summary.pages, "page")))."
        ]
        if summary.specs > 0, summary.created + summary.updated == 0 {
            // A source imported for the first time saves the record of its import (what
            // `--resume` reads) even when every spec was there already.
            let saved = session.document.metadata.saveSequence
            lines.append(
                saved == savedBefore
                    ? "The document held every one of them already: nothing was saved."
                    : "The document held every one of them already; save \(saved) records only that \(source) was imported.")
        }
        lines += Self.listing(summary.rejected.map(\.description), "Refused \(Self.count(summary.rejected.count, "spec")):")
        lines += Self.listing(
            summary.skipped,
            "Skipped \(Self.count(summary.skipped.count, "file")) that \(summary.skipped.count == 1 ? "is not a spec file" : "are not spec files"):"
        )
        lines += Self.listing(summary.warnings, "Imported with a remark (\(summary.warnings.count)):")
        session.output.emit(shape, text: lines.joined(separator: "\n"))
    }

    private static func count(_ n: Int, _ noun: String) -> String {
        "\(n) \(noun)\(n == 1 ? "" : "s")"
    }

    /// A heading and the first ``listedInText`` entries, indented; nothing for no entries.
    private static func listing(_ entries: [String], _ heading: String) -> [String] {
        guard !entries.isEmpty else { return [] }
        var lines = [heading] + entries.prefix(listedInText).map { "  " + $0 }
        if entries.count > listedInText { lines.append("  … and \(entries.count - listedInText) more (--json lists them all)") }
        return lines
    }

    @MainActor
    private func importOutline(_ path: String, format: OutlineFormat, into session: DocumentSession) async throws {
        let url = URL(fileURLWithPath: path)
        let parent = try session.item(at: under ?? "/")
        // Read and parsed off the main actor, so Ctrl-C or SIGTERM during a long parse stops
        // the import before anything is added (and so before anything is saved); the file's
        // bytes are let go once parsed.
        let tree: OutlineTree
        do {
            tree = try await Task.detached {
                let data: Data
                do {
                    data = try Data(contentsOf: url)
                } catch {
                    throw CommandFailure(
                        .badInput, code: "notFound", "Could not read \(path): \(error.localizedDescription). Check the path.")
                }
                return try OutlineTree(data: data, format: format)
            }.value
        } catch let error as OutlineFormatError {
            throw CommandFailure(.badInput, code: "importFailed", error.description)
        }
        try Task.checkCancellation()
        // The items go to the store as rows, saved as the import ends; undo deletes them.
        let document = session.document
        let isEmpty = tree.isEmpty
        let ids = try await session.outline().importOutline(consume tree, under: parent) { try await document.autosave() }
        // An empty file may record no undo step: the last one is some other action's.
        let done = isEmpty ? "Import 0 items" : session.document.undoManager.undoActionName ?? "Import"
        session.output.emit(
            OutlineShape(file: path, format: format.rawValue, done: done, topLevel: ids.count),
            text: "\(done) from \(url.lastPathComponent) (\(ids.count) at the top).")
    }
}
