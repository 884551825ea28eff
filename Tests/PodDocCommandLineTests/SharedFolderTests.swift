import Foundation
import Glibc
import XCTest

/// Documents in folders that others write too — sync tools replacing a document behind an
/// open shell, two users of one archive, an archive reached through a symbolic link, names as
/// long as the file system allows — through the real binary: the other writer's save is never
/// overwritten without the user choosing, and the user's own edits always end up somewhere
/// `recover` finds.
final class SharedFolderTests: CommandLineTestCase {

    /// Replaces `name` with a copy of `source` as a sync tool does: the copy is made beside
    /// it under a temporary name, then renamed over it (a package: the old folder moved away
    /// first, as `mv N old; cp -r O N`).
    private func replaceAsASyncToolDoes(_ name: String, with source: String) throws {
        let temporary = path(".sync-tmp-" + name)
        try FileManager.default.copyItem(atPath: path(source), toPath: temporary)
        var folder: ObjCBool = false
        if FileManager.default.fileExists(atPath: path(name), isDirectory: &folder), folder.boolValue {
            try FileManager.default.moveItem(atPath: path(name), toPath: path("moved-away-" + name))
        }
        XCTAssertEqual(rename(temporary, path(name)), 0, String(cString: strerror(errno)))
    }

    /// A shell on `B.<ending>` with a 0.2 s autosave: adds an item and waits for its autosave,
    /// has the document replaced from outside, adds another and waits until that autosave
    /// announces the conflict, then types `commands` and ends its input.
    private func shellReplacedBetweenAutosaves(
        _ ending: String, then commands: [String]
    ) throws -> (status: Int32, stdout: String, stderr: String) {
        let input = Pipe()
        let (shell, out, err) = try start(["open", path("B.\(ending)"), "--autosave-interval", "0.2"], stdin: input.fileHandleForReading)
        input.fileHandleForWriting.write(Data("add mine1\n".utf8))
        XCTAssertTrue(err.wait(for: "autosaved B.\(ending)"), err.current)
        try replaceAsASyncToolDoes("B.\(ending)", with: "Theirs.\(ending)")
        input.fileHandleForWriting.write(Data("add mine2\n".utf8))
        XCTAssertTrue(err.wait(for: "was changed on disk by someone else while open here"), err.current)
        for command in commands { input.fileHandleForWriting.write(Data((command + "\n").utf8)) }
        try input.fileHandleForWriting.close()
        shell.waitUntilExit()
        out.waitForEnd()
        err.waitForEnd()
        return (shell.terminationStatus, out.current, err.current)
    }

    /// An autosave after the document was replaced must not take the replacement as its new
    /// baseline: the quit that follows is a conflict, the other machine's save stays, and the
    /// user's edits wait for `recover`.
    func testADocumentReplacedBetweenAutosavesIsNeverOverwritten() throws {
        for ending in ["tar.zst", "poddoc"] {
            try makeDocuments(ending)
            let quit = try shellReplacedBetweenAutosaves(ending, then: ["quit"])
            XCTAssertEqual(quit.status, 75, "\(ending): the refused save is the shell's first failure: " + quit.stderr)
            XCTAssertTrue(quit.stderr.contains("your edits are kept in the working copy"), quit.stderr)
            XCTAssertEqual(try tree("B.\(ending)"), "1. one\n2. theirs\n", "\(ending): the other machine's save is kept")
            XCTAssertTrue(try succeed("recover").stdout.contains(path("B.\(ending)")), "\(ending): recover lists the waiting work")
            try succeed("recover", path("B.\(ending)"), "--as", path("Mine.\(ending)"))
            XCTAssertEqual(try tree("Mine.\(ending)"), "1. one\n2. mine1\n3. mine2\n")
            XCTAssertEqual(try tree("B.\(ending)"), "1. one\n2. theirs\n")
            for name in ["A.poddoc", "B.\(ending)", "Theirs.\(ending)", "Mine.\(ending)", "moved-away-B.\(ending)"] {
                try? FileManager.default.removeItem(atPath: path(name))
            }
        }
    }

    /// In the same situation the shell's `merge` takes the version on disk into the user's and
    /// saves over it: both machines' items, nothing waiting.
    func testTheShellMergesADocumentReplacedBetweenAutosaves() throws {
        for ending in ["zip", "poddoc"] {
            try makeDocuments(ending)
            let merged = try shellReplacedBetweenAutosaves(ending, then: ["merge", "quit"])
            XCTAssertEqual(merged.status, 0, "\(ending): " + merged.stderr)
            // Both machines' items after "one"; items two copies made at one place come in the
            // order of their ids, the same in every copy.
            let lines = try tree("B.\(ending)").split(separator: "\n").map { String($0.dropFirst(3)) }
            XCTAssertEqual(lines.first, "one", merged.stderr)
            XCTAssertEqual(lines.sorted(), ["mine1", "mine2", "one", "theirs"], merged.stderr)
            XCTAssertLessThan(lines.firstIndex(of: "mine1")!, lines.firstIndex(of: "mine2")!, "mine's own order")
            XCTAssertEqual(try succeed("recover").stdout, "No work is waiting for recovery.\n")
            try succeed("check", path("B.\(ending)"))
            for name in ["A.poddoc", "B.\(ending)", "Theirs.\(ending)", "moved-away-B.\(ending)"] {
                try? FileManager.default.removeItem(atPath: path(name))
            }
        }
    }

