import ArgumentParser
import Foundation
import PodDocContent
import PodDocDocument

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
        ]))

    @Argument(help: "Where to create it, e.g. Specs.poddoc or Notes.poddoc.tar.zst (must not exist).", completion: .file())
    var path: String

    @Option(help: "What it holds: pods (CocoaPods specs) or outline.")
    var kind: DocumentKind

    @OptionGroup var outputOptions: OutputOptions
    var json: Bool { outputOptions.json }

    func validate() throws {
        try DocumentName.validate(path)
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
    }

    func execute() async throws {
        var options = ManagedDocument.OpenOptions()
        options.autosaveInterval = nil
        let document = try await ManagedDocument.create(at: URL(fileURLWithPath: path), kind: kind, options: options)
        let shape = Shape(
            path: path, kind: kind.rawValue, format: document.format.description, documentID: document.metadata.documentID.uuidString)
        try await DocumentAccess.finish(document)
        outputOptions.output.emit(shape, text: "Created \(path): an empty \(kind.rawValue) document (\(shape.format)).")
    }
}
