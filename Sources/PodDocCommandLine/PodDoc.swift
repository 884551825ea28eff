import ArgumentParser
import Foundation
import PodDocDocument

/// The `poddoc` command.
public struct PodDoc: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "poddoc",
        abstract: "Create, edit, share and repair poddoc documents: CocoaPods specs and outlines, autosaved and crash-safe.",
        discussion: """
            A document is a Name.poddoc package folder or one archive file of it (.tar.zst, .zip, .tar.gz). \
            Commands that print data take --json (shapes in docs/CLI.md); errors are one line on \
            standard error.

            Examples:
              poddoc new Todo.poddoc --kind outline
              poddoc outline add Todo.poddoc "Call the plumber"
              poddoc help outline add

            EXIT STATUS
            \(ExitStatus.table)
            """,
        version: PodDocVersion.writer,
        subcommands: commands)

    /// Every command, in the order help lists them. A new command is one file and one entry here.
    static let commands: [any ParsableCommand.Type] = [
        NewCommand.self, OpenCommand.self, InfoCommand.self, VersionsCommand.self, DiffCommand.self, OneShot<ImportContent>.self,
        OneShot<ExportContent>.self,
        OneShot<SaveDocument>.self, OneShot<RevertDocument>.self, OneShot<MergeDocument>.self, CheckCommand.self, RecoverCommand.self,
        ServeCommand.self, OutlineCommand.self, PodsCommand.self, ObjectsCommand.self,
        GitSetupCommand.self, MergeDriverCommand.self, TextConvCommand.self,
        CrashTestCommand.self, CrashChildCommand.self,
    ]

    public init() {}

    /// Help and version requests print as ArgumentParser prints them; a command line that
    /// cannot be used is refused in one line on standard error, with status 64.
    private static func exitRefusingArguments(_ error: any Error) -> Never {
        guard exitCode(for: error) != .success else { exit(withError: error) }
        let message = self.message(for: error).split(whereSeparator: \.isNewline)
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }.joined(separator: " ")
        let sentence = message.hasSuffix(".") ? String(message.dropLast()) : message
        Output(json: CommandLine.arguments.contains("--json")).failure(
            CommandFailure(.usage, code: "usage", "\(sentence) (see `poddoc help`)."))
        Foundation.exit(ExitStatus.usage.rawValue)
    }

    /// What ArgumentParser would say less clearly about `arguments` (the words after
    /// `poddoc`): an unknown command ("Unexpected argument"), `help` of an unknown command
    /// (the whole help, status 0), a negative number after an option ("Missing value").
    static func refusal(of arguments: [String]) -> String? {
        let words = arguments.prefix { $0 != "--" }
        // The command named, word by word down the tree (`outline add`), until a command
        // without subcommands: a word there that names none is an unknown command.
        var named = words.first == "help" ? Array(words.dropFirst()) : Array(words)
        var path: [String] = []
        var level: [any ParsableCommand.Type] = commands
        while let word = named.first, !word.hasPrefix("-"), word != "help", !level.isEmpty {
            guard let command = level.first(where: { $0.configuration.commandName == word }) else {
                let group = path.isEmpty ? "" : " " + path.joined(separator: " ")
                return "Unknown command '\((path + [word]).joined(separator: " "))'; `poddoc help\(group)` lists the commands"
            }
            path.append(word)
            level = command.configuration.subcommands
            named.removeFirst()
        }
        for (option, value) in zip(words, words.dropFirst())
        where option.hasPrefix("--") && value.hasPrefix("-") && Int(value) != nil {
            return "\(option) takes a number of 0 or more, not \(value)"
        }
        return nil
    }

    /// Parses the command line, runs the command on the main actor, reports a failure as one
    /// line, and exits with the documented status.
    @MainActor
    public static func runMain() async -> Never {
        if let refusal = refusal(of: Array(CommandLine.arguments.dropFirst())) {
            Output(json: CommandLine.arguments.contains("--json")).failure(CommandFailure(.usage, code: "usage", refusal + "."))
            Foundation.exit(ExitStatus.usage.rawValue)
        }
        let command: any ParsableCommand
        do {
            command = try parseAsRoot()
        } catch {
            exitRefusingArguments(error)
        }
        guard let runnable = command as? any PodDocCommand else {
            var command = command
            do {
                try command.run()
            } catch {
                exit(withError: error)
            }
            Foundation.exit(0)
        }
        do {
            if runnable.cancelsOnInterrupt {
                try await Interrupts.shared.run { try await runnable.execute() }
            } else {
                try await runnable.execute()
            }
            Foundation.exit(ExitStatus.success.rawValue)
        } catch let shell as ShellExit {
            Foundation.exit(shell.status.rawValue)
        } catch {
            let failure = CommandFailure.from(error) ?? CommandFailure(.failure, code: "unexpected", "\(error)")
            Output(json: runnable.json).failure(failure)
            Foundation.exit(failure.status.rawValue)
        }
    }
}
