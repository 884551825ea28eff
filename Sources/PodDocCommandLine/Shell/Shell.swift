import ArgumentParser
import Foundation
import PodDocDocument

/// The interactive shell on an open document (`poddoc open`): reads commands from a terminal
/// (line editing, history), from standard input (one command a line), or from `-c`; runs
/// them on the main actor, where the document lives, while autosave runs on its timer.
///
/// Ctrl-C cancels the running command; Ctrl-D or `quit` saves and closes. SIGTERM and SIGHUP
/// stop the shell: no further command is read or run, the running one is cancelled (an
/// import stops between saves, resumable), everything done is saved, and the shell exits
/// 143 or 129. A failed command does not stop the shell: it reports one line; a script's exit
/// status (standard input not a terminal, or `-c`) is that of the first failure.
@MainActor
final class Shell {
    let session: DocumentSession
    private let interactive: Bool
    private let operations: [String: any DocumentOperation.Type]
    private var firstFailure: ExitStatus?
    private var quitting = false
    /// Whether the user was told that the document changed on disk behind the shell.
    private var conflictAnnounced = false
    /// The termination signal (SIGTERM, SIGHUP) that stopped the shell, if one did.
    private var stoppedBy: Int32?
    /// Ends the line stream when a signal stops the shell while it waits for a line.
    private var endInput: (() -> Void)?
    /// Where lines come from, when they are read (not a `-c` script).
    private var lineSource: LineSource?
    /// Whether the line asked for is a command (its prompt is the shell's, redrawn as the
    /// document changes), not the answer to a question.
    private var askingForCommand = false

    init(document: ManagedDocument, output: Output, interactive: Bool) {
        session = DocumentSession(document: document, output: output)
        self.interactive = interactive
        operations = Dictionary(uniqueKeysWithValues: OperationSets.shell(for: document.metadata.kind).map { ($0.name, $0) })
    }

    private var document: ManagedDocument { session.document }
    private var output: Output { session.output }

    /// Runs the commands of `script` (`-c`), or those read from standard input until the end
    /// of input or `quit`; then saves and closes the document.
    ///
    /// - Returns: The exit status: success, or the status of the first failure.
    func run(script: String?) async -> ExitStatus {
        watchDocument()
        if let url = document.fileURL {
            for copy in ManagedDocument.syncConflictCopies(of: url) {
                output.message(
                    "poddoc: \(copy.lastPathComponent) beside this document is a copy a sync tool kept after a conflict; `merge \(ShellQuoting.quote(copy.path)) --remove-copy` merges it in and removes it."
                )
            }
        }
        if await document.checkForChangesOnDisk() {
            output.message(
                "poddoc: \(document.fileURL?.lastPathComponent ?? "the document") has changed on disk since this work was autosaved. Choose: merge (theirs into yours, then save), keep-mine, take-theirs, or save --as PATH."
            )
        }
        if let script {
            await execute(script)
        } else {
            let source = LineSource(interactive: interactive)
            lineSource = source
            let lines = LineQueue(source)
            endInput = { source.finish() }
            // A command that needs an answer (merge, a conflict at a time) reads the next line.
            session.ask = { [weak self] question in
                self?.askingForCommand = false
                source.requestLine(prompt: question)
                return await lines.next()
            }
            if interactive {
                output.message(
                    "\(document.fileURL?.lastPathComponent ?? "document"): \(document.metadata.kind.rawValue) document. Type help for commands, quit or Ctrl-D to leave."
                )
            }
            askingForCommand = true
            source.requestLine(prompt: prompt)
            var warnedOfLoss = false
            while true {
                while !quitting, let line = await lines.next() {
                    await execute(line)
                    if !quitting {
                        askingForCommand = true
                        source.requestLine(prompt: prompt)
                    }
                }
                if interactive && !quitting { output.message("") }
                let safe = await close()
                // A `quit` that could not keep the edits anywhere (the working copy's disk is
                // full too) leaves the shell open once, for a `save --as` on another disk.
                if safe || !interactive || !quitting || warnedOfLoss || stoppedBy != nil { break }
                warnedOfLoss = true
                quitting = false
                output.message(
                    "poddoc: your edits are still in memory only. `save --as PATH` on another disk keeps them; quit again to leave without them."
                )
                askingForCommand = true
                source.requestLine(prompt: prompt)
            }
        }
        if script != nil { await close() }
        if let stoppedBy { return Interrupts.status(for: stoppedBy) }
        // On a terminal the user saw each failure; a script's status is its first failure.
        return interactive ? .success : firstFailure ?? .success
    }

