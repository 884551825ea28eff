import Foundation
import Outliner
import PodDocContent
public import PodDocDocument
import PodDocRandom
import PodDocStore

// MARK: - MigrationCrashTest

/// Kills upgrades: each cycle copies an outline document written with version 1 of the outline
/// model, starts `poddoc outline add` on the copy (its open upgrades the document, then it adds
/// an item and saves), kills it with `SIGKILL` after a random while, and checks the copy: it
/// opens, passes every check, and is the old document (model 1, the items it had), the
/// upgraded one (model 2, the same items), or the upgraded one with the item; never a mix.
///
/// ```swift
/// var options = MigrationCrashTest.Options(format: .archive)
/// options.cycles = 40
/// let report = try await MigrationCrashTest.run(options, poddoc: executable)
/// ```
public enum MigrationCrashTest {
    /// What to run.
    public struct Options: Sendable, Hashable {
        /// How many upgrades to start and kill.
        public var cycles = 40
        /// Package or archive.
        public var format: CrashTest.Format
        /// Seeds every random choice; the same seed replays the same choices.
        public var seed: UInt64 = 1
        /// How many items the version-1 document holds.
        public var items = 2_000
        /// Where the documents go, kept after the run; nil for a temporary folder, removed.
        public var workFolder: URL?

        /// Options for a format, with the defaults above.
        public init(format: CrashTest.Format) {
            self.format = format
        }
    }

    /// Runs the test.
    ///
    /// - Parameters:
    ///   - options: What to run.
    ///   - poddoc: The `poddoc` executable the children run.
    ///   - progress: Called after every cycle with the report so far.
    /// - Returns: The report (kind `migration`): ``CrashTestReport/killsInsideSave`` counts the
    ///   kills that left the document upgraded without the item (inside the command, after its
    ///   upgrade committed), ``CrashTestReport/savesReported`` the commands that finished.
    /// - Throws: ``CrashTestError`` when the test cannot start; `CancellationError` when the
    ///   task is cancelled (the running child is killed and reaped first).
    @MainActor
    public static func run(
        _ options: Options, poddoc: URL, progress: ((CrashTestReport) -> Void)? = nil
    ) async throws -> CrashTestReport {
        let started = ContinuousClock.now
        let temporary = options.workFolder == nil
        let folder =
            options.workFolder ?? FileManager.default.temporaryDirectory.appending(path: "poddoc-migration-crash-\(UUID().uuidString)")
        defer { if temporary { try? FileManager.default.removeItem(at: folder) } }
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw CrashTestError(.setup, "Could not make the work folder \(folder.path): \(error.localizedDescription)")
        }
        let name = "Original.poddoc" + (options.format == .archive ? ".tar.zst" : "")
        let original = folder.appending(path: name)
        try? FileManager.default.removeItem(at: original)
        try await makeVersionOneOutline(at: original, items: options.items)
        let environment = ProcessInfo.processInfo.environment.merging(
            ["XDG_STATE_HOME": folder.appending(path: "state").path, "NO_COLOR": "1"], uniquingKeysWith: { _, new in new })

