import Foundation
import PodDocFileSystem
import PodDocStore
import PodDocTesting
import Synchronization
import XCTest

@testable import PodDocDocument

final class DocumentConcurrencyTests: DocumentTestCase {
    func testASecondProcessIsRefusedWithTheHolderNamedOrOpensReadOnly() async throws {
        let url = url("Shared.poddoc")
        let document = try await ManagedDocument.create(at: url, kind: .notes, model: Note.model, options: options)
        addNote(document, "mine")
        try await document.save()
        try await document.close()

        // Another process holds the document's lock.
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/flock")
        holder.arguments = ["--exclusive", "--no-fork", PackageLayout(root: url).lock.path, "sleep", "30"]
        try holder.run()
        defer {
            holder.terminate()
            holder.waitUntilExit()
        }
        try await waitUntilLocked(PackageLayout(root: url).lock)
        do {
            _ = try await ManagedDocument.open(url, model: Note.model, options: options)
            XCTFail("a second writer must be refused")
        } catch let error as DocumentError {
            XCTAssertEqual(error.code, .locked)
            XCTAssertTrue(error.message.contains("open in another process"), error.message)
            XCTAssertTrue(error.message.contains("read-only"), error.message)
        }
        var readOnly = options
        readOnly.readOnly = true
        let reader = try await ManagedDocument.open(url, model: Note.model, options: readOnly)
        XCTAssertEqual(try titles(reader), ["mine"])
        try await reader.close()
    }

    func testALockLeftByADeadProcessIsTakenOver() async throws {
        let url = url("Stale.poddoc")
        let document = try await ManagedDocument.create(at: url, kind: .notes, model: Note.model, options: options)
        try await document.close()
        let dead = LockHolder(
            pid: 999_999, host: ProcessInfo.processInfo.hostName, user: "someone", acquiredAt: Date(), toolVersion: "poddoc 0.0.1")
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        try encoder.encode(dead).write(to: PackageLayout(root: url).lock)
        let reopened = try await ManagedDocument.open(url, model: Note.model, options: options)
        XCTAssertEqual(reopened.lockTakeover?.previousHolder.pid, 999_999)
        try await reopened.close()
    }

    /// Someone replaces the document's metadata on disk with another document's (another
    /// machine's copy, a sync tool…), named `name`, holding a note "theirs".
    private func replaceOnDisk(_ url: URL, by name: String) async throws {
        let theirs = self.url(name)
        let other = try await ManagedDocument.create(at: theirs, kind: .notes, model: Note.model, options: options)
        addNote(other, "theirs")
        try await other.save()
        try await other.close()
        try FileManager.default.removeItem(at: PackageLayout(root: url).metadata)
        try FileManager.default.copyItem(at: PackageLayout(root: theirs).metadata, to: PackageLayout(root: url).metadata)
    }

    /// An app is told when an autosave finds the document changed on disk: through
    /// `onStateChange` and `stateChanges()`, which ends when the document closes.
    func testAnAutosaveMeetingAChangeOnDiskTellsTheApp() async throws {
        let url = url("Told.poddoc")
        let mine = try await ManagedDocument.create(at: url, kind: .notes, model: Note.model, options: options)
        addNote(mine, "mine")
        try await mine.save()
        var told: [DocumentState] = []
        mine.onStateChange = { told.append($0) }
        let stream = mine.stateChanges()
        try await replaceOnDisk(url, by: "Other.poddoc")

        addNote(mine, "autosaved")
        await mine.autosaveIfNeeded()
        XCTAssertEqual(told, [.inConflict], "the autosave found the change on disk")
        try await mine.resolveConflict(.keepMine)
        try await mine.close()
        XCTAssertEqual(told, [.inConflict, .normal, .closed])
        var streamed: [DocumentState] = []
        for await state in stream { streamed.append(state) }
        XCTAssertEqual(streamed, told, "the stream saw the same changes and ended with the close")
    }

    func testADocumentChangedBehindAnOpenOneGoesInConflict() async throws {
        let url = url("Behind.poddoc")
        let mine = try await ManagedDocument.create(at: url, kind: .notes, model: Note.model, options: options)
        addNote(mine, "mine")
        try await mine.save()
        try await replaceOnDisk(url, by: "Theirs.poddoc")

        addNote(mine, "mine again")
        do {
            try await mine.save()
            XCTFail("saving over a changed document must wait for a decision")
        } catch let error as DocumentError {
            XCTAssertEqual(error.code, .inConflict)
            XCTAssertTrue(error.message.contains("keep mine"), error.message)
        }
        XCTAssertTrue(mine.state.contains(.inConflict))
        XCTAssertFalse(mine.state.contains(.savingError))
        // The package's version moved into a working copy, where autosaves go; the package
        // on disk stays theirs until the user chooses.
        let theirsMetadata = try Data(contentsOf: PackageLayout(root: url).metadata)
        XCTAssertNotNil(mine.workingCopyPackage)
        addNote(mine, "autosaved aside")
        await mine.autosaveIfNeeded()
        XCTAssertNotNil(mine.autosaveStatus.lastSuccess, mine.autosaveStatus.lastError.map { "\($0)" } ?? "")
        XCTAssertEqual(
            try Data(contentsOf: PackageLayout(root: url).metadata), theirsMetadata, "autosave does not overwrite a document in conflict")
        XCTAssertTrue(mine.hasWorkInWorkingCopy)

        try await mine.resolveConflict(.keepMine)
        XCTAssertFalse(mine.state.contains(.inConflict))
        XCTAssertEqual(try titlesOnDisk(PackageLayout(root: url).store), ["autosaved aside", "mine", "mine again"])
        try await mine.close()
    }

