import ArgumentParser
import Foundation
import PodDocContent
import PodDocDocument

/// `poddoc recover [DOC] [--discard]`.
struct RecoverCommand: PodDocCommand {
    static let configuration = CommandConfiguration(
        commandName: "recover",
        abstract: "List autosaved work waiting for recovery, or recover (or --discard) the work of one archive document.",
        discussion: "Archive documents autosave into a per-user working copy ($XDG_STATE_HOME/poddoc). After a crash, `recover DOC` writes that work back into the archive; `recover DOC --discard` drops it.")

    @Argument(help: "The archive document whose work to recover (leave out to list).", completion: .file())
    var document: String?

    @Flag(help: "Drop the waiting work instead, keeping the archive as last saved.")
    var discard = false

    @OptionGroup var outputOptions: OutputOptions
    var json: Bool { outputOptions.json }

    /// What `recover` prints with `--json`: the waiting work, or what was done.
    struct Shape: Encodable {
        struct Entry: Encodable {
            let document: String?
            let workingCopy: String
            let autosaved: Date
        }
        let waiting: [Entry]
        let recovered: String?
        let discarded: String?
    }

    func execute() async throws {
        let output = outputOptions.output
        guard let document else {
            let waiting = ManagedDocument.recoverableDocuments().map { Shape.Entry(document: $0.archive?.path, workingCopy: $0.workingCopy.path, autosaved: $0.modified) }
            let lines = waiting.map { "\($0.document ?? "(never saved)")  autosaved \($0.autosaved.formatted(.iso8601))  in \($0.workingCopy)" }
            output.emit(Shape(waiting: waiting, recovered: nil, discarded: nil), text: lines.isEmpty ? "No work is waiting for recovery." : lines.joined(separator: "\n"))
            return
        }
        let location = try DocumentArgument.parse([document, discard ? "--discard" : "--recover"])
        let opened = try await DocumentAccess.open(location, mode: .edit(autosave: nil), command: "poddoc recover")
        if !discard, opened.fileURL != nil {
            do {
                try await Progress.watching("recover") { try await opened.save() }
            } catch let error as DocumentError where error.code == .inConflict {
                // The working copy stays as it is (dirty), with the lock gone when we exit.
                throw CommandFailure(.locked, code: "inConflict", "\(document) has changed since this work was autosaved (another writer saved it), so recovering would overwrite that writer's work. Nothing was changed. Open both with `poddoc open \(document) --recover`, then `keep-mine`, `take-theirs` or `save --as NEW`; or `poddoc recover \(document) --discard` to drop the waiting work.")
            }
        }
        try await DocumentAccess.finish(opened)
        output.emit(Shape(waiting: [], recovered: discard ? nil : document, discarded: discard ? document : nil),
                    text: discard ? "Discarded the waiting work of \(document); it is as last saved." : "Recovered the autosaved work into \(document).")
    }
}