    // MARK: - The document's events

    private func watchDocument() {
        let output = self.output
        let name = document.fileURL?.lastPathComponent ?? "document"
        document.onAutosave = { [weak self] event in
            switch event {
            case .saved(_, let sequence, _):
                self?.announce("autosaved \(name) (save \(sequence))")
                self?.announceConflict()
            case .failed(let error): self?.announce("autosave failed: \(error.message) Your edits are kept; autosave retries.")
            }
        }
        Interrupts.shared.allowsForcedExit = false
        Interrupts.shared.whenIdle = { [weak self, interactive] in
            if interactive { self?.announce("(type quit or press Ctrl-D to save and leave)") }
        }
        // Ctrl-C at the first prompt, before any command ran, is a hint too.
        Interrupts.shared.install()
        TerminationSignals.onTermination { [weak self] number in
            self?.stop(by: number)
        }
    }

    /// SIGTERM or SIGHUP: reads and runs no further command, cancels the running one, and
    /// lets the shell's loop save and close (the loop ends as it does for `quit`).
    private func stop(by number: Int32) {
        guard stoppedBy == nil else { return }
        stoppedBy = number
        quitting = true
        output.message(
            "poddoc: received \(Interrupts.name(of: number)); saving and closing (commands not yet read are not run).")
        Interrupts.shared.cancelRunning(by: number)
        endInput?()
    }

    /// Says once, when an autosave finds the document changed on disk behind the shell (the
    /// autosave went into the working copy), what the user can do; the next save is refused
    /// until they choose.
    private func announceConflict() {
        guard document.state.contains(.inConflict), !conflictAnnounced else { return }
        conflictAnnounced = true
        let name = document.fileURL?.lastPathComponent ?? "the document"
        announce(
            "poddoc: \(name) was changed on disk by someone else while open here; your edits are autosaved apart and nothing of theirs is overwritten. Choose: merge (theirs into yours, then save), keep-mine, take-theirs, or save --as PATH."
        )
    }

    /// Prints a message that may come while a line is typed (an autosave, a conflict): on a
    /// terminal above that line, with the prompt, as it is now, and the line drawn again.
    private func announce(_ message: String) {
        if let lineSource {
            lineSource.announce(message, prompt: askingForCommand ? prompt : nil)
        } else {
            output.message(message)
        }
    }

    /// `Notes.poddoc* 1.2> `: the document, `*` while there are unsaved changes, the current item.
    private var prompt: String {
        let name = document.fileURL?.lastPathComponent ?? "untitled"
        let place = session.currentItem.flatMap { try? session.pathText(of: $0) }.map { " \($0)" } ?? ""
        return "\(name)\(document.hasUnsavedChanges ? "*" : "")\(place)> "
    }

