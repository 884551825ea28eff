import Foundation
import PodDocContent
import PodDocDocument
import PodDocFileSystem
import PodDocRandom

// MARK: - CrashChild

/// The child side of a crash test: opens (or creates) a document with autosave on, edits it
/// for ever at random, and reports every completed save, until the parent kills it or it
/// kills itself at its crash point.
///
/// A tool hosts it in a process of its own (`poddoc-crash-child`, or a hidden subcommand):
///
/// ```swift
/// exit(await CrashChild.main(arguments: Array(CommandLine.arguments.dropFirst())))
/// ```
public enum CrashChild {
    /// Runs the child with the arguments a ``ChildConfiguration`` made.
    ///
    /// - Returns: The exit status: never returns while all goes well; 1 after an error,
    ///   which it prints on standard error.
    @MainActor
    public static func main(arguments: [String]) async -> Int32 {
        let log = OperationLog()
        do {
            try await run(try ChildConfiguration(arguments: arguments), log: log)
        } catch {
            FileHandle.standardError.write(Data("crash-test child: \(error)\n\(log.report)\n".utf8))
        }
        return 1
    }

    /// A new document of a kind poddoc brings; a document of another kind is the copy of
    /// a template the parent made (``CrashTest/Options/template``), never made here.
    @MainActor
    private static func create(_ url: URL, kind: DocumentKind, options: ManagedDocument.OpenOptions) async throws -> ManagedDocument {
        guard DocumentType.builtIn(kind) != nil else {
            throw CrashTestError(.usage, "\(url.path) does not exist, and the crash test makes new documents of kinds poddoc brings only.")
        }
        return try await ManagedDocument.create(at: url, kind: kind, options: options)
    }

    @MainActor
    static func run(_ configuration: ChildConfiguration, log: OperationLog) async throws {
        var options = ManagedDocument.OpenOptions()
        options.hashesEveryAutosave = true  // each SAVED line carries the hash of that save
        options.autosaveInterval = .milliseconds(configuration.autosaveMilliseconds)
        options.recovery = .recover
        let crashPlan = configuration.crashPoint?.faultPlan()
        if let crashPlan { options.fileSystem = FileSystem(faults: crashPlan.plan) }
        let url = configuration.document
        let document =
            FileManager.default.fileExists(atPath: url.path)
            ? try await ManagedDocument.open(url, options: options)
            : try await Self.create(url, kind: configuration.kind, options: options)
        document.onAutosave = { event in
            switch event {
            case .saved(_, let sequence, let hash):
                log.record("autosaved: save \(sequence)")
                ChildLine.saved(sequence: sequence, storeHash: hash).print()
            case .failed(let error):
                log.record("autosave failed: \(error)")
                FileHandle.standardError.write(Data("crash-test child: autosave failed: \(error)\n".utf8))
            }
        }
        var edits = EditCounter.read(document.additionalContent)
        ChildLine.opened(sequence: document.metadata.saveSequence, storeHash: document.metadata.storeHash, edits: edits).print()
        crashPlan?.trigger.arm()

        var random = SeededRandom(seed: configuration.seed)
        log.record("opened at save \(document.metadata.saveSequence) with \(edits) edits")
        let workload: any ChildWorkload =
            switch configuration.kind {
            case .pods: try PodsWorkload(document: document, specBatches: configuration.specBatches, log: log)
            case .outline: try OutlineWorkload(document: document, log: log)
            default: try ModelWorkload(document: document, log: log)
            }
        while true {
            for _ in 0...random.below(6) {
                try await workload.edit(using: &random)
                edits += 1
            }
            document.additionalContent[EditCounter.path] = EditCounter.encode(edits)
            if random.oneIn(12) {
                let size = random.below(3_000)
                document.additionalContent["attachments/\(random.below(4)).txt"] = Data(
                    repeating: UInt8(ascii: "a") + UInt8(size % 26), count: size)
            }
            document.mainContext.processPendingChanges()
            ChildLine.edits(edits).print()
            if document.format.isArchive, random.oneIn(40) {
                log.record("save (re-packs the archive)")
                try await document.save()  // Re-packs the archive.
                reportSave(of: document)
            }
            try await Task.sleep(for: .milliseconds(random.below(4)))
        }
    }

    /// Reports the save the document last completed.
    @MainActor
    static func reportSave(of document: ManagedDocument) {
        ChildLine.saved(sequence: document.metadata.saveSequence, storeHash: document.metadata.storeHash).print()
    }
}

/// The random edits of one kind of document.
@MainActor
protocol ChildWorkload {
    /// Makes one random edit (an import counts as one), recorded in the operation log with
    /// the objects it touched.
    func edit(using random: inout SeededRandom) async throws
}
