import Foundation
import Glibc
import PodDocFileSystem
import PodDocTesting
import Synchronization
import XCTest

/// The lock is exercised against real second processes: `sh` children that take the lock with
/// util-linux `flock(1)` on the same file.
final class DocumentLockTests: XCTestCase {
    // MARK: - Two processes

    func testLiveExclusiveHolderInAnotherProcessBlocksBothModes() throws {
        let lockFile = try makeTemporaryFolder().appendingPathComponent(".poddoc-lock")
        let child = try LockingChild(lockFile: lockFile, mode: "-x", recordsHolder: true)
        defer { child.finish() }

        for mode in [LockMode.exclusive, .shared] {
            let error = try expectFileSystemError { _ = try DocumentLock.acquire(lockFile, mode: mode, toolVersion: "test") }
            XCTAssertEqual(error.code, .locked)
            XCTAssertTrue(error.message.contains("pid \(child.pid) on host \(hostName())"), error.message)
            XCTAssertTrue(error.message.contains(lockFile.path), error.message)
        }
        let holder = try XCTUnwrap(try DocumentLock.currentHolder(of: lockFile))
        XCTAssertEqual(holder.pid, child.pid)
        XCTAssertEqual(holder.isRunning, true)
    }

    func testLockLeftByAnExitedProcessIsTakenOver() throws {
        let lockFile = try makeTemporaryFolder().appendingPathComponent(".poddoc-lock")
        let child = try LockingChild(lockFile: lockFile, mode: "-x", recordsHolder: true)
        let childPID = child.pid
        child.finish()  // exits without clearing its record: the record is now stale

        let lock = try DocumentLock.acquire(lockFile, mode: .exclusive, toolVersion: "test")
        defer { lock.release() }
        let takeover = try XCTUnwrap(lock.takeover)
        XCTAssertEqual(takeover.previousHolder.pid, childPID)
        XCTAssertEqual(takeover.description, "took over a lock left by pid \(childPID) on host \(hostName())")
        XCTAssertEqual(try DocumentLock.currentHolder(of: lockFile)?.pid, getpid())
    }

    func testOtherProcessCannotLockWhileWeHoldExclusively() throws {
        let lockFile = try makeTemporaryFolder().appendingPathComponent(".poddoc-lock")
        let lock = try DocumentLock.acquire(lockFile, mode: .exclusive, toolVersion: "1.2.3")
        XCTAssertNil(lock.takeover)
        XCTAssertEqual(try runFlock(["-n", "-s", lockFile.path, "true"]), 1)
        XCTAssertEqual(try runFlock(["-n", "-x", lockFile.path, "true"]), 1)

        let holder = try XCTUnwrap(try DocumentLock.currentHolder(of: lockFile))
        XCTAssertEqual(holder.pid, getpid())
        XCTAssertEqual(holder.host, hostName())
        XCTAssertEqual(holder.toolVersion, "1.2.3")

        lock.release()
        XCTAssertEqual(try runFlock(["-n", "-x", lockFile.path, "true"]), 0)
        XCTAssertNil(try DocumentLock.currentHolder(of: lockFile))
    }

    func testSharedHoldersCoexistButExcludeEditors() throws {
        let lockFile = try makeTemporaryFolder().appendingPathComponent(".poddoc-lock")
        let child = try LockingChild(lockFile: lockFile, mode: "-s", recordsHolder: false)
        defer { child.finish() }

        let reader = try DocumentLock.acquire(lockFile, mode: .shared, toolVersion: "test")
        defer { reader.release() }
        XCTAssertNil(reader.takeover)
        let error = try expectFileSystemError {
            _ = try DocumentLock.acquire(lockFile, mode: .exclusive, toolVersion: "test", readerWait: .zero)
        }
        XCTAssertEqual(error.code, .locked)
        XCTAssertTrue(error.message.contains("being read by other poddoc commands"), error.message)
        XCTAssertEqual(try runFlock(["-n", "-s", lockFile.path, "true"]), 0)
        XCTAssertEqual(try runFlock(["-n", "-x", lockFile.path, "true"]), 1)
    }

