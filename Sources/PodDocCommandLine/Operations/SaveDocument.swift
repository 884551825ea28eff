import ArgumentParser
import Foundation
import PodDocDocument

/// `save [--as OUT] [--format F]`: save in place, or write the document elsewhere, converting
/// between a package and an archive.
struct SaveDocument: DocumentOperation {
    static let name = "save"
    static let examples = [
        "poddoc save Notes.poddoc --as Notes-copy.poddoc.tar.zst   # a copy to take elsewhere",
        "poddoc save Notes.poddoc.tar.zst --as Notes-unpacked.poddoc",
    ]
    static let abstract = "Save; with --as, save to a new place (package or archive) and continue there."
    static let kind: DocumentKind? = nil
    static let changesDocument = true
    /// `save --as` only reads the document it copies (which may be on a read-only disk).
    var changesDocument: Bool { destination == nil }

    @Option(
        name: .customLong("as"), help: ArgumentHelp("Where to write the document (must not exist).", valueName: "path"), completion: .file()
    )
    var destination: String?

    @Option(
        help: "package | tar.zst | zip | tar.gz: the one the name says (NAME.poddoc, NAME.tar.zst …), checked.",
        completion: .list(["package", "tar.zst", "zip", "tar.gz"]))
    var format: String?

    /// What `save` prints with `--json`.
    struct Shape: Encodable {
        let path: String
        let format: String
        let saveSequence: Int
    }

    func validate() throws {
        if let format, DocumentFormat(name: format) == nil {
            throw ValidationError("Unknown format '\(format)'; use package, tar.zst, zip or tar.gz.")
        }
        if format != nil, destination == nil { throw ValidationError("--format goes with --as (where to write).") }
        if let destination { try DocumentName.validate(destination, format: format.flatMap(DocumentFormat.init(name:))) }
    }

    func perform(in session: DocumentSession) async throws {
        let document = session.document
        guard let destination else {
            try await Progress.watching("save") { try await document.save() }
            let path = document.fileURL?.path ?? ""
            session.output.emit(
                Shape(path: path, format: document.format.description, saveSequence: document.metadata.saveSequence),
                text: "Saved \(path) (save \(document.metadata.saveSequence)).")
            return
        }
        // Editing continues in the copy, which a newer format's would refuse once written.
        if document.metadata.isNewerFormat {
            throw CommandFailure(
                .document, code: "newerFormat",
                document.metadata.newerFormatMessage(
                    document: document.fileURL?.path ?? destination,
                    refusing: "save it elsewhere to edit it there (`poddoc export DOC OUT --format archive` copies it as it is)"))
        }
        let url = try OutputPath(destination, document: document, replacing: false, offersForce: false).url
        let target = format.flatMap(DocumentFormat.init(name:)) ?? DocumentFormat(inferringFrom: url)
        try await Progress.watching("save") { try await document.save(as: url, format: target) }
        session.currentItem = nil
        session.output.emit(
            Shape(path: destination, format: target.description, saveSequence: document.metadata.saveSequence),
            text: "Saved as \(destination) (\(target)); editing continues there.")
    }
}
