import Foundation
import PodDocFileSystem
import PodDocStore
import XCTest

@testable import PodDocDocument

/// Makes each step of a document save fail in turn (write, fsync, rename, swap, folder fsync;
/// ENOSPC and EIO), on each file a save writes, and checks: the save reports the error and
/// leaves the document in the saving-error state with the edits in memory; no temporary file
/// is left; a fresh document opened from disk is sound and holds the previous version (or,
/// for a fault after the store's commit point, the new one); and once the fault is gone a
/// retry saves everything.
final class SaveFaultInjectionTests: DocumentTestCase {
    /// A file a save writes, and the faults that reach it.
    private struct Target {
        let name: String
        let format: String
        /// Whether the edit changes the additional content (so the save stages it).
        let changesAdditionalContent: Bool
        /// The paths a fault on this target matches, given the document's files.
        let paths: (_ archive: URL, _ package: URL) -> [FaultPlan.PathMatch]
    }

    private let targets: [Target] = [
        Target(name: "metadata", format: "poddoc", changesAdditionalContent: false) { _, package in
            [.containing("DocumentMetadata.json"), .exactly(package.path)]
        },
        Target(name: "additional content", format: "poddoc", changesAdditionalContent: true) { _, package in
            [.containing("AdditionalContent"), .exactly(package.path)]
        },
        Target(name: "archive", format: "poddoc.tar.zst", changesAdditionalContent: true) { archive, _ in
            let folder = archive.deletingLastPathComponent().path
            return [.containing(folder + "/." + archive.lastPathComponent), .exactly(archive.path), .exactly(folder)]
        },
        Target(name: "working copy", format: "poddoc.tar.zst", changesAdditionalContent: false) { _, package in
            [.containing("origin.json"), .exactly(package.deletingLastPathComponent().path)]
        },
    ]

    private let steps: [SystemCall] = [.write, .fsync, .rename, .renameExchange, .directoryFsync]

    func testEachSaveStepFailingKeepsThePreviousVersionAndARetrySucceeds() async throws {
        var injected: [SystemCall: Int] = [:]
        var reached: Set<String> = []
        var afterCommit = 0
        for target in targets {
            for step in steps {
                for errno in [ENOSPC, EIO] {
                    let faults = try await injectFault(step, errno: errno, into: target)
                    injected[step, default: 0] += faults.count
                    if faults.count > 0 { reached.insert(target.name) }
                    if faults.committed { afterCommit += 1 }
                }
            }
        }
        let table = steps.map { "\($0): \(injected[$0] ?? 0)" }.joined(separator: ", ")
        print("save faults injected per step: \(table); \(afterCommit) after the store's commit point")
        for step in steps { XCTAssertGreaterThan(injected[step] ?? 0, 0, "no save reached \(step)") }
        XCTAssertEqual(reached, Set(targets.map(\.name)), "every file a save writes got faults")
    }

