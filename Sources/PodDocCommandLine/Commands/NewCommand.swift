import ArgumentParser
import Foundation
import PodDocContent
import PodDocDocument
import PodDocStore

extension DocumentKind: ExpressibleByArgument {
    /// The kinds the `poddoc` program makes documents of.
    public static var allValueStrings: [String] { DocumentType.builtIn.map(\.kind.rawValue) }
}

/// `poddoc new PATH --kind pods|outline`.
struct NewCommand: PodDocCommand {
    static let configuration = CommandConfiguration(
        commandName: "new",
        abstract: "Create an empty document: a package, or an archive when the name ends in .tar.zst, .zip or .tar.gz.",
        discussion: Examples.discussion([
            "poddoc new Recipes.poddoc --kind outline",
            "poddoc new Catalogue.poddoc.tar.zst --kind pods   # one archive file",
            "poddoc new Rebuilt.poddoc --from chores.json   # any kind, from `poddoc export DOC chores.json --format objects`",
        ]))

    @Argument(help: "Where to create it, e.g. Specs.poddoc or Notes.poddoc.tar.zst (must not exist).", completion: .file())
    var path: String

    @Option(help: "What it holds: pods (CocoaPods specs) or outline.")
    var kind: DocumentKind?

    @Option(
        help: ArgumentHelp(
            "Rebuild a document from the objects JSON `poddoc export DOC FILE --format objects` wrote: its kind (any kind) and model come from the file.",
            valueName: "file"),
        completion: .file())
    var from: String?

    @OptionGroup var outputOptions: OutputOptions
    var json: Bool { outputOptions.json }

    func validate() throws {
        try DocumentName.validate(path)
        guard let kind else {
            guard from != nil else { throw ValidationError("Say what the document holds: --kind pods or --kind outline (or --from FILE).") }
            return
        }
        guard DocumentType.builtIn(kind) != nil else {
            throw ValidationError(
                "poddoc makes pods and outline documents, not '\(kind)': a document of an app's own kind is made by the app (ManagedDocument.create(at:type:)); poddoc then opens, checks, merges and exports it."
            )
        }
    }

    /// What `new` prints with `--json`.
    struct Shape: Encodable {
        let path: String
        let kind: String
        let format: String
        let documentID: String
        /// The objects a document rebuilt with --from holds.
        var objects: Int? = nil
    }

    /// The type of a document rebuilt from an objects file: the file's kind and model, its
    /// objects as the initial content (saved with the new document, or nothing is made).
    ///
    /// - Throws: ``CommandFailure`` when the file cannot be read, is not an objects file, or
    ///   contradicts `--kind` or the model poddoc has for a kind it brings.
    private static func type(rebuiltFrom file: String, kind: DocumentKind?) async throws -> (type: DocumentType, counts: ObjectsJSON.Counts)
    {
        let contents: ObjectsJSON.Contents
        do {
            contents = try await Task.detached {
                let data = try Data(contentsOf: URL(fileURLWithPath: file))
                return try ObjectsJSON.read(data)
            }.value
        } catch let error as StoreError {
            throw CommandFailure(.badInput, code: "badInput", "\(file): \(error.message)")
        } catch {
            throw CommandFailure(.document, code: "notFound", "Cannot read \(file): \(error.localizedDescription)")
        }
        guard let fileKind = DocumentKind(rawValue: contents.kind) else {
            throw CommandFailure(
                .badInput, code: "badInput", "\(file) names the kind '\(contents.kind.prefix(80))', which is no valid kind identifier.")
        }
        if let kind, kind != fileKind {
            throw CommandFailure(
                .badInput, code: "badInput", "\(file) holds a document of kind \(fileKind), not \(kind); leave out --kind.")
        }
        if let builtIn = DocumentType.builtIn(fileKind) {
            // poddoc opens its own kinds with its own model: the file's must be one it
            // upgrades from, never another model under the same version.
            let model = builtIn.model
            let known = contents.model.version < model.version || contents.model.versionHash == model.versionHash
            guard contents.model.version <= model.version, known else {
                throw CommandFailure(
                    .badInput, code: "badInput",
                    "\(file) holds a document of kind \(fileKind) written with a model (version \(contents.model.version)) this poddoc does not have; use the poddoc that wrote it."
                )
            }
        }
        let type = DocumentType(kind: fileKind, displayName: fileKind.rawValue, model: contents.model) { context in
            try contents.insert(into: context)
        }
        return (type, contents.counts)
    }

    func execute() async throws {
        var options = ManagedDocument.OpenOptions()
        options.autosaveInterval = nil
        let url = URL(fileURLWithPath: path)
        let document: ManagedDocument
        var filled: ObjectsJSON.Counts?
        if let from {
            let type = try await Self.type(rebuiltFrom: from, kind: kind)
            filled = type.counts
            document = try await ManagedDocument.create(at: url, type: type.type, options: options)
        } else if let kind {
            document = try await ManagedDocument.create(at: url, kind: kind, options: options)
        } else {
            preconditionFailure("validate() asks for --kind or --from")
        }
        let kind = document.metadata.kind
        let shape = Shape(
            path: path, kind: kind.rawValue, format: document.format.description, documentID: document.metadata.documentID.uuidString,
            objects: filled?.total)
        try await DocumentAccess.finish(document)
        let holding = filled.map {
            "a document of kind \(kind.rawValue) holding \($0.total) object\($0.total == 1 ? "" : "s") from \(from ?? "")"
        }
        outputOptions.output.emit(shape, text: "Created \(path): \(holding ?? "an empty \(kind.rawValue) document") (\(shape.format)).")
    }
}
