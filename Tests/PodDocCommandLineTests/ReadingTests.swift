import Foundation
import Glibc
import XCTest

/// Commands that only read, through the real binary: they leave every byte of the document as
/// it was (no `-wal`/`-shm` left, no header rewritten), a command that fails does too, and
/// they work where the document cannot be written: a read-only mount, an immutable file,
/// another user's document. Writing commands there say "read-only".
final class ReadingTests: CommandLineTestCase {
    private func makeDocuments() throws -> (outline: String, pods: String) {
        let outline = path("src/Notes.poddoc")
        let pods = path("src/Specs.poddoc")
        try FileManager.default.createDirectory(atPath: path("src"), withIntermediateDirectories: true)
        try succeed("new", outline, "--kind", "outline")
        try succeed("outline", "add", outline, "Groceries")
        try succeed("outline", "add", outline, "Milk", "--under", "1")
        try succeed("new", pods, "--kind", "pods")
        try succeed("import", pods, "--from", Self.sampleSpecs)
        return (outline, pods)
    }

    /// The reading commands, each expected to succeed, for a document of each kind.
    private func readingCommands(outline: String, pods: String, out: String) -> [[String]] {
        [
            ["info", outline], ["versions", outline], ["versions", pods, "--json"], ["outline", "ls", outline],
            ["outline", "tree", outline], ["outline", "find", outline, "milk"],
            ["check", outline], ["export", outline, out + "/n.opml", "--format", "opml"],
            ["export", outline, out + "/n.md", "--format", "markdown"], ["export", outline, out + "/n.zip", "--format", "archive"],
            ["info", pods], ["pods", "ls", pods, "AF"], ["pods", "search", pods, "json"], ["pods", "count", pods],
            ["check", pods], ["export", pods, out + "/specs.csv", "--format", "csv"],
            ["export", pods, out + "/Specs", "--format", "specs"],
            ["open", outline, "--read-only", "-c", "tree; export \(out)/shell.opml --format opml"],
        ]
    }

    func testReadsAndFailedCommandsLeaveEveryByteAsItWas() throws {
        let (outline, pods) = try makeDocuments()
        let before = (try hashes(outline), try hashes(pods))
        XCTAssertFalse(
            before.0.keys.contains { $0.hasSuffix("-wal") || $0.hasSuffix("-shm") }, "a closed document has no -wal/-shm: \(before.0.keys)")
        try FileManager.default.createDirectory(atPath: path("out"), withIntermediateDirectories: true)
        for command in readingCommands(outline: outline, pods: pods, out: path("out")) { try run(command).assertSucceeded(command) }
        // Commands that fail: nothing of theirs may reach the document.
        try fail(65, "outline", "rm", outline, "9")
        try fail(66, "export", outline, path("out/n.opml"), "--format", "opml")
        try fail(65, "pods", "show", pods, "NoSuchPod")
        XCTAssertEqual(try hashes(outline), before.0, "the outline is byte for byte as it was")
        XCTAssertEqual(try hashes(pods), before.1, "the pods document is byte for byte as it was")

        // Two exports of an unchanged document, a second apart, are the same bytes.
        try succeed("export", outline, path("out/again.zip"), "--format", "archive")
        Thread.sleep(forTimeInterval: 1.1)
        try succeed("export", outline, path("out/again2.zip"), "--format", "archive")
        XCTAssertEqual(
            try Data(contentsOf: URL(fileURLWithPath: path("out/again.zip"))),
            try Data(contentsOf: URL(fileURLWithPath: path("out/again2.zip"))))
    }

    /// Every file and folder of a document with its modification time to the nanosecond, and
    /// each file's size and content hash: what a sync tool rescans on.
    private func times(_ root: String) throws -> [String: String] {
        var result: [String: String] = [:]
        let hashed = try hashes(root)
        for name in [""] + (FileManager.default.enumerator(atPath: root)!.allObjects as! [String]) {
            var status = stat()
            XCTAssertEqual(lstat(root + "/" + name, &status), 0)
            result["/" + name] = "\(status.st_mtim.tv_sec).\(status.st_mtim.tv_nsec) \(status.st_size) \(hashed[name] ?? "folder")"
        }
        return result
    }