    /// Creates a document, saves a first version, fails the next save at `step`, and checks.
    ///
    /// - Returns: How many faults fired, and whether the store had committed the failed save.
    private func injectFault(_ step: SystemCall, errno: Int32, into target: Target) async throws -> (count: Int, committed: Bool) {
        let label = "\(target.name), \(step), \(errno == EIO ? "EIO" : "ENOSPC")"
        let caseFolder = url(UUID().uuidString)
        try FileManager.default.createDirectory(at: caseFolder, withIntermediateDirectories: true)
        let documentURL = caseFolder.appending(path: "Doc.\(target.format)")
        let isArchive = target.format != "poddoc"
        let trigger = FaultTrigger(armed: false)
        var options = self.options
        options.environment["XDG_STATE_HOME"] = caseFolder.appending(path: "state").path
        // The paths depend on where the document lands; the plan is filled in once it exists.
        let probe = try await ManagedDocument.create(at: documentURL, kind: .notes, model: Note.model, options: options)
        let package = probe.packageURL
        try await probe.close()
        try? FileManager.default.removeItem(at: documentURL)
        try? FileManager.default.removeItem(at: caseFolder.appending(path: "state"))
        options.fileSystem = FileSystem(
            faults: FaultPlan(
                target.paths(documentURL, package).map {
                    FaultPlan.Fault(step, errno: errno, path: $0, trigger: trigger)
                }))

        let document = try await ManagedDocument.create(at: documentURL, kind: .notes, model: Note.model, options: options)
        addNote(document, "before")
        document.additionalContent = ["notes/a.txt": Data("first".utf8)]
        try await document.save()
        XCTAssertEqual(document.packageURL, package, label)

        addNote(document, "after")
        if target.changesAdditionalContent { document.additionalContent["notes/a.txt"] = Data("second".utf8) }
        trigger.arm()
        let save = { () async throws in
            if target.name == "working copy" { try await document.autosave() } else { try await document.save() }
        }
        var failed = false
        do {
            try await save()
        } catch let error as DocumentError {
            failed = true
            XCTAssertTrue([.fileSystem, .archive].contains(error.code), "\(label): \(error.code)")
            XCTAssertTrue(error.message.contains(errno == EIO ? "EIO" : "ENOSPC"), "\(label): \(error.message)")
            XCTAssertTrue(document.state.contains(.savingError), label)
        }
        trigger.disarm()
        let fired = trigger.fired
        guard fired > 0 else {
            // This step is not on this file's path: the save must simply have worked.
            XCTAssertFalse(document.state.contains(.savingError), label)
            try await document.close()
            return (0, false)
        }
        XCTAssertTrue(failed, "\(label): the fault fired but the save reported no error")
        XCTAssertEqual(try titles(document), ["after", "before"], "\(label): the edits stay in memory")
        XCTAssertEqual(leftovers(in: [caseFolder]), [], "\(label): a temporary file was left")

        // A fresh document sees a sound previous version, or the new one if the store had
        // committed it (the metadata is then repaired from the store).
        let onDisk = try await readFresh(documentURL, isArchive: isArchive, label: label)
        let committed = onDisk == ["after", "before"]
        XCTAssertTrue(committed || onDisk == ["before"], "\(label): found \(onDisk)")
        if isArchive { XCTAssertEqual(onDisk, ["before"], "\(label): the archive keeps the previous version") }

        try await save()
        XCTAssertFalse(document.state.contains(.savingError), "\(label): the retry clears the error")
        if target.name != "working copy" {
            let saved = try await readFresh(documentURL, isArchive: isArchive, label: label)
            XCTAssertEqual(saved, ["after", "before"], label)
        }
        try await document.close()
        return (fired, committed)
    }

    /// The titles in the document as a fresh open sees them (read-only; an archive is unpacked
    /// into a private reading copy), after checking it is sound.
    private func readFresh(_ documentURL: URL, isArchive: Bool, label: String) async throws -> [String] {
        var fresh = self.options
        fresh.readOnly = true  // An archive is unpacked into a private reading copy: the open document keeps its lock.
        fresh.untrustedStore = true
        fresh.environment["XDG_STATE_HOME"] = folder.appending(path: "fresh-\(UUID().uuidString)").path
        let reader: ManagedDocument
        do {
            reader = try await ManagedDocument.open(documentURL, model: Note.model, options: fresh)
        } catch {
            XCTFail("\(label): a fresh open failed: \(error)")
            return []
        }
        let verification = try await reader.verify()
        XCTAssertTrue(verification.isSound, "\(label): \(verification.problems)")
        let found = try titles(reader)
        try await reader.close()
        return found
    }

    /// Temporary items of a save (`.name.tmp-…`, `.name.old-…`) anywhere under `folders`.
    private func leftovers(in folders: [URL]) -> [String] {
        folders.flatMap { folder in
            (FileManager.default.enumerator(atPath: folder.path)?.allObjects as? [String] ?? []).filter {
                let name = ($0 as NSString).lastPathComponent
                return name.contains(".tmp-") || name.contains(".old-")
            }
        }
    }
}
