import Foundation
public import PodDocDocument
import PodDocFileSystem
import PodDocRandom

// MARK: - CrashTest

/// The parent side of a crash test: starts a child that edits a document with autosave on,
/// kills it with `SIGKILL` (after a random while, or at a crash point inside a save), reopens
/// the document and checks it, again and again.
///
/// ```swift
/// var options = CrashTest.Options(kind: .pods, format: .archive)
/// options.cycles = 200
/// let report = try await CrashTest.run(options, childExecutable: child) { print($0.cycles) }
/// print(report.table)
/// ```
public enum CrashTest {
    /// How a document is stored.
    public enum Format: String, Sendable, Hashable, Codable, CaseIterable {
        /// A `Name.poddoc` folder, autosaved in place.
        case package
        /// A `Name.poddoc.tar.zst` file, autosaved into its per-user working copy.
        case archive
    }

    /// What to run.
    public struct Options: Sendable, Hashable {
        /// How many children to start and kill.
        public var cycles = 200
        /// The kind of document the children edit.
        public var kind: DocumentKind
        /// Package or archive.
        public var format: Format
        /// Seeds every random choice; the same seed replays the same choices.
        public var seed: UInt64 = 1
        /// The children's autosave interval.
        public var autosaveInterval: Duration = .milliseconds(25)
        /// How long a child edits after opening before it is killed (drawn at random).
        public var lifetime: ClosedRange<Duration> = .milliseconds(30) ... .milliseconds(250)
        /// The share of cycles whose child gets a crash point inside a save (the others are
        /// killed after their lifetime only).
        public var crashPointShare = 0.5
        /// A page file of specs the pods children import from, in batches; nil for a page of
        /// 300 made-up specs (``GeneratedSpecs``), so the test needs no file.
        public var specsSample: URL?
        /// Where the document and the working copies go, kept after the run for inspection:
        /// a new or empty folder, or one an earlier crash test made (unless
        /// ``replacesWorkFolder``). When nil, a fresh temporary folder, removed after the run
        /// whatever its outcome.
        public var workFolder: URL?
        /// A document whose copy the children edit, of any kind (``kind`` must be its kind):
        /// for a kind poddoc does not bring, the edits are made from the model its store
        /// records (inserts, updates, deletes, moves in its ordered trees, undo). Nil: a new
        /// document of ``kind`` (pods or outline).
        public var template: URL?
        /// Whether a ``workFolder`` holding other things may be used: the test then replaces
        /// its `Crash.poddoc`, `state` and `batches` there and leaves the rest.
        public var replacesWorkFolder = false

        /// Options for a kind and format, with the defaults above.
        public init(kind: DocumentKind, format: Format) {
            self.kind = kind
            self.format = format
        }
    }