    /// Reading commands take the store for an unchanging file while they hold the package's
    /// lock: no `-wal`/`-shm` is made and removed (which would change the folder's time, and
    /// make sync tools rescan), and a `-shm` left behind keeps its bytes.
    func testShortReadsChangeNoFileAndNoFoldersTime() throws {
        let (outline, pods) = try makeDocuments()
        try succeed("outline", "add", outline, "Bread")
        try FileManager.default.createDirectory(atPath: path("out"), withIntermediateDirectories: true)
        // A `-shm` left by a writer that crashed after its checkpoint: nothing to read in it.
        let leftover = Data((0..<32768).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        try leftover.write(to: URL(fileURLWithPath: pods + "/StoreContent/persistentStore-shm"))
        let before = (try times(outline), try times(pods))
        Thread.sleep(forTimeInterval: 0.01)
        var commands = readingCommands(outline: outline, pods: pods, out: path("out")).filter { $0.first != "open" }
        commands += [
            ["diff", outline, "--from", "1"], ["export", outline, path("out/at.opml"), "--format", "opml", "--at", "2"],
            ["pods", "show", pods, "AFNetworking"], ["info", outline, "--json"],
            ["save", outline, "--as", path("out/Copy.poddoc")],
        ]
        for command in commands { try run(command).assertSucceeded(command) }
        XCTAssertEqual(try times(outline), before.0, "no file or folder of the outline changed, not even its time")
        XCTAssertEqual(try times(pods), before.1, "no file or folder of the pods document changed; the -shm kept its bytes")
    }

    /// A reading command holds the package's lock in shared mode while it reads: an editor
    /// that starts meanwhile waits for it instead of failing with "locked", and readers share.
    func testAnEditorWaitsForAReaderToEnd() throws {
        let (outline, _) = try makeDocuments()
        let reader = Process()
        reader.executableURL = URL(fileURLWithPath: "/usr/bin/flock")
        reader.arguments = ["--shared", outline + "/.poddoc-lock", "sleep", "1.5"]
        try reader.run()
        defer { reader.waitUntilExit() }
        // Held once `flock` has it: an exclusive try fails.
        var held = false
        for _ in 0..<200 where !held {
            held = try runTool("/usr/bin/flock", ["--nonblock", "--exclusive", outline + "/.poddoc-lock", "true"]).status != 0
            if !held { Thread.sleep(forTimeInterval: 0.01) }
        }
        XCTAssertTrue(held, "the reader holds the lock")
        XCTAssertTrue(try succeed("outline", "tree", outline).stdout.contains("Groceries"), "readers share the lock")
        let added = try succeed("outline", "add", outline, "Butter")
        XCTAssertTrue(added.stdout.contains("Butter"), added.stdout)
        XCTAssertFalse(reader.isRunning, "the edit waited for the reader")
        XCTAssertTrue(try succeed("outline", "tree", outline).stdout.contains("Butter"))
    }

    /// A writer killed before it checkpointed leaves commits in the `-wal`: a read goes
    /// through the log and leaves the main file as it is (a connection that could write would
    /// checkpoint them into it when closing).
    func testAReadThroughAWaitingLogLeavesTheStoreFileAsItIs() throws {
        let doc = path("Crashed.poddoc")
        try succeed("new", doc, "--kind", "outline")
        try crashAfterAutosave(doc, typing: "add \"in the log\"\n")
        let wal = doc + "/StoreContent/persistentStore-wal"
        let logged = try XCTUnwrap(try FileManager.default.attributesOfItem(atPath: wal)[.size] as? Int)
        XCTAssertGreaterThan(logged, 0, "the autosave is still in the log")
        let store = try Data(contentsOf: URL(fileURLWithPath: doc + "/StoreContent/persistentStore"))
        XCTAssertTrue(try succeed("outline", "tree", doc).stdout.contains("in the log"), "read through the log")
        XCTAssertEqual(
            try Data(contentsOf: URL(fileURLWithPath: doc + "/StoreContent/persistentStore")), store, "the main file is untouched")
        try succeed("outline", "add", doc, "after")  // a writer takes the log over as before
        XCTAssertEqual(try succeed("outline", "tree", doc).stdout, "1. in the log\n2. after\n")
    }

    func testAReadOnlyMountIsReadAndWritingCommandsSayReadOnly() throws {
        guard geteuid() == 0 else { throw XCTSkip("needs root for a read-only bind mount (mount --bind, remount,ro)") }
        let (outline, pods) = try makeDocuments()
        let before = try hashes(path("src"))
        let mounted = path("ro")
        try mount(["--bind", path("src")], at: mounted, why: "a read-only bind mount")
        XCTAssertEqual(try runTool("/usr/bin/mount", ["-o", "remount,ro,bind", mounted]).status, 0)
        let (roOutline, roPods) = (
            outline.replacingOccurrences(of: "/src/", with: "/ro/"), pods.replacingOccurrences(of: "/src/", with: "/ro/")
        )
        try FileManager.default.createDirectory(atPath: path("out"), withIntermediateDirectories: true)
        for command in readingCommands(outline: roOutline, pods: roPods, out: path("out")) { try run(command).assertSucceeded(command) }
        XCTAssertTrue(try succeed("check", roOutline).stdout.contains(": ok"))
        try succeed("save", roOutline, "--as", path("out/Copy.poddoc"))
        try succeed("outline", "add", path("out/Copy.poddoc"), "Editable copy")

        for command in [["outline", "add", roOutline, "x"], ["import", roPods, "--from", Self.sampleSpecs], ["save", roOutline]] {
            let refused = try run(command)
            XCTAssertEqual(refused.status, 66, "\(command): \(refused.stderr)")
            XCTAssertTrue(refused.stderr.contains("is read-only here"), refused.stderr)
            XCTAssertFalse(refused.stdout.contains("Add") || refused.stdout.contains("Imported"), "no success printed: \(refused.stdout)")
        }
        XCTAssertEqual(try hashes(path("src")), before)
    }

    func testAnImmutableStoreIsReadAndNotWritten() throws {
        guard geteuid() == 0 else { throw XCTSkip("needs root for chattr +i") }
        let (outline, _) = try makeDocuments()
        let store = outline + "/StoreContent/persistentStore"
        guard try runTool("/usr/bin/chattr", ["+i", store]).status == 0 else {
            throw XCTSkip("this file system has no immutable attribute")
        }
        defer { _ = try? runTool("/usr/bin/chattr", ["-i", store]) }
        let before = try hashes(outline)
        XCTAssertTrue(try succeed("outline", "tree", outline).stdout.contains("Groceries"))
        XCTAssertTrue(try succeed("check", outline).stdout.contains(": ok"))
        let refused = try run(["outline", "add", outline, "x"])
        XCTAssertEqual(refused.status, 66, refused.stderr)
        XCTAssertTrue(refused.stderr.contains("is read-only here"), refused.stderr)
        XCTAssertEqual(try hashes(outline), before, "nothing written, no -wal/-shm left")
    }

    func testAnotherUsersDocumentIsRead() throws {
        guard geteuid() == 0 else { throw XCTSkip("needs root to run poddoc as another user (runuser -u nobody)") }
        let (outline, _) = try makeDocuments()
        let before = try hashes(outline)
        let state = path("nobody-state")
        try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o777])
        func asNobody(_ arguments: [String]) throws -> RunResult {
            var env = environment
            env["HOME"] = state
            env["XDG_STATE_HOME"] = state
            let saved = environment
            environment = env
            defer { environment = saved }
            return try runTool("/usr/sbin/runuser", ["-u", "nobody", "--", try Self.binary().path] + arguments)
        }
        guard try asNobody(["--version"]).status == 0 else { throw XCTSkip("nobody cannot run the built binary here") }
        XCTAssertTrue(try asNobody(["outline", "tree", outline]).stdout.contains("Groceries"))
        XCTAssertTrue(try asNobody(["check", outline]).stdout.contains(": ok"))
        XCTAssertEqual(try asNobody(["export", outline, state + "/n.opml", "--format", "opml"]).status, 0)
        let refused = try asNobody(["outline", "add", outline, "x"])
        XCTAssertEqual(refused.status, 66, refused.stderr)
        XCTAssertTrue(refused.stderr.contains("is read-only here"), refused.stderr)
        XCTAssertEqual(try hashes(outline), before)
    }
}

extension RunResult {
    /// Fails the test, with the output, unless the run exited 0.
    func assertSucceeded(_ command: [String], file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(status, 0, "poddoc \(command.joined(separator: " ")) failed:\n\(stderr)\(stdout)", file: file, line: line)
    }
}