    /// Saves and closes. When the save fails (a conflict, a full disk), the edits are
    /// autosaved into the working copy if there is one, and the user is told how to get them
    /// back; the working copy is never removed with work the document does not have.
    ///
    /// - Returns: Whether the edits are safe on disk (saved, or kept in the working copy).
    @discardableResult
    private func close() async -> Bool {
        do {
            try await DocumentAccess.finish(document)
            return true
        } catch {
            report(error)
            let name = document.fileURL?.path ?? "the document"
            if document.fileURL != nil, (try? await document.autosave()) != nil || !document.hasUnsavedChanges,
                document.hasWorkInWorkingCopy
            {
                output.message(
                    "poddoc: your edits are kept in the working copy of \(name): `poddoc open \(name) --recover` brings them back (`poddoc recover` lists waiting work)."
                )
                return true
            }
            if !document.hasUnsavedChanges { return true }
            if !interactive {
                output.message(
                    "poddoc: your edits could not be saved anywhere and are lost as the shell ends; `save --as PATH` on another disk keeps them."
                )
            }
            return false
        }
    }

    /// `keep-mine` and `take-theirs`: the choices of a document in conflict.
    private func resolve(_ choice: ConflictResolution) async throws {
        let name = document.fileURL?.lastPathComponent ?? "the document"
        guard await document.checkForChangesOnDisk() else {
            output.line("\(name) is not in conflict: nobody else changed it on disk.")
            return
        }
        try await document.resolveConflict(choice)
        conflictAnnounced = false
        session.currentItem = nil
        switch choice {
        case .keepMine: output.line("Saved yours over the copy on disk: \(name) (save \(document.metadata.saveSequence)).")
        case .takeTheirs: output.line("Reloaded \(name) from disk; your unsaved changes were dropped.")
        case .saveAsCopy: break
        }
    }

    /// In conflict: merges the version on disk into this one (yours is autosaved apart
    /// first), then saves the result over it.
    private func mergeTheVersionOnDisk() async throws {
        let name = document.fileURL?.lastPathComponent ?? "the document"
        guard let url = document.fileURL, await document.checkForChangesOnDisk() else {
            output.line("\(name) is not in conflict: nobody else changed it on disk (`merge PATH` merges another copy).")
            return
        }
        try await MergeDocument.parse([url.path]).perform(in: session)
        try await resolve(.keepMine)
    }

    // MARK: - Running commands

    /// Runs the commands of one line; Ctrl-C cancels the one running.
    func execute(_ line: String) async {
        let commands: [[String]]
        do {
            commands = try ShellSyntax.commands(in: line)
        } catch {
            report(error)
            return
        }
        for words in commands where !quitting {
            // `--quiet` is one command's: the next shows its progress again.
            Progress.silenced.store(false, ordering: .relaxed)
            do {
                try await Interrupts.shared.run { try await self.run(words) }
            } catch is CancellationError where stoppedBy != nil {
                reportStopped(words)
            } catch {
                report(error)
            }
        }
    }

    private func run(_ words: [String]) async throws {
        let name = words[0]
        var arguments = Array(words.dropFirst())
        // `--json` (before a `--` that ends the options) prints this one command's result as
        // JSON, whatever the shell's own output.
        let optionsEnd = arguments.firstIndex(of: "--") ?? arguments.endIndex
        if arguments[..<optionsEnd].contains("--json") {
            arguments = arguments[..<optionsEnd].filter { $0 != "--json" } + arguments[optionsEnd...]
            let plain = session.output
            session.output = Output(json: true)
            defer { session.output = plain }
            try await run(name, arguments)
            return
        }
        try await run(name, arguments)
    }

    private func run(_ name: String, _ arguments: [String]) async throws {
        if name == "merge" && arguments.isEmpty {
            try await mergeTheVersionOnDisk()
            return
        }
        if name == "revert" && arguments.isEmpty {
            try await document.revert()
            output.line("Reverted to the last save.")
            return
        }
        if let operation = operations[name] {
            try await perform(operation, arguments)
            return
        }
        guard let builtin = Self.builtins.first(where: { $0.name == name || (name == "exit" && $0.name == "quit") }) else {
            throw CommandFailure(.usage, code: "usage", "Unknown command '\(name)'; type help for the list.")
        }
        if arguments.count > builtin.arguments {
            let takes = builtin.arguments == 0 ? "takes no arguments" : "takes one argument at most"
            throw CommandFailure(
                .usage, code: "usage",
                "`\(name)` \(takes) (got '\(arguments.joined(separator: " "))'); help \(builtin.name) shows how.")
        }
        switch builtin.name {
        case "help": try help(arguments.first)
        case "cd": try changeItem(arguments.first)
        case "undo", "redo": try undoOrRedo(name == "undo")
        case "status": status()
        case "keep-mine": try await resolve(.keepMine)
        case "take-theirs": try await resolve(.takeTheirs)
        default: quitting = true
        }
    }

