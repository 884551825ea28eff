import Foundation
@testable import PodDocDocument
import PodDocFileSystem
import XCTest

/// Starts a real child process that edits a document with autosave on, SIGKILLs it at random
/// moments, and checks each reopen: integrity, and at least the last save the child reported.
final class CrashRecoveryTests: DocumentTestCase {
    func testKillDuringEditsAndAutosavesNeverCorruptsOrLosesReportedSaves() async throws {
        let child = try childExecutable()
        let document = url("Crash.poddoc")
        var random = SeededGenerator(seed: 2026)
        var kills = 0, killsAfterUnreportedCommit = 0, lastReported = -1
        for cycle in 0..<60 {
            let process = Process()
            process.executableURL = child
            process.arguments = [document.path, String(cycle + 1), "15"]
            var environment = ProcessInfo.processInfo.environment
            environment["XDG_STATE_HOME"] = folder.appending(path: "state").path
            process.environment = environment
            let output = Pipe()
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            try process.run()
            let lines = LineReader(output.fileHandleForReading)
            // Wait until the child has the document open, then let it run for a random while.
            guard lines.waitFor(prefix: "OPEN", timeout: 20) != nil else {
                process.terminate()
                return XCTFail("cycle \(cycle): the child never opened the document")
            }
            try await Task.sleep(for: .milliseconds(Int.random(in: 5...120, using: &random)))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            kills += 1
            for line in lines.drain() where line.hasPrefix("SAVED ") {
                lastReported = Int(line.split(separator: " ")[1]) ?? -1
            }

            let layout = PackageLayout(root: document)
            XCTAssertEqual(try integrityCheck(layout.store), "ok", "cycle \(cycle)")
            var options = self.options
            options.untrustedStore = true
            let reopened = try await ManagedDocument.open(document, model: Note.model, options: options)
            let sequence = reopened.metadata.saveSequence
            XCTAssertGreaterThanOrEqual(sequence, lastReported, "cycle \(cycle): a reported save was lost")
            if sequence != lastReported {
                killsAfterUnreportedCommit += 1
                lastReported = sequence
            }
            // Metadata and additional content agree with the store; opening made the hash
            // (left behind by the autosaves) current.
            let onDisk = try DocumentFiles(layout: layout, fileSystem: FileSystem()).readMetadata()
            XCTAssertEqual(onDisk.saveSequence, sequence, "cycle \(cycle)")
            XCTAssertTrue(onDisk.isStoreHashCurrent, "cycle \(cycle)")
            XCTAssertEqual(try ContentDigest.store(reopened.store), onDisk.storeHash, "cycle \(cycle)")
            try await reopened.close()
        }
        XCTAssertEqual(kills, 60)
        XCTAssertGreaterThan(lastReported, 10, "the child saved many times")
        print("crash recovery: \(kills) kills, \(killsAfterUnreportedCommit) between a commit and its report, last save \(lastReported)")
    }

    private func childExecutable() throws -> URL {
        let products = Bundle.main.bundleURL.deletingLastPathComponent()
        let candidates = [products, URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()]
            .map { $0.appending(path: "poddoc-crash-child") }
        guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
            throw XCTSkip("poddoc-crash-child was not built next to the tests (\(candidates.map(\.path)))")
        }
        return found
    }
}

/// Reads lines from a pipe on a background thread.
final class LineReader: @unchecked Sendable {
    // @unchecked: `lines` and `finished` are only touched while holding `condition`.
    private let condition = NSCondition()
    private var lines: [String] = []
    private var finished = false

    init(_ handle: FileHandle) {
        Thread.detachNewThread { [self] in
            var buffer = Data()
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                buffer.append(chunk)
                while let newline = buffer.firstIndex(of: 0x0A) {
                    let line = String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self)
                    buffer.removeSubrange(buffer.startIndex...newline)
                    condition.lock(); lines.append(line); condition.broadcast(); condition.unlock()
                }
            }
            condition.lock(); finished = true; condition.broadcast(); condition.unlock()
        }
    }

    func waitFor(prefix: String, timeout: TimeInterval) -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let line = lines.first(where: { $0.hasPrefix(prefix) }) { return line }
            if finished || !condition.wait(until: deadline) { return nil }
        }
    }

    /// Every line, once the writer has gone.
    func drain() -> [String] {
        condition.lock()
        defer { condition.unlock() }
        let deadline = Date().addingTimeInterval(5)
        while !finished && condition.wait(until: deadline) {}
        return lines
    }
}

struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