    /// Runs the test.
    ///
    /// - Parameters:
    ///   - options: What to run.
    ///   - childExecutable: An executable that runs ``CrashChild/main(arguments:)`` with the
    ///     arguments it is given (first the arguments in `childArguments`).
    ///   - childArguments: Arguments that come before the child's own (e.g. a hidden
    ///     subcommand's name).
    ///   - progress: Called on the main actor after every cycle with the report so far.
    /// - Returns: The report; ``CrashTestReport/passed`` says whether every cycle recovered.
    /// - Throws: ``CrashTestError`` when the test cannot start (work folder, sample specs);
    ///   `CancellationError` when the task is cancelled: the running child is killed and
    ///   reaped first, and the temporary folder removed. A test stops at its first damaged
    ///   document, which the report lists.
    @MainActor
    public static func run(
        _ options: Options, childExecutable: URL, childArguments: [String] = [],
        progress: ((CrashTestReport) -> Void)? = nil
    ) async throws -> CrashTestReport {
        let started = ContinuousClock.now
        let setup = try CrashTestSetup(options)
        // The temporary folder goes whatever the outcome; a named work folder stays.
        defer { setup.removeIfTemporary() }
        var report = CrashTestReport(
            kind: options.kind.rawValue, format: options.format.rawValue, seed: options.seed,
            autosaveMilliseconds: setup.autosaveMilliseconds)
        if let template = options.template { try await setup.copy(template) }
        var random = SeededRandom(seed: options.seed)
        for cycle in 0..<options.cycles {
            try Task.checkCancellation()
            let crashPoint =
                Double.random(in: 0..<1, using: &random) < options.crashPointShare
                ? CrashPointChoice.random(&random, format: options.format) : nil
            let child = setup.childConfiguration(seed: random.next(), crashPoint: crashPoint)
            let lifetime = randomLifetime(options.lifetime, &random)
            let stop = ChildStop()
            let run = await withTaskCancellationHandler {
                await onThread {
                    ChildRun.run(
                        executable: childExecutable, arguments: childArguments + child.arguments,
                        environment: setup.childEnvironment, hasCrashPoint: crashPoint != nil, lifetime: lifetime, stop: stop)
                }
            } onCancel: {
                stop.stop()
            }
            try Task.checkCancellation()
            let outcome = await CycleCheck.check(run, setup: setup)
            report.record(outcome, cycle: cycle, crashPoint: crashPoint)
            progress?(report)
            if outcome.corrupt != nil || run.failure != nil { break }
        }
        report.seconds = (ContinuousClock.now - started) / .seconds(1)
        return report
    }

    private static func randomLifetime(_ range: ClosedRange<Duration>, _ random: inout SeededRandom) -> Duration {
        let low = range.lowerBound / .milliseconds(1)
        let high = range.upperBound / .milliseconds(1)
        return .milliseconds(Double.random(in: low...high, using: &random))
    }

    /// Runs blocking work on a thread of its own, off the main actor and the shared pool.
    static func onThread<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread { continuation.resume(returning: work()) }
        }
    }
}

// MARK: - Where the crash points go

/// The save steps a child may die at: every system call a save makes once the document is
/// open, on every file it writes (metadata, staged additional content, working-copy origin,
/// the archive).
enum CrashPointChoice {
    static let calls: [SystemCall] = [.write, .fsync, .rename, .renameExchange, .directoryFsync, .unlink, .mkdir]
    static let pathParts: [String?] = [nil, nil, "DocumentMetadata.json", "AdditionalContent"]

    /// A crash point on a file the format's saves write (archives also write `origin.json`),
    /// early enough that it is reached within a child's lifetime.
    static func random(_ random: inout SeededRandom, format: CrashTest.Format) -> CrashPoint {
        let parts = format == .archive ? pathParts + ["origin.json"] : pathParts
        return CrashPoint(
            systemCall: calls[random.below(calls.count)], skip: random.below(3),
            pathPart: parts[random.below(parts.count)])
    }
}

// MARK: - Recording outcomes

extension CrashTestReport {
    mutating func record(_ outcome: CycleOutcome, cycle: Int, crashPoint: CrashPoint?) {
        cycles += 1
        savesReported += outcome.savesReported
        if outcome.diedAtCrashPoint { crashPointKills += 1 }
        if outcome.unreportedCommit { unreportedCommits += 1 }
        if outcome.diedAtCrashPoint || outcome.unreportedCommit || outcome.saveInterrupted { killsInsideSave += 1 }
        if outcome.recoveredWorkingCopy { recoveredWorkingCopies += 1 }
        largestLostEditWindow = max(largestLostEditWindow, outcome.lostEdits)
        let point = crashPoint.map { " (crash point \($0.argument))" } ?? ""
        if let failure = outcome.childFailure { failures.append("cycle \(cycle)\(point): \(failure)") }
        if let corrupt = outcome.corrupt {
            self.corrupt += 1
            failures.append("cycle \(cycle)\(point): corrupt: \(corrupt)")
        }
        if let lost = outcome.lost {
            savedWorkLost += 1
            failures.append("cycle \(cycle)\(point): saved work lost: \(lost)")
        }
        if outcome.childFailure == nil && outcome.corrupt == nil && outcome.lost == nil { recovered += 1 }
    }
}
