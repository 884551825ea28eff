import ArgumentParser
import Foundation
import PodDocDocument

/// `poddoc open DOC`: the interactive shell.
struct OpenCommand: PodDocCommand {
    static let configuration = CommandConfiguration(
        commandName: "open",
        abstract: "Open a document in an interactive shell, with undo and autosave.",
        discussion: Examples.discussion(
            """
            On a terminal, lines can be edited and history recalled. Otherwise commands are read \
            from standard input, one a line, so the shell is scriptable; -c runs a list (separate \
            commands with ;). The prompt shows the document, * when there are unsaved changes, and \
            the current item. Ctrl-C cancels the running command; Ctrl-D or quit saves and leaves; \
            SIGTERM and SIGHUP stop reading commands, save what was done and exit 143 or 129. Type \
            help in the shell for its commands.
            """,
            [
                "poddoc open Notes.poddoc",
                "poddoc open Notes.poddoc -c \"add Bread --under 1; tree\"",
                "poddoc open Specs.poddoc --read-only   # a shell that changes nothing",
            ]))

    @OptionGroup var location: DocumentArgument

    @Option(help: "Seconds between autosaves while there are unsaved changes (0: no autosave).")
    var autosaveInterval: Double = 3

    @Option(
        name: .customShort("c"),
        help: ArgumentHelp("Run these commands (separated by ;) instead of reading standard input.", valueName: "commands"))
    var commands: String?

    @Flag(
        name: .customLong("read-only"),
        help:
            "Open for reading only: nothing is locked or written, and a document on a read-only disk opens; `save --as` writes an editable copy."
    )
    var readOnly = false

    @OptionGroup var outputOptions: OutputOptions
    var json: Bool { outputOptions.json }
    var cancelsOnInterrupt: Bool { false }

    func validate() throws {
        guard autosaveInterval >= 0 else { throw ValidationError("The autosave interval is a number of seconds, 0 or more.") }
    }

    func execute() async throws {
        let interval: Duration? = autosaveInterval > 0 ? .milliseconds(Int64(autosaveInterval * 1000)) : nil
        let document = try await DocumentAccess.open(
            location, mode: readOnly ? .readAlongsideEditors : .edit(autosave: interval), command: "poddoc open")
        let shell = Shell(document: document, output: outputOptions.output, interactive: commands == nil && Terminal.inputIsTerminal)
        let status = await shell.run(script: commands)
        if status != .success {
            throw ShellExit(status: status)
        }
    }
}

/// Ends a command with a status already explained to the user: `poddoc open` with the status of
/// the shell's first failure (already reported), a shell or server stopped by a signal, a
/// `diff --exit-code` that found differences.
struct ShellExit: Error {
    let status: ExitStatus
}
