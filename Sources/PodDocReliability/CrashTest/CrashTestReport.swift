import Foundation

// MARK: - CrashTestReport

/// What a crash test found: how often the child was killed and where, and what every reopen
/// showed. Print ``table`` for people; encode it (it is `Codable`) for machines.
public struct CrashTestReport: Sendable, Codable, Hashable {
    /// `pods` or `outline` (``CrashTest``), or `migration` (``MigrationCrashTest``).
    public var kind: String
    /// `package` or `archive`.
    public var format: String
    /// The seed that replays the run.
    public var seed: UInt64
    /// The child's autosave interval, in milliseconds.
    public var autosaveMilliseconds: Int
    /// Children started, killed and recovered from.
    public var cycles = 0
    /// Kills that landed inside a save: at a crash point, or (for timed kills) shown by a save
    /// that committed without being reported or by a save's temporary files left behind.
    public var killsInsideSave = 0
    /// Children that killed themselves at a crash point inside a save.
    public var crashPointKills = 0
    /// Saves the store committed but the child was killed before reporting.
    public var unreportedCommits = 0
    /// Saves the children reported complete.
    public var savesReported = 0
    /// Reopens that passed every check.
    public var recovered = 0
    /// Reopens of an archive document that took up its working copy's autosaved work.
    public var recoveredWorkingCopies = 0
    /// Reopens that failed, or found the store damaged or its parts disagreeing.
    public var corrupt = 0
    /// Reopens that came back older than the last save the child reported, or with content
    /// other than what it reported for that save.
    public var savedWorkLost = 0
    /// The most edits one kill lost: made after the last completed save, as expected.
    public var largestLostEditWindow = 0
    /// Wall-clock seconds the run took.
    public var seconds = 0.0
    /// What went wrong, one sentence per failed cycle.
    public var failures: [String] = []

    /// Whether every cycle recovered a sound document holding at least its last reported save.
    public var passed: Bool { failures.isEmpty && cycles > 0 }

    /// A table for people, one figure a line.
    public var table: String {
        let rows: [(String, String)] = kind == "migration" ? migrationRows : editingRows
        let width = rows.map(\.0.count).max() ?? 0
        var text = rows.map { $0.0.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + $0.1 }.joined(separator: "\n")
        for failure in failures.prefix(20) { text += "\n  ! " + failure }
        return text + "\n"
    }

    /// The rows of a run of ``MigrationCrashTest``.
    private var migrationRows: [(String, String)] {
        [
            ("document", "outline \(format) of model 1, upgraded by `poddoc outline add`, seed \(seed)"),
            ("cycles", "\(cycles)"),
            ("commands that finished", "\(savesReported)"),
            ("killed after the upgrade", "\(killsInsideSave) (upgraded, the item not added)"),
            ("recovered", "\(recovered)"),
            ("corrupt", "\(corrupt)"),
            ("mixed or lost", "\(savedWorkLost)"),
            ("time", String(format: "%.1f s (%.2f s per cycle)", seconds, cycles > 0 ? seconds / Double(cycles) : 0)),
            ("result", passed ? "PASS" : "FAIL"),
        ]
    }

    /// The rows of a run of ``CrashTest``.
    private var editingRows: [(String, String)] {
        [
            ("document", "\(kind) \(format), autosave every \(autosaveMilliseconds) ms, seed \(seed)"),
            ("cycles", "\(cycles)"),
            (
                "kills inside a save",
                "\(killsInsideSave) (\(crashPointKills) at a crash point, \(unreportedCommits) after an unreported commit)"
            ),
            ("saves reported", "\(savesReported)"),
            ("recovered", "\(recovered)" + (format == "archive" ? " (\(recoveredWorkingCopies) from the working copy)" : "")),
            ("corrupt", "\(corrupt)"),
            ("saved work lost", "\(savedWorkLost)"),
            ("largest window of lost edits", "\(largestLostEditWindow) edits"),
            ("time", String(format: "%.1f s (%.2f s per cycle)", seconds, cycles > 0 ? seconds / Double(cycles) : 0)),
            ("result", passed ? "PASS" : "FAIL"),
        ]
    }

    /// The report as pretty-printed JSON.
    public var json: Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        // A struct of numbers and strings always encodes.
        return (try? encoder.encode(self)) ?? Data()
    }
}