        var report = CrashTestReport(kind: "migration", format: options.format.rawValue, seed: options.seed, autosaveMilliseconds: 0)
        // How long the command takes, run to the end once: kills are drawn up to a bit past it.
        let timing = folder.appending(path: "Timing-" + name)
        try copy(original, to: timing)
        let timed = ContinuousClock.now
        guard await run(poddoc, ["outline", "add", timing.path, "added by the child"], environment: environment, killAfter: nil) == 0 else {
            throw CrashTestError(.childFailed, "poddoc outline add failed on a version-1 document in \(folder.path)")
        }
        let duration = (ContinuousClock.now - timed) / .seconds(1)
        var random = SeededRandom(seed: options.seed)
        for cycle in 0..<options.cycles {
            try Task.checkCancellation()
            let doc = folder.appending(path: "Cycle-" + name)
            try? FileManager.default.removeItem(at: doc)
            try? FileManager.default.removeItem(at: folder.appending(path: "state"))
            try copy(original, to: doc)
            let delay = Double(random.below(1_000)) / 1_000 * duration * 1.3
            let status = await run(poddoc, ["outline", "add", doc.path, "added by the child"], environment: environment, killAfter: delay)
            report.cycles += 1
            if status == 0 { report.savesReported += 1 }
            do {
                let found = try await inspect(doc, environment: environment)
                switch (found.version, found.items - options.items) {
                case (1, 0): break
                case (2, 0): report.killsInsideSave += 1
                case (2, 1): break
                case (let version, let added):
                    report.savedWorkLost += 1
                    report.failures.append("cycle \(cycle): a mix: model \(version) with \(added) items added")
                }
                if status == 0 && found.items == options.items {
                    report.savedWorkLost += 1
                    report.failures.append("cycle \(cycle): the command reported its item saved, and it is not there")
                }
                if found.problems.isEmpty { report.recovered += 1 }
                for problem in found.problems {
                    report.corrupt += 1
                    report.failures.append("cycle \(cycle): corrupt: \(problem)")
                }
            } catch {
                report.corrupt += 1
                report.failures.append("cycle \(cycle): the document does not open: \(error)")
            }
            progress?(report)
            if !report.failures.isEmpty { break }
        }
        report.seconds = (ContinuousClock.now - started) / .seconds(1)
        return report
    }

    /// An outline document written with version 1 of the outline model, as an earlier poddoc
    /// wrote them: `items` items under ten sections, in two saves.
    @MainActor
    private static func makeVersionOneOutline(at url: URL, items: Int) async throws {
        let version1 = try OutlineSchema.earlierVersions()[0]
        var options = ManagedDocument.OpenOptions()
        options.autosaveInterval = nil
        let document = try await ManagedDocument.create(at: url, kind: .outline, model: version1, options: options)
        let context = document.mainContext
        let now = Date()
        func item(_ title: String, under parent: ManagedObject?, at order: Int) -> ManagedObject {
            let object = context.insert(OutlineSchema.entityName)
            object[OutlineSchema.title] = title
            object[OutlineSchema.order] = order * 65_536
            object[OutlineSchema.created] = now
            object[OutlineSchema.modified] = now
            object[OutlineSchema.parent] = parent
            return object
        }
        let root = item("", under: nil, at: 0)
        let sections = (0..<10).map { item("Section \($0 + 1)", under: root, at: $0) }
        try await document.save()
        for index in 0..<(items - sections.count) {
            _ = item("Item \(index + 1)", under: sections[index % sections.count], at: index / sections.count)
        }
        try await document.save()
        try await document.close()
    }

    /// What a reopen finds: the model version on disk, the items, and the checks' problems.
    @MainActor
    private static func inspect(_ url: URL, environment: [String: String]) async throws -> (version: Int, items: Int, problems: [String]) {
        var options = ManagedDocument.OpenOptions()
        options.readOnly = true
        options.autosaveInterval = nil
        options.environment = environment
        let document = try await ManagedDocument.open(url, options: options)
        let version = document.rootContext.store.modelVersionOnDisk
        let items = try await document.contentCounts()["items"] ?? 0
        let report = try await document.verify()
        try await document.close()
        return (version, items, report.problems)
    }

    private static func copy(_ source: URL, to target: URL) throws {
        do {
            try FileManager.default.copyItem(at: source, to: target)
        } catch {
            throw CrashTestError(.setup, "Could not copy \(source.path) to \(target.path): \(error.localizedDescription)")
        }
    }

    /// Runs `poddoc` with `arguments` on a thread of its own; with `killAfter`, kills it with
    /// `SIGKILL` after that many seconds unless it ended. Returns its exit status (nil when
    /// killed or not started).
    private static func run(_ poddoc: URL, _ arguments: [String], environment: [String: String], killAfter: Double?) async -> Int32? {
        await CrashTest.onThread {
            let process = Process()
            process.executableURL = poddoc
            process.arguments = arguments
            process.environment = environment
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            do {
                try process.run()
            } catch {
                return nil
            }
            if let killAfter {
                usleep(useconds_t(killAfter * 1_000_000))
                if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            }
            process.waitUntilExit()
            return process.terminationReason == .exit ? process.terminationStatus : nil
        }
    }
}