    /// Two users of one archive in a shared folder (each with a home and state folder of its
    /// own, so each its own working copy): the lock beside the archive keeps the second out
    /// while the first edits, names the holder, and goes when the first closes.
    func testTwoUsersOfOneArchiveAreKeptApartByTheLockBesideIt() throws {
        try succeed("new", path("S.tar.zst"), "--kind", "outline")
        try succeed("outline", "add", path("S.tar.zst"), "base")
        let input = Pipe()
        let (first, _, firstErr) = try start(["open", path("S.tar.zst"), "--autosave-interval", "0.2"], stdin: input.fileHandleForReading)
        input.fileHandleForWriting.write(Data("add first\n".utf8))
        XCTAssertTrue(firstErr.wait(for: "autosaved S.tar.zst"), firstErr.current)
        let lockFile = path(".S.tar.zst.poddoc-lock")
        XCTAssertTrue(FileManager.default.fileExists(atPath: lockFile), "the lock is beside the archive, where every user sees it")

        let firstUser = environment
        environment["HOME"] = path("second-home")
        environment["XDG_STATE_HOME"] = path("second-state")
        let refused = try fail(75, "outline", "add", path("S.tar.zst"), "second")
        XCTAssertTrue(refused.stderr.contains("is open in another process") && refused.stderr.contains(lockFile), refused.stderr)
        XCTAssertTrue(refused.stderr.contains("pid \(first.processIdentifier)"), refused.stderr)

        environment = firstUser
        try input.fileHandleForWriting.close()
        first.waitUntilExit()
        XCTAssertEqual(first.terminationStatus, 0, firstErr.current)
        XCTAssertFalse(FileManager.default.fileExists(atPath: lockFile), "closing removes the lock beside the archive")

        environment["HOME"] = path("second-home")
        environment["XDG_STATE_HOME"] = path("second-state")
        try succeed("outline", "add", path("S.tar.zst"), "second")
        XCTAssertEqual(try tree("S.tar.zst"), "1. base\n2. first\n3. second\n")
    }

    /// Two real users (root and `nobody`, through `setpriv`) in a folder both may write: each
    /// is kept out while the other edits, whoever made the lock file.
    func testTwoRealUsersShareTheLockBesideTheArchive() throws {
        guard geteuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") else {
            throw XCTSkip("needs root and setpriv to act as a second user")
        }
        let binary = try Self.binary().path
        let shared = path("shared")
        try FileManager.default.createDirectory(atPath: shared, withIntermediateDirectories: true)
        for folder in [folder.path, shared] { chmod(folder, 0o777) }
        /// `poddoc` as `nobody`, with a home and state folder of its own.
        func asNobody(_ arguments: [String], input: FileHandle? = nil) throws -> Process {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
            process.arguments = ["--reuid=65534", "--regid=65534", "--clear-groups", binary] + arguments
            var environment = self.environment
            environment["HOME"] = path("nobody-home")
            environment["XDG_STATE_HOME"] = path("nobody-state")
            process.environment = environment
            process.standardInput = input ?? FileHandle.nullDevice
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            return process
        }
        let probe = try asNobody(["--version"])
        probe.waitUntilExit()
        guard probe.terminationStatus == 0 else { throw XCTSkip("nobody cannot run \(binary) here") }

        let document = shared + "/S.tar.zst"
        try succeed("new", document, "--kind", "outline")
        chmod(document, 0o666)
        let input = Pipe()
        let (rootShell, _, rootErr) = try start(["open", document, "--autosave-interval", "0.2"], stdin: input.fileHandleForReading)
        input.fileHandleForWriting.write(Data("add root\n".utf8))
        XCTAssertTrue(rootErr.wait(for: "autosaved S.tar.zst"), rootErr.current)
        let refused = try asNobody(["outline", "add", document, "refused"])
        refused.waitUntilExit()
        XCTAssertEqual(refused.terminationStatus, 75, "nobody is kept out while root edits")
        try input.fileHandleForWriting.close()
        rootShell.waitUntilExit()
        XCTAssertEqual(rootShell.terminationStatus, 0, rootErr.current)

