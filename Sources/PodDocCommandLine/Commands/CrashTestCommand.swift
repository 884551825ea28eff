import ArgumentParser
import Foundation
import PodDocContent
import PodDocDocument
import PodDocReliability

extension CrashTest.Format: ExpressibleByArgument {}

/// `poddoc crash-test`: poddoc proving its own crash recovery (docs/RELIABILITY.md).
struct CrashTestCommand: PodDocCommand {
    static let configuration = CommandConfiguration(
        commandName: "crash-test",
        abstract: "Kill a child poddoc with SIGKILL while it edits and autosaves, again and again, and check every reopen.",
        discussion: Examples.discussion(
            """
            Each cycle starts a child poddoc that edits a document with autosave on (random \
            edits; imports of the bundled sample specs for pods) and reports every save it \
            completes with its logical hash. The child is killed at a random moment, some \
            aimed inside the save protocol. The document is then reopened and checked: \
            integrity_check passes, metadata, store and additional content agree, and the \
            content equals a state the child reported as saved, at least the last one; for \
            archive documents the working copy is recovered. The table counts cycles, kills \
            inside a save, recoveries, corrupt documents, saved work lost and the largest \
            window of edits lost. Exit status 76 on any failure.
            """,
            [
                "poddoc crash-test --cycles 20 --seed 7",
                "poddoc crash-test --kind pods --format archive --cycles 10 --json",
                "poddoc crash-test --from Chores.poddoc --cycles 20   # any kind: edits made from its model",
            ]))

    @Option(help: "How many kills.")
    var cycles = 200

    @Option(
        help: ArgumentHelp(
            "What the children do: edit an outline or import pods with autosave on; edit a copy of --from, of any kind (its kind's identifier), with edits made from its model; or (migration) upgrade an outline document of model 1 with `poddoc outline add`, killed at random moments: the document must come back old or upgraded, never a mix.",
            valueName: "outline|pods|migration|KIND"))
    var kind: String?

    @Option(
        help: ArgumentHelp(
            "A document whose copy the children edit (read, never written): any kind, an app's own included; its kind is the test's.",
            valueName: "document"),
        completion: .file())
    var from: String?

    @Option(help: "A package, or an archive (autosaved in its working copy).")
    var format: CrashTest.Format = .package

    @Option(help: "The seed of every random choice; the same seed repeats the same test.")
    var seed: UInt64 = 1

    @Option(help: "The child's autosave interval, in milliseconds.")
    var autosaveInterval = 25

    @Option(
        help:
            "A page file of specs for the pods child to import from (such as SampleDocuments/specs-2014-sample.json); by default 300 made-up specs.",
        completion: .file())
    var specs: String?

    @Option(
        help:
            "Keep the documents in this folder, new or empty (or one an earlier crash test made); by default a temporary folder, removed at the end.",
        completion: .directory)
    var workFolder: String?

    @Flag(help: "Use a --work-folder that holds other things: the test replaces its Crash.poddoc, state and batches there.")
    var force = false

    @OptionGroup var outputOptions: OutputOptions
    var json: Bool { outputOptions.json }

    func validate() throws {
        guard cycles > 0 else { throw ValidationError("--cycles must be at least 1.") }
        guard autosaveInterval > 0 else { throw ValidationError("--autosave-interval must be at least 1 ms.") }
        if force, workFolder == nil { throw ValidationError("--force goes with --work-folder (the folder it lets the test use).") }
        if kind == "migration", specs != nil { throw ValidationError("--specs goes with --kind pods, not migration.") }
        if kind == "migration", from != nil { throw ValidationError("--from goes with a kind of document, not migration.") }
        if let kind, kind != "migration" {
            guard let parsed = DocumentKind(rawValue: kind) else {
                throw ValidationError("--kind takes pods, outline, migration or a kind's identifier, not '\(kind)'.")
            }
            if DocumentType.builtIn(parsed) == nil, from == nil {
                throw ValidationError("A crash test of the kind '\(kind)' edits a copy of a document of it: give one with --from DOC.")
            }
        }
    }