    private func perform<Operation: DocumentOperation>(_ type: Operation.Type, _ arguments: [String]) async throws {
        let operation: Operation
        do {
            operation = try Operation.parse(arguments)
        } catch {
            if Operation.exitCode(for: error) == .success {
                output.line(Operation.fullMessage(for: error))
                return
            }
            throw CommandFailure(
                .usage, code: "usage", "\(Operation.name): \(Operation.message(for: error)) (help \(Operation.name) shows how)")
        }
        session.beginOperation()
        try await operation.perform(in: session)
    }

    /// The line for a command a termination signal cancelled: what it left undone, and how to
    /// go on (an import resumes from the last page its saves hold).
    private func reportStopped(_ words: [String]) {
        let command = words.joined(separator: " ")
        let resume =
            words.first == "import" && !words.contains("--resume")
            ? " `\(command) --resume` goes on from the last page saved." : ""
        output.message(
            "poddoc: \(Interrupts.name(of: stoppedBy ?? SIGTERM)) stopped `\(command)` before it finished; what it saved (up to save \(document.metadata.saveSequence)) stays saved.\(resume)"
        )
    }

    private func report(_ error: any Error) {
        let failure = CommandFailure.from(error) ?? CommandFailure(.failure, code: "failure", "\(error)")
        if firstFailure == nil { firstFailure = failure.status }
        output.failure(failure)
    }

    // MARK: - Built-in commands

    /// A command of the shell itself (not a document operation): its name, its usage, what it
    /// does, and how many arguments it takes.
    private struct Builtin {
        let name: String
        let usage: String
        let summary: String
        var arguments = 0
    }

    private static let builtins: [Builtin] = [
        .init(
            name: "cd", usage: "cd [PATH]", summary: "Make an item the current one (.. goes up, no path goes to the top); outlines only.",
            arguments: 1),
        .init(name: "undo", usage: "undo", summary: "Undo the last edit."),
        .init(name: "redo", usage: "redo", summary: "Redo the last undone edit."),
        .init(name: "status", usage: "status [--json]", summary: "Show unsaved changes, autosave and the document's state."),
        .init(
            name: "keep-mine", usage: "keep-mine",
            summary: "In conflict (changed on disk by someone else): save yours over theirs; `merge` alone merges theirs into yours first."),
        .init(
            name: "take-theirs", usage: "take-theirs",
            summary: "In conflict: reload theirs from disk, dropping your unsaved changes (save --as PATH keeps yours as a copy)."),
        .init(name: "help", usage: "help [COMMAND]", summary: "List the commands, or show one command's options.", arguments: 1),
        .init(name: "quit", usage: "quit", summary: "Save and leave (Ctrl-D and `exit` do the same)."),
    ]

    private func help(_ command: String?) throws {
        if let command, let operation = operations[command] {
            // The usage line names the type (`save_document`); the shell's word is the name.
            var text = operation.helpMessage(columns: 100)
            if let usage = text.range(of: "USAGE: ") {
                let end = text[usage.upperBound...].firstIndex { $0 == " " || $0 == "\n" } ?? text.endIndex
                text.replaceSubrange(usage.upperBound..<end, with: operation.name)
            }
            output.line(text)
            return
        }
        if let command {
            guard let builtin = Self.builtins.first(where: { $0.name == command || (command == "exit" && $0.name == "quit") }) else {
                throw CommandFailure(.usage, code: "usage", "Unknown command '\(command)'; type help for the list.")
            }
            output.line("USAGE: \(builtin.usage)\n\n\(builtin.summary)")
            return
        }
        let listed =
            OperationSets.shell(for: document.metadata.kind).map { ($0.name, $0.abstract) } + Self.builtins.map { ($0.usage, $0.summary) }
        let width = (listed.map(\.0.count).max() ?? 0) + 2
        output.line(listed.map { "  " + $0.0.padding(toLength: width, withPad: " ", startingAt: 0) + $0.1 }.joined(separator: "\n"))
    }