    func testAReaderMakesNoLockFileAndAnEditorWaitsForIt() throws {
        let folder = try makeTemporaryFolder()
        let lockFile = folder.appendingPathComponent(".poddoc-lock")
        guard case .unavailable = DocumentLock.acquireForReading(lockFile) else { return XCTFail("no lock file to take") }
        XCTAssertFalse(FileManager.default.fileExists(atPath: lockFile.path), "a reader makes no lock file")
        // A FIFO in the lock file's place is no lock, and opening it does not wait for a writer.
        XCTAssertEqual(mkfifo(lockFile.path, 0o644), 0)
        guard case .unavailable = DocumentLock.acquireForReading(lockFile) else { return XCTFail("a FIFO is not a lock") }
        try FileManager.default.removeItem(at: lockFile)

        let editor = try DocumentLock.acquire(lockFile, mode: .exclusive, toolVersion: "test")
        guard case .editorPresent = DocumentLock.acquireForReading(lockFile) else { return XCTFail("an editor holds it") }
        editor.release()

        guard case .held(let reader) = DocumentLock.acquireForReading(lockFile) else { return XCTFail("free for readers") }
        guard case .held(let second) = DocumentLock.acquireForReading(lockFile) else { return XCTFail("readers share it") }
        second.release()
        reader.release()
        // A reader in another process, for 0.3 s.
        let child = Process()
        child.executableURL = URL(fileURLWithPath: "/usr/bin/flock")
        child.arguments = ["--shared", lockFile.path, "sleep", "0.3"]
        try child.run()
        defer { child.waitUntilExit() }
        while try runFlock(["-n", "-x", lockFile.path, "true"]) == 0 { usleep(1_000) }
        let waited = try DocumentLock.acquire(lockFile, mode: .exclusive, toolVersion: "test")
        XCTAssertFalse(child.isRunning, "the editor waited for the reader")
        XCTAssertEqual(try DocumentLock.currentHolder(of: lockFile)?.pid, getpid())
        waited.release()
    }

    func testAnEditorWaitingForReadersMeetsAnotherEditorByName() throws {
        let lockFile = try makeTemporaryFolder().appendingPathComponent(".poddoc-lock")
        let child = try LockingChild(lockFile: lockFile, mode: "-x", recordsHolder: true)
        defer { child.finish() }
        let error = try expectFileSystemError { _ = try DocumentLock.acquire(lockFile, mode: .exclusive, toolVersion: "test") }
        XCTAssertTrue(error.message.contains("pid \(child.pid)"), error.message)
    }

    func testSecondLockInTheSameProcessIsRefused() throws {
        let lockFile = try makeTemporaryFolder().appendingPathComponent(".poddoc-lock")
        let lock = try DocumentLock.acquire(lockFile, mode: .exclusive, toolVersion: "test")
        defer { lock.release() }
        let error = try expectFileSystemError { _ = try DocumentLock.acquire(lockFile, mode: .exclusive, toolVersion: "test") }
        XCTAssertTrue(error.message.contains("pid \(getpid())"), error.message)
    }

    // MARK: - Stale records

    func testRecordOfADeadProcessIsTakenOver() throws {
        let lockFile = try makeTemporaryFolder().appendingPathComponent(".poddoc-lock")
        let dead = try deadProcessID()
        let stale = LockHolder(pid: dead, host: hostName(), user: "ghost", acquiredAt: Date(timeIntervalSince1970: 0), toolVersion: "0.0.1")
        try writeRecord(stale, to: lockFile)
        XCTAssertEqual(try DocumentLock.currentHolder(of: lockFile)?.isRunning, false)

        for mode in [LockMode.shared, .exclusive] {
            let lock = try DocumentLock.acquire(lockFile, mode: mode, toolVersion: "test")
            XCTAssertEqual(lock.takeover?.description, "took over a lock left by pid \(dead) on host \(hostName())")
            lock.release()
        }
        XCTAssertNil(try DocumentLock.currentHolder(of: lockFile))
    }

