import Foundation
import PodDocContent
import PodDocDocument

/// Opening and closing documents for commands.
@MainActor
enum DocumentAccess {
    /// How a command uses the document.
    enum Mode {
        /// Reads only, and soon ends: the document opens read-only (a package then opens even
        /// while another process edits it), nothing is written, and no file or folder of the
        /// document changes; an editor that starts meanwhile waits for the read to end.
        case read
        /// Reads only, for as long as the user likes (the read-only shell, `serve`): editors
        /// open, edit and save the document meanwhile.
        case readAlongsideEditors
        /// Edits: the document is locked; `autosave` sets the timer (nil: no autosave).
        case edit(autosave: Duration?)
    }

    /// Opens the document, checking its kind when the command needs one.
    ///
    /// - Throws: ``DocumentError``, or ``CommandFailure`` for a document of the wrong kind.
    static func open(_ location: DocumentArgument, mode: Mode, kind: DocumentKind? = nil, command: String) async throws -> ManagedDocument {
        var options = ManagedDocument.OpenOptions()
        options.recovery = location.recovery
        switch mode {
        case .read:
            options.readOnly = true
            options.readSharing = .excludingEditors
            options.autosaveInterval = nil
        case .readAlongsideEditors:
            options.readOnly = true
            options.autosaveInterval = nil
        case .edit(let autosave):
            options.autosaveInterval = autosave
        }
        let url = location.url
        let document = try await Progress.watching("open \(url.lastPathComponent)") {
            try await ManagedDocument.open(url, options: options)
        }
        if let kind, document.metadata.kind != kind {
            try? await document.close()
            throw wrongKind(document.metadata.kind, url: url, command: command)
        }
        // Opening read the whole store (checks, the hash before a write), which the save reads
        // again, perhaps on a thread of the other malloc arena: what the open freed goes back.
        FreedMemory.giveBack()
        return document
    }

    /// Saves what is unsaved (an archive is re-packed) and closes.
    ///
    /// - Throws: ``DocumentError`` when the save fails; the document stays open.
    static func finish(_ document: ManagedDocument) async throws {
        try await Progress.watching("save \(document.fileURL?.lastPathComponent ?? "document")") {
            try await document.close()
        }
    }

    /// Runs `work` on an open document and closes it, saving when asked; a failure of
    /// `work` closes the document without saving what it changed.
    static func with<T>(
        _ location: DocumentArgument, mode: Mode, kind: DocumentKind? = nil, command: String,
        _ work: (ManagedDocument) async throws -> T
    ) async throws -> T {
        let document = try await open(location, mode: mode, kind: kind, command: command)
        let savedAtStart = document.metadata.saveSequence
        let result: T
        do {
            result = try await work(document)
            // A signal that came during the work stops it here, before the save, when there
            // is something left to save; one that comes during a save lets it finish, and
            // work that saved all it did itself (an outline import) is done.
            if document.hasUnsavedChanges { try Task.checkCancellation() }
        } catch {
            if document.hasUnsavedChanges { try? await document.revert() }
            try? await document.close()
            if error is CancellationError {
                throw Interrupts.shared.stoppedFailure(
                    document: location.url.lastPathComponent, savedAtStart: savedAtStart,
                    savedAtEnd: document.metadata.saveSequence)
            }
            throw error
        }
        do {
            try await finish(document)
        } catch  where document.hasWorkInWorkingCopy {
            // The edit is on disk, in the working copy, not lost: say where and how to get it.
            let failure = CommandFailure.from(error) ?? CommandFailure(.document, code: "notSaved", "\(error)")
            let name = location.url.path
            throw CommandFailure(
                failure.status, code: failure.code,
                "\(failure.message) The edit is kept for recovery: `poddoc recover \(name)` writes it into \(location.url.lastPathComponent) once that works, `poddoc recover \(name) --as NEW` writes it to a new document."
            )
        }
        return result
    }

    static func wrongKind(_ actual: DocumentKind, url: URL, command: String) -> CommandFailure {
        let instead =
            switch actual {
            case .pods: "`poddoc pods …` instead"
            case .outline: "`poddoc outline …` instead"
            default: "`poddoc objects …` to read it, and the app that made it to edit it"
            }
        let what = actual == .pods ? "a pods document" : actual == .outline ? "an outline document" : "a document of kind '\(actual)'"
        return CommandFailure(.document, code: "wrongKind", "\(url.path) is \(what); `\(command)` does not work on it. Use \(instead).")
    }
}