    private func changeItem(_ path: String?) throws {
        guard document.metadata.kind == .outline else {
            throw CommandFailure(.usage, code: "usage", "cd moves between outline items; a pods document has none.")
        }
        let outline = try session.outline()
        switch path {
        case nil, "/":
            session.currentItem = nil
        case "..":
            guard let current = session.currentItem else { return }
            let positions = try outline.indexPath(of: current)
            session.currentItem = positions.count <= 1 ? nil : try outline.itemID(at: .indexes(Array(positions.dropLast())))
        case let path?:
            let id = try session.item(at: path)
            session.currentItem = id == outline.rootID ? nil : id
        }
    }

    private func undoOrRedo(_ undo: Bool) throws {
        let manager = document.undoManager
        guard
            let name = undo
                ? (manager.canUndo ? manager.undoActionName ?? "the last edit" : nil)
                : (manager.canRedo ? manager.redoActionName ?? "the last edit" : nil)
        else {
            output.line(undo ? "Nothing to undo." : "Nothing to redo.")
            return
        }
        if undo { document.undo() } else { document.redo() }
        if let current = session.currentItem, (try? session.pathText(of: current)) == nil { session.currentItem = nil }
        output.emit(["done": "\(undo ? "Undo" : "Redo") \(name)"], text: "\(undo ? "Undid" : "Redid") \(name)")
    }

    /// What `status` prints with `--json`.
    struct StatusShape: Encodable {
        let document: String?
        let kind: String
        let state: String
        let unsavedChanges: Bool
        let saveSequence: Int
        let lastAutosave: Date?
        let autosaveError: String?
        let undo: String?
        let redo: String?
    }

    private func status() {
        let autosave = document.autosaveStatus
        let shape = StatusShape(
            document: document.fileURL?.path, kind: document.metadata.kind.rawValue, state: document.state.description,
            unsavedChanges: document.hasUnsavedChanges, saveSequence: document.metadata.saveSequence,
            lastAutosave: autosave.lastSuccess, autosaveError: autosave.lastError?.message,
            undo: document.undoManager.canUndo ? document.undoManager.undoActionName : nil,
            redo: document.undoManager.canRedo ? document.undoManager.redoActionName : nil)
        var lines = [
            "\(shape.document ?? "untitled") (\(shape.kind)): \(shape.state), \(shape.unsavedChanges ? "unsaved changes" : "all saved"), save \(shape.saveSequence)"
        ]
        lines.append(
            "  last autosave: \(autosave.lastSuccess?.formatted(.iso8601) ?? "none yet")"
                + (shape.autosaveError.map { "; last error: \($0)" } ?? ""))
        if let undo = shape.undo { lines.append("  undo: \(undo)") }
        if let redo = shape.redo { lines.append("  redo: \(redo)") }
        output.emit(shape, text: lines.joined(separator: "\n"))
    }
}

/// The lines of a ``LineSource``, read one at a time by the shell's loop and by commands that
/// ask a question.
@MainActor
private final class LineQueue {
    private var iterator: AsyncStream<String>.Iterator

    init(_ source: LineSource) { iterator = source.lines.makeAsyncIterator() }

    func next() async -> String? {
        // The iterator is a handle on the stream's shared storage: a copy reads the same lines.
        var reader = iterator
        let line = await reader.next(isolation: #isolation)
        iterator = reader
        return line
    }
}
