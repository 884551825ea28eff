import Foundation
import PodDocContent
import PodDocDocument

/// What one cycle's reopen showed.
struct CycleOutcome: Sendable {
    var savesReported = 0
    var diedAtCrashPoint = false
    /// The store holds a save newer than any the child reported: killed between commit and report.
    var unreportedCommit = false
    /// Temporary files of a save were on disk after the kill: it was killed inside a save.
    var saveInterrupted = false
    var recoveredWorkingCopy = false
    var lostEdits = 0
    var childFailure: String?
    var corrupt: String?
    var lost: String?
}

/// Reopens the document after a kill and checks it.
@MainActor
enum CycleCheck {
    /// Checks, in order: the reopen succeeds (recovering an archive's working copy), the store
    /// passes `integrity_check` and agrees with the metadata and additional content, the
    /// content is at least the last save the child reported, and equals what the child
    /// reported for that save.
    static func check(_ run: ChildRun, setup: CrashTestSetup) async -> CycleOutcome {
        var outcome = CycleOutcome(
            savesReported: run.lines.count { if case .saved = $0 { true } else { false } },
            diedAtCrashPoint: run.diedAtCrashPoint, childFailure: run.failure)
        let reported = run.reportedSaves
        guard let lastReported = reported.keys.max() else {
            outcome.childFailure = outcome.childFailure ?? "the child reported no state"
            return outcome
        }
        let package = setup.recoverablePackage()
        outcome.saveInterrupted = package.map(hasSaveLeftovers) ?? false
        outcome.recoveredWorkingCopy = setup.options.format == .archive && package != nil
        do {
            let document = try await ManagedDocument.open(setup.document, options: setup.reopenOptions)
            let verification = try await document.verify()
            let sequence = document.metadata.saveSequence
            let edits = EditCounter.read(document.additionalContent)
            try await document.close()
            guard verification.isSound else {
                outcome.corrupt = verification.problems.joined(separator: " ")
                return outcome
            }
            if sequence < lastReported {
                outcome.lost = "reopened at save \(sequence), but the child reported save \(lastReported) complete"
            } else if let hash = reported[sequence], hash != verification.storeHash {
                outcome.lost = "save \(sequence) holds \(verification.storeHash), but the child reported \(hash)"
            }
            outcome.unreportedCommit = sequence > lastReported
            outcome.lostEdits = max(0, run.editsAtDeath - edits)
        } catch {
            outcome.corrupt = "could not reopen: \(error)"
        }
        return outcome
    }

    /// Whether a save's temporary items are in the package (`.name.tmp-…`, `.name.old-…`,
    /// staged additional content).
    static func hasSaveLeftovers(_ package: URL) -> Bool {
        guard let walker = FileManager.default.enumerator(atPath: package.path) else { return false }
        for case let path as String in walker {
            let name = (path as NSString).lastPathComponent
            if name.contains(".tmp-") || name.contains(".old-") || name == ".AdditionalContent.next" { return true }
        }
        return false
    }
}