        let nobodyInput = Pipe()
        let nobodyShell = try asNobody(["open", document, "--autosave-interval", "0"], input: nobodyInput.fileHandleForReading)
        nobodyInput.fileHandleForWriting.write(Data("add nobody\n".utf8))
        let lockFile = shared + "/.S.tar.zst.poddoc-lock"
        let deadline = Date().addingTimeInterval(30)
        while (try? DocumentLockRecord.owner(of: lockFile)) != 65534 && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        XCTAssertEqual(try DocumentLockRecord.owner(of: lockFile), 65534, "nobody made the lock file")
        try fail(75, "outline", "add", document, "refused")
        try nobodyInput.fileHandleForWriting.close()
        nobodyShell.waitUntilExit()
        XCTAssertEqual(nobodyShell.terminationStatus, 0)
        try succeed("outline", "add", document, "root again")
        XCTAssertEqual(try succeed("outline", "tree", document).stdout, "1. root\n2. nobody\n3. root again\n")
    }

    /// A lock left by a process that died is taken over; one that names another machine (a
    /// sync tool brought it) is respected, with a message saying how to break it.
    func testStaleLocksBesideAnArchiveAreRecognised() throws {
        try succeed("new", path("S.tar.zst"), "--kind", "outline")
        let lockFile = path(".S.tar.zst.poddoc-lock")
        try crashAfterAutosave(path("S.tar.zst"), typing: "add crashed\n")
        XCTAssertTrue(FileManager.default.fileExists(atPath: lockFile), "a killed editor leaves its record")
        try succeed("recover", path("S.tar.zst"), "--keep-mine")
        XCTAssertEqual(try tree("S.tar.zst"), "1. crashed\n")

        let elsewhere =
            #"{"acquiredAt":"2026-01-02T03:04:05Z","host":"laptop-far-away","pid":4242,"toolVersion":"poddoc 0.1.0","user":"ann"}"#
        try Data(elsewhere.utf8).write(to: URL(fileURLWithPath: lockFile))
        let before = try runTool("/usr/bin/sha256sum", [path("S.tar.zst")]).stdout
        let refused = try fail(75, "outline", "add", path("S.tar.zst"), "x")
        XCTAssertTrue(
            refused.stderr.contains("laptop-far-away") && refused.stderr.contains("another machine")
                && refused.stderr.contains("remove '\(lockFile)'"), refused.stderr)
        XCTAssertEqual(try runTool("/usr/bin/sha256sum", [path("S.tar.zst")]).stdout, before, "the refused edit wrote nothing")
        try FileManager.default.removeItem(atPath: lockFile)
        try succeed("outline", "add", path("S.tar.zst"), "x")
        XCTAssertEqual(try tree("S.tar.zst"), "1. crashed\n2. x\n")
    }

    /// An archive edited through a symbolic link: the link stays a link, the edit lands in the
    /// target, and the target's lock keeps a shell on the real path and an edit through the
    /// link apart.
    func testAnArchiveEditedThroughALinkIsWrittenToItsTarget() throws {
        try FileManager.default.createDirectory(atPath: path("real"), withIntermediateDirectories: true)
        try succeed("new", path("real/S.tar.zst"), "--kind", "outline")
        try FileManager.default.createSymbolicLink(atPath: path("L.tar.zst"), withDestinationPath: "real/S.tar.zst")
        try succeed("outline", "add", path("L.tar.zst"), "via the link")
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: path("L.tar.zst")), "real/S.tar.zst")
        XCTAssertEqual(try tree("real/S.tar.zst"), "1. via the link\n")

        let input = Pipe()
        let (shell, out, err) = try start(["open", path("real/S.tar.zst")], stdin: input.fileHandleForReading)
        input.fileHandleForWriting.write(Data("tree\n".utf8))
        XCTAssertTrue(out.wait(for: "1. via the link"), err.current)
        try fail(75, "outline", "add", path("L.tar.zst"), "while open")
        try input.fileHandleForWriting.close()
        shell.waitUntilExit()
        XCTAssertEqual(shell.terminationStatus, 0, err.current)
        try succeed("outline", "add", path("L.tar.zst"), "after")
        XCTAssertEqual(try tree("L.tar.zst"), "1. via the link\n2. after\n")
        XCTAssertEqual(try succeed("recover").stdout, "No work is waiting for recovery.\n")
    }

    /// Any name the file system allows (255 bytes, in ASCII or in two-byte letters) can be
    /// created, edited, saved as a copy and recovered: working copies and locks get names that
    /// fit.
    func testArchivesWithTheLongestNamesCanBeEdited() throws {
        for name in [String(repeating: "n", count: 247) + ".tar.zst", String(repeating: "é", count: 123) + ".tar.zst"] {
            XCTAssertGreaterThanOrEqual(name.utf8.count, 254, "as long as a name can be")
            try succeed("new", path(name), "--kind", "outline")
            try succeed("outline", "add", path(name), "hello")
            try crashAfterAutosave(path(name), typing: "add \"autosaved\"\n")
            try succeed("recover", path(name), "--keep-mine")
            XCTAssertEqual(try tree(name), "1. hello\n2. autosaved\n")
            try succeed("check", path(name))
            try FileManager.default.removeItem(atPath: path(name))
        }
    }
}

/// The owner of a lock file, read with `stat`.
private enum DocumentLockRecord {
    static func owner(of path: String) throws -> uid_t {
        var info = stat()
        guard stat(path, &info) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        return info.st_uid
    }
}
