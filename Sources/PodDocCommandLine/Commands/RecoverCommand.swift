import ArgumentParser
import Foundation
import PodDocContent
import PodDocDocument

/// `poddoc recover [DOC] [--discard]`.
struct RecoverCommand: PodDocCommand {
    static let configuration = CommandConfiguration(
        commandName: "recover",
        abstract: "List autosaved work waiting for recovery, or recover (or --discard) the work of one archive document.",
        discussion:
            Examples.discussion(
                "Archive documents autosave into a per-user working copy ($XDG_STATE_HOME/poddoc). After a crash, `recover DOC` writes that work back into the archive; `recover DOC --discard` drops it.",
                [
                    "poddoc recover   # lists the work waiting",
                    "poddoc recover Notes.poddoc.tar.zst --as Rescued.poddoc   # the waiting work as a document of its own",
                ])
    )

    @Argument(help: "The archive document whose work to recover (leave out to list).", completion: .file())
    var document: String?

    @Flag(help: "Drop the waiting work instead, keeping the archive as last saved (when the archive changed since: take theirs).")
    var discard = false

    @Flag(
        name: .customLong("keep-mine"),
        help: "When the archive changed since the work was autosaved (another writer): write the waiting work over it anyway.")
    var keepMine = false

    @Option(
        name: .customLong("as"),
        help: ArgumentHelp("Write the waiting work to a new document here instead, leaving the archive as it is.", valueName: "path"),
        completion: .file())
    var copy: String?

    func validate() throws {
        guard document != nil || (!discard && !keepMine && copy == nil) else {
            throw ValidationError("--discard, --keep-mine and --as go with a document.")
        }
        guard [discard, keepMine, copy != nil].filter({ $0 }).count <= 1 else {
            throw ValidationError("Choose one of --discard, --keep-mine and --as.")
        }
        if let copy { try DocumentName.validate(copy) }
    }

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
            let waiting = ManagedDocument.recoverableDocuments().map {
                Shape.Entry(document: $0.archive?.path, workingCopy: $0.workingCopy.path, autosaved: $0.modified)
            }
            let lines = waiting.map {
                "\($0.document ?? "(never saved)")  autosaved \($0.autosaved.formatted(.iso8601))  in \($0.workingCopy)"
            }
            output.emit(
                Shape(waiting: waiting, recovered: nil, discarded: nil),
                text: lines.isEmpty ? "No work is waiting for recovery." : lines.joined(separator: "\n"))
            return
        }
        let nothingWaiting = "No autosaved work was waiting for \(document); nothing changed."
        if discard, ManagedDocument.waitingWork(for: URL(fileURLWithPath: document)) == nil {
            output.emit(Shape(waiting: [], recovered: nil, discarded: nil), text: nothingWaiting)
            return
        }
        let location = try DocumentArgument.parse([document, discard ? "--discard" : "--recover"])
        let opened = try await DocumentAccess.open(location, mode: .edit(autosave: nil), command: "poddoc recover")
        guard opened.hasWorkInWorkingCopy || discard else {
            try await DocumentAccess.finish(opened)
            output.emit(Shape(waiting: [], recovered: nil, discarded: nil), text: nothingWaiting)
            return
        }
        if let copy {
            let target = try OutputPath(copy, document: opened, replacing: false, offersForce: false).url
            try await Progress.watching("recover") { try await opened.save(to: target) }
            // The archive stays as it is; the work now lives in the copy, so it no longer waits.
            try await opened.resolveConflict(.takeTheirs)
            try await DocumentAccess.finish(opened)
            output.emit(
                Shape(waiting: [], recovered: copy, discarded: nil),
                text: "Wrote the autosaved work of \(document) to \(copy); \(document) is as it was.")
            return
        }
        if !discard, opened.fileURL != nil {
            do {
                try await Progress.watching("recover") {
                    if keepMine, await opened.checkForChangesOnDisk() {
                        try await opened.resolveConflict(.keepMine)
                    } else {
                        try await opened.save()
                    }
                }
            } catch let error as DocumentError where error.code == .inConflict {
                // The working copy stays as it is (dirty), with the lock gone when we exit.
                throw CommandFailure(
                    .locked, code: "inConflict",
                    "\(document) has changed since this work was autosaved (another writer saved it), so recovering would overwrite that writer's work. Nothing was changed. Choose: `poddoc recover \(document) --keep-mine` (yours over theirs), `--discard` (keep theirs) or `--as NEW` (yours as a new document)."
                )
            }
        }
        try await DocumentAccess.finish(opened)
        output.emit(
            Shape(waiting: [], recovered: discard ? nil : document, discarded: discard ? document : nil),
            text: discard
                ? "Discarded the waiting work of \(document); it is as last saved." : "Recovered the autosaved work into \(document).")
    }
}