    /// `--kind migration`: ``MigrationCrashTest``.
    @MainActor private func runMigration() async throws {
        var options = MigrationCrashTest.Options(format: format)
        options.cycles = cycles
        options.seed = seed
        options.workFolder = workFolder.map { URL(fileURLWithPath: $0, isDirectory: true) }
        Interrupts.shared.stopOnTermination()
        Interrupts.shared.allowsForcedExit = false
        let output = outputOptions.output
        let cycles = self.cycles
        let report: CrashTestReport
        do {
            report = try await MigrationCrashTest.run(options, poddoc: Self.executable) { report in
                if report.cycles % 25 == 0 {
                    output.message("crash-test: \(report.cycles)/\(cycles) upgrades killed, \(report.recovered) recovered")
                }
            }
        } catch let error as CrashTestError {
            throw CommandFailure(error.code == .childFailed ? .failure : .usage, code: "crashTestSetup", error.message)
        }
        output.emit(report, text: report.table)
        guard report.passed else {
            throw CommandFailure(.integrity, code: "crashTestFailed", "The crash test failed: \(report.failures.first ?? "no cycle ran").")
        }
    }

    func execute() async throws {
        if kind == "migration" { return try await runMigration() }
        var testKind = kind.flatMap(DocumentKind.init(rawValue:)) ?? .outline
        var template: URL?
        if let from {
            let url = URL(fileURLWithPath: from)
            let source = try await DocumentAccess.open(try DocumentArgument.parse([from]), mode: .read, command: "poddoc crash-test")
            let found = source.metadata.kind
            try await source.close()
            if let kind, found.rawValue != kind {
                throw CommandFailure(
                    .badInput, code: "wrongKind", "\(from) is a document of kind '\(found)', not '\(kind)'; leave out --kind.")
            }
            testKind = found
            template = url
        }
        var options = CrashTest.Options(kind: testKind, format: format)
        options.template = template
        options.cycles = cycles
        options.seed = seed
        options.autosaveInterval = .milliseconds(autosaveInterval)
        options.specsSample = specs.map { URL(fileURLWithPath: $0) }
        options.workFolder = workFolder.map { URL(fileURLWithPath: $0, isDirectory: true) }
        options.replacesWorkFolder = force
        // Ctrl-C, SIGTERM and SIGHUP stop the test between two steps: the running child is
        // killed and reaped and the temporary folder removed, so no second Ctrl-C is needed.
        Interrupts.shared.stopOnTermination()
        Interrupts.shared.allowsForcedExit = false
        let output = outputOptions.output
        var cyclesRun = 0
        let report: CrashTestReport
        do {
            report = try await CrashTest.run(options, childExecutable: Self.executable, childArguments: [CrashChildCommand.name]) {
                report in
                cyclesRun = report.cycles
                if report.cycles % 25 == 0 {
                    output.message("crash-test: \(report.cycles)/\(cycles) cycles, \(report.recovered) recovered")
                }
            }
        } catch let error as CrashTestError {
            throw CommandFailure(error.code == .childFailed ? .failure : .usage, code: "crashTestSetup", error.message)
        } catch is CancellationError {
            let number = Interrupts.shared.stoppedBy ?? SIGINT
            let stopped = number == SIGINT ? "Interrupted" : "Stopped by \(Interrupts.name(of: number))"
            let kept = workFolder.map { "its documents are in \($0)" } ?? "its temporary folder was removed"
            throw CommandFailure(
                Interrupts.status(for: number), code: number == SIGINT ? "interrupted" : "terminated",
                "\(stopped) after \(cyclesRun) of \(cycles) crash-test cycles; the child was stopped and \(kept).")
        }
        output.emit(report, text: report.table)
        guard report.passed else {
            let kept =
                workFolder.map { "The documents are kept for inspection in \($0)." }
                ?? "Run it again with --work-folder DIR to keep the documents for inspection (the same --seed repeats the test)."
            throw CommandFailure(
                .integrity, code: "crashTestFailed", "The crash test failed: \(report.failures.first ?? "no cycle ran"). \(kept)")
        }
    }

    /// This very executable, which the test starts as its child.
    static var executable: URL {
        URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    }
}

/// The child side of `crash-test` (hidden): edits and autosaves until it is killed.
struct CrashChildCommand: PodDocCommand {
    static let name = "crash-child"
    static let configuration = CommandConfiguration(commandName: name, abstract: "The child process of crash-test.", shouldDisplay: false)

    @Argument(parsing: .captureForPassthrough, help: "The child's configuration, from crash-test.")
    var arguments: [String] = []

    var cancelsOnInterrupt: Bool { false }

    func execute() async throws {
        let status = await CrashChild.main(arguments: arguments)
        Foundation.exit(status)
    }
}