    func testCorruptLockFileIsReportedAndReplaced() throws {
        let lockFile = try makeTemporaryFolder().appendingPathComponent(".poddoc-lock")
        try Data("not json".utf8).write(to: lockFile)
        let error = try expectFileSystemError { _ = try DocumentLock.currentHolder(of: lockFile) }
        XCTAssertEqual(error.code, .corruptLockFile)
        XCTAssertTrue(error.message.contains(lockFile.path), error.message)

        let lock = try DocumentLock.acquire(lockFile, mode: .exclusive, toolVersion: "test")
        defer { lock.release() }
        XCTAssertNil(lock.takeover)
        XCTAssertEqual(try DocumentLock.currentHolder(of: lockFile)?.pid, getpid())
    }

    func testMissingLockFileHasNoHolder() throws {
        let lockFile = try makeTemporaryFolder().appendingPathComponent(".poddoc-lock")
        XCTAssertNil(try DocumentLock.currentHolder(of: lockFile))
    }

    func testFailingToRecordTheHolderReleasesTheLock() throws {
        let lockFile = try makeTemporaryFolder().appendingPathComponent(".poddoc-lock")
        let failing = FileSystem(faults: .failing(.fsync, with: EIO))
        let error = try expectFileSystemError {
            _ = try DocumentLock.acquire(lockFile, mode: .exclusive, toolVersion: "test", fileSystem: failing)
        }
        XCTAssertEqual(error.systemCall, .fsync)
        XCTAssertTrue(error.message.contains(lockFile.path), error.message)
        XCTAssertEqual(try runFlock(["-n", "-x", lockFile.path, "true"]), 0)
        XCTAssertNil(try DocumentLock.currentHolder(of: lockFile))
    }

    // MARK: - A lock file beside a document

