import ArgumentParser
import Foundation
import PodDocContent
import PodDocDocument

/// `poddoc check DOC`: exit status 76 on any problem.
struct CheckCommand: PodDocCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract:
            "Check a document: archive entries and manifest, SQLite integrity, the store's hash and the additional content against the metadata.",
        discussion: Examples.discussion(
            "Exits with status 76 when anything is wrong, naming each problem.",
            [
                "poddoc check Notes.poddoc",
                "poddoc check Specs.poddoc --json",
            ]))

    @OptionGroup var location: DocumentArgument

    @OptionGroup var reading: ReadingOptions
    @OptionGroup var outputOptions: OutputOptions
    var json: Bool { outputOptions.json }

    /// What `check` prints with `--json`.
    struct Shape: Encodable {
        let path: String
        let ok: Bool
        let problems: [String]
        let storeHash: String?
    }

    /// Opening failures that mean the document is damaged (rather than absent or locked).
    private static let damage: [DocumentError.Code] = [.archive, .corrupt, .store, .invalidMetadata, .missingStore]

    func execute() async throws {
        let output = outputOptions.output
        let report: DocumentVerification
        do {
            report = try await DocumentAccess.with(location, mode: .read, command: "poddoc check") { document in
                try await Progress.watching("check") { try await document.verify() }
            }
        } catch let error as DocumentError where Self.damage.contains(error.code) {
            output.emit(
                Shape(path: location.document, ok: false, problems: [error.message], storeHash: nil), text: "\(location.document): damaged")
            throw CommandFailure(.integrity, code: error.code.description, error.message)
        }
        let waiting = try await checkWaitingWork()
        let problems = report.problems + (waiting?.problems ?? [])
        let shape = Shape(path: location.document, ok: problems.isEmpty, problems: problems, storeHash: report.storeHash)
        var text =
            problems.isEmpty
            ? "\(location.document): ok (\(report.storeHash))"
            : ([location.document + ": damaged"] + problems.map { "  " + $0 }).joined(separator: "\n")
        if let waiting, waiting.problems.isEmpty { text += "\n  the work waiting for recovery in \(waiting.workingCopy): ok" }
        output.emit(shape, text: text)
        if !problems.isEmpty {
            throw CommandFailure(
                .integrity, code: "integrity",
                "\(location.document) failed its check (\(problems.count) problem\(problems.count == 1 ? "" : "s")); restore it from a copy, or `poddoc export` what can be read."
            )
        }
    }

    /// Checks the work waiting for recovery, if any (an archive's autosaves, a package's
    /// version kept apart after a conflict), read-only.
    @MainActor
    private func checkWaitingWork() async throws -> (workingCopy: String, problems: [String])? {
        guard let waiting = ManagedDocument.waitingWork(for: location.url) else { return nil }
        var options = ManagedDocument.OpenOptions()
        options.readOnly = true
        options.autosaveInterval = nil
        let folder = waiting.workingCopy.path
        do {
            let document = try await ManagedDocument.open(waiting.workingCopy, options: options)
            let report = try await document.verify()
            try await document.close()
            return (folder, report.problems.map { "the work waiting for recovery (\(folder)): \($0)" })
        } catch {
            return (folder, ["the work waiting for recovery (\(folder)) cannot be read: \(error)"])
        }
    }
}