    func testAutosaveRunsOnTheClockReportsFailuresKeepsEditsAndRetries() async throws {
        let clock = ManualClock()
        var options = self.options
        options.autosaveInterval = .seconds(15)
        options.sleep = { try await clock.sleep(for: $0) }
        let url = url("Auto.poddoc")
        let document = try await ManagedDocument.create(at: url, kind: .notes, model: Note.model, options: options)
        var events: [AutosaveEvent] = []
        document.onAutosave = { events.append($0) }
        await clock.waitForSleeps(1)

        // A tick with no changes saves nothing.
        clock.advance(by: .seconds(15))
        await clock.waitForSleeps(2)
        XCTAssertTrue(events.isEmpty)

        // A failing autosave: reported, edits kept, saving-error state.
        addNote(document, "edit")
        let healthy = document.files
        document.files = DocumentFiles(
            layout: healthy.layout, fileSystem: FileSystem(faults: .failing(.fsync, with: EIO, path: .containing("DocumentMetadata.json"))))
        clock.advance(by: .seconds(15))
        await clock.waitForSleeps(3)
        guard case .failed(let error)? = events.last else { return XCTFail("expected a failed autosave, got \(events)") }
        XCTAssertTrue(error.message.contains("DocumentMetadata.json"), error.message)
        XCTAssertTrue(document.state.contains(.savingError))
        XCTAssertEqual(document.autosaveStatus.consecutiveFailures, 1)
        XCTAssertEqual(try titles(document), ["edit"], "the edit is still there")

        // The next tick retries and succeeds.
        document.files = healthy
        addNote(document, "another")
        clock.advance(by: .seconds(15))
        await clock.waitForSleeps(4)
        guard case .saved(_, let sequence, _)? = events.last else { return XCTFail("expected a successful autosave, got \(events)") }
        XCTAssertEqual(sequence, document.metadata.saveSequence)
        XCTAssertFalse(document.state.contains(.savingError))
        XCTAssertNotNil(document.autosaveStatus.lastSuccess)
        XCTAssertEqual(try titlesOnDisk(PackageLayout(root: url).store), ["another", "edit"])
        document.stopAutosave()
        try await document.close()
    }

    func testWorkerSavesCountAsUnsavedChangesUntilTheDocumentSaves() async throws {
        let document = try await ManagedDocument.create(at: url("Workers.poddoc"), kind: .notes, model: Note.model, options: options)
        let worker = document.newWorkerContext()
        try await worker.perform { ctx in
            ctx.insert("Note").setValue(.text("from worker"), forKey: "title")
            try ctx.save()
        }
        await Task.yield()
        try await Task.sleep(for: .milliseconds(20))
        XCTAssertTrue(document.hasUnsavedChanges)
        try await document.save()
        XCTAssertFalse(document.hasUnsavedChanges)
        XCTAssertEqual(try titles(document), ["from worker"], "the main context sees worker saves")
        try await document.close()
    }

    func testNeverSavedDocumentsLiveInAWorkingCopyUntilSavedAs() async throws {
        let untitled = try await ManagedDocument.create(at: nil, kind: .notes, model: Note.model, options: options)
        XCTAssertNil(untitled.fileURL)
        addNote(untitled, "draft")
        do {
            try await untitled.save()
            XCTFail("a never-saved document needs a name")
        } catch let error as DocumentError {
            XCTAssertEqual(error.code, .notSaved)
        }
        await untitled.autosaveIfNeeded()
        let recoverable = ManagedDocument.recoverableDocuments(environment: options.environment)
        XCTAssertTrue(recoverable.isEmpty, "a working copy in use is not offered for recovery")
        let target = self.url("Named.poddoc")
        try await untitled.save(as: target)
        XCTAssertEqual(untitled.fileURL, target)
        XCTAssertEqual(try titles(untitled), ["draft"])
        XCTAssertEqual(ManagedDocument.recoverableDocuments(environment: options.environment), [])
        try await untitled.close()
    }

    private func waitUntilLocked(_ lockFile: URL) async throws {
        for _ in 0..<200 {
            if (try? DocumentLock.currentHolder(of: lockFile)) != nil || isLockedByOther(lockFile) { return }
            try await Task.sleep(for: .milliseconds(10))
        }
        XCTFail("the other process never took the lock")
    }

    private func isLockedByOther(_ lockFile: URL) -> Bool {
        let fd = open(lockFile.path, O_RDONLY)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        if flock(fd, LOCK_SH | LOCK_NB) == 0 {
            flock(fd, LOCK_UN)
            return false
        }
        return true
    }
}