    func testALockFileBesideADocumentIsSharedWithEveryoneAndRemovedOnRelease() throws {
        let lockFile = try makeTemporaryFolder().appendingPathComponent(".Notes.tar.zst.poddoc-lock")
        let previous = umask(0o077)
        let lock = try DocumentLock.acquire(lockFile, mode: .exclusive, toolVersion: "test", kind: .besideDocument)
        umask(previous)
        let mode = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: lockFile.path)[.posixPermissions] as? Int)
        XCTAssertEqual(mode, 0o666, "every user sharing the folder can open it, whatever the umask")
        XCTAssertEqual(try runFlock(["-n", "-x", lockFile.path, "true"]), 1)
        XCTAssertEqual(try DocumentLock.currentHolder(of: lockFile)?.pid, getpid())
        lock.release()
        XCTAssertFalse(FileManager.default.fileExists(atPath: lockFile.path), "release removes it")
        let again = try DocumentLock.acquire(lockFile, mode: .exclusive, toolVersion: "test", kind: .besideDocument)
        XCTAssertNil(again.takeover)
        again.release()
    }

    func testALockBesideADocumentNamingAnotherHostIsRespectedUntilRemoved() throws {
        let lockFile = try makeTemporaryFolder().appendingPathComponent(".Notes.tar.zst.poddoc-lock")
        try writeRecord(
            LockHolder(pid: 1, host: "far-away-host", user: "ann", acquiredAt: Date(timeIntervalSince1970: 0), toolVersion: "test"),
            to: lockFile)
        let error = try expectFileSystemError {
            _ = try DocumentLock.acquire(lockFile, mode: .exclusive, toolVersion: "test", kind: .besideDocument)
        }
        XCTAssertEqual(error.code, .locked)
        XCTAssertTrue(error.message.contains("far-away-host") && error.message.contains("remove '\(lockFile.path)'"), error.message)
        XCTAssertEqual(try DocumentLock.currentHolder(of: lockFile)?.host, "far-away-host", "the record is left as it was")
        // The same record in a lock file poddoc owns is taken over, as before.
        let owned = try DocumentLock.acquire(lockFile, mode: .exclusive, toolVersion: "test")
        XCTAssertEqual(owned.takeover?.previousHolder.host, "far-away-host")
        owned.release()
    }

    func testALockFileRemovedWhileBeingTakenIsTakenAgain() throws {
        let lockFile = try makeTemporaryFolder().appendingPathComponent(".Notes.tar.zst.poddoc-lock")
        // Many takers and releasers at once: each holder is the only one, and no lock is ever
        // held on a file its name no longer points to.
        // Each taker tries until it holds the lock, so every one of them takes it once however
        // the threads are scheduled; the only refusal a taker may meet is that it is held.
        let holders = Mutex((now: 0, most: 0, taken: 0))
        let takers = 60
        DispatchQueue.concurrentPerform(iterations: takers) { _ in
            var taken: DocumentLock?
            for _ in 0..<1_000_000 where taken == nil {
                do {
                    taken = try DocumentLock.acquire(lockFile, mode: .exclusive, toolVersion: "test", kind: .besideDocument)
                } catch let error as FileSystemError where error.code == .locked {
                    sched_yield()
                } catch {
                    XCTFail("taking the lock failed: \(error)")
                    return
                }
            }
            guard let lock = taken else { return XCTFail("the lock was never free") }
            holders.withLock {
                $0.now += 1
                $0.most = max($0.most, $0.now)
                $0.taken += 1
            }
            var named = stat()
            XCTAssertEqual(lstat(lockFile.path, &named), 0, "the held lock file exists")
            holders.withLock { $0.now -= 1 }
            lock.release()
        }
        XCTAssertEqual(holders.withLock { $0.taken }, takers, "every taker held it once")
        XCTAssertEqual(holders.withLock { $0.most }, 1, "never two holders at once")
        XCTAssertFalse(FileManager.default.fileExists(atPath: lockFile.path))
    }

    // MARK: - Helpers

    private func writeRecord(_ holder: LockHolder, to file: URL) throws {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        try encoder.encode(holder).write(to: file)
    }

    /// The pid of a process that has exited and been reaped.
    private func deadProcessID() throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/true")
        try process.run()
        process.waitUntilExit()
        return process.processIdentifier
    }

    /// Runs `flock(1)` with `arguments` and returns its exit status.
    private func runFlock(_ arguments: [String]) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/flock")
        process.arguments = arguments
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }

    private func hostName() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        gethostname(&buffer, 255)
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// A child `sh` process that takes the lock with `flock(1)`, optionally writes a holder record
/// naming itself, says `locked`, and holds the lock until its standard input closes.
private final class LockingChild {
    private let process = Process()
    private let input = Pipe()
    let pid: Int32

    init(lockFile: URL, mode: String, recordsHolder: Bool) throws {
        let record =
            #"printf '{"acquiredAt":"2024-01-01T00:00:00Z","host":"%s","pid":%d,"toolVersion":"child","user":"%s"}' "$(uname -n)" $$ "$(id -un)" >&9"#
        let script = """
            exec 9<>"$1"
            flock \(mode) 9 || exit 3
            \(recordsHolder ? record : ":")
            echo locked
            read -r _
            """
        let output = Pipe()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", script, "sh", lockFile.path]
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        pid = process.processIdentifier
        var said = Data()
        while !String(decoding: said, as: UTF8.self).contains("locked\n") {
            let chunk = output.fileHandleForReading.availableData
            guard !chunk.isEmpty else { throw CocoaError(.fileReadUnknown) }
            said.append(chunk)
        }
    }

    /// Closes the child's input and waits for it to exit.
    func finish() {
        guard process.isRunning else { return }
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }
}
