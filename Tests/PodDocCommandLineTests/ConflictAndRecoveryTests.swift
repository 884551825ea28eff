import Foundation
import Glibc
import XCTest

/// Archives changed behind an open shell, saves that fail, and work recovered after a crash,
/// through the real binary: the shell offers the three choices, `save --as` always works, a
/// quit that cannot save keeps the edits where `recover` finds them, and recovered work never
/// silently overwrites another writer's.
final class ConflictAndRecoveryTests: CommandLineTestCase {
    /// `B.zip` (one item) and `Theirs.zip` (the same document as someone else saved it, with a
    /// second item).
    private func makeArchives() throws {
        try makeDocuments("zip")
    }

    /// Opens `B.zip` (or `B.<ending>`) in a shell, replaces it from outside with `Theirs`
    /// (a package: the whole folder, as a sync tool or `rm -r; cp -r` does), then feeds
    /// `commands`.
    private func shellMeetingAConflict(
        _ commands: [String], autosave: String = "0", ending: String = "zip"
    ) throws -> (status: Int32, stdout: String, stderr: String) {
        let input = Pipe()
        let (shell, out, err) = try start(
            ["open", path("B.\(ending)"), "--autosave-interval", autosave], stdin: input.fileHandleForReading)
        input.fileHandleForWriting.write(Data("tree\n".utf8))
        XCTAssertTrue(out.wait(for: "1. one"), err.current)
        try FileManager.default.removeItem(atPath: path("B.\(ending)"))
        try FileManager.default.copyItem(atPath: path("Theirs.\(ending)"), toPath: path("B.\(ending)"))
        for command in commands { input.fileHandleForWriting.write(Data((command + "\n").utf8)) }
        try input.fileHandleForWriting.close()
        shell.waitUntilExit()
        out.waitForEnd()
        err.waitForEnd()
        return (shell.terminationStatus, out.current, err.current)
    }

    func testSaveAsIsTheWayOutOfAConflict() throws {
        try makeArchives()
        let shell = try shellMeetingAConflict([#"add "my edit""#, "save", "save --as \(path("C.zip"))", #"add "after""#, "quit"])
        XCTAssertTrue(shell.stderr.contains("changed on disk by someone else"), shell.stderr)
        XCTAssertTrue(shell.stderr.contains("Choose: merge theirs into yours and save, keep mine"), shell.stderr)
        XCTAssertTrue(shell.stdout.contains("Saved as"), shell.stdout + shell.stderr)
        XCTAssertEqual(try tree("C.zip"), "1. one\n2. my edit\n3. after\n")
        XCTAssertEqual(try tree("B.zip"), "1. one\n2. theirs\n", "theirs is untouched")
    }

    func testKeepMineAndTakeTheirs() throws {
        try makeArchives()
        let kept = try shellMeetingAConflict([#"add "mine""#, "keep-mine", "quit"])
        XCTAssertEqual(kept.status, 0, kept.stderr)
        XCTAssertEqual(try tree("B.zip"), "1. one\n2. mine\n")

        try FileManager.default.removeItem(atPath: path("B.zip"))
        try succeed("save", path("A.poddoc"), "--as", path("B.zip"))
        let taken = try shellMeetingAConflict([#"add "mine""#, "take-theirs", "tree", "quit"])
        XCTAssertEqual(taken.status, 0, taken.stderr)
        XCTAssertTrue(taken.stdout.contains("Reloaded B.zip from disk"), taken.stdout)
        XCTAssertEqual(try tree("B.zip"), "1. one\n2. theirs\n")
    }

    func testMergeTakesTheirsIntoYoursAndSavesOverIt() throws {
        for ending in ["zip", "poddoc"] {
            for name in ["A.poddoc", "B.\(ending)", "Theirs.\(ending)"] { try? FileManager.default.removeItem(atPath: path(name)) }
            try makeDocuments(ending)
            let merged = try shellMeetingAConflict([#"add "mine""#, "merge", "tree", "quit"], ending: ending)
            XCTAssertEqual(merged.status, 0, merged.stderr)
            XCTAssertTrue(merged.stdout.contains("Merged"), merged.stdout)
            XCTAssertTrue(merged.stdout.contains("Saved yours over the copy on disk"), merged.stdout)
            // Both items, after "one": two items made at one place by two copies come in the
            // order of their ids, the same in every copy.
            let tree = try tree("B.\(ending)")
            XCTAssertTrue(["1. one\n2. theirs\n3. mine\n", "1. one\n2. mine\n3. theirs\n"].contains(tree), "\(ending): \(tree)")
            try succeed("check", path("B.\(ending)"))
        }
    }

    func testAQuitThatCannotSaveKeepsTheEditsForRecover() throws {
        try makeArchives()
        let quit = try shellMeetingAConflict([#"add "my edit""#, "quit"])
        XCTAssertEqual(quit.status, 75, quit.stderr)
        XCTAssertTrue(quit.stderr.contains("your edits are kept in the working copy"), quit.stderr)
        XCTAssertTrue(try succeed("recover").stdout.contains(path("B.zip")), "recover lists the waiting work")
        // Recovering would overwrite the other writer: refused, nothing changed.
        let recover = try run(["recover", path("B.zip")])
        XCTAssertEqual(recover.status, 75, recover.stderr)
        XCTAssertTrue(recover.stderr.contains("has changed since this work was autosaved"), recover.stderr)
        XCTAssertEqual(try tree("B.zip"), "1. one\n2. theirs\n")
        // Opened with the waiting work, the conflict is said at once and the user chooses.
        let chosen = try run(["open", path("B.zip"), "--recover", "-c", "tree; keep-mine"])
        XCTAssertEqual(chosen.status, 0, chosen.stderr)
        XCTAssertTrue(chosen.stderr.contains("has changed on disk since this work was autosaved"), chosen.stderr)
        XCTAssertEqual(try tree("B.zip"), "1. one\n2. my edit\n", "keep-mine: the recovered work replaces theirs, by choice")
    }

    /// The same three choices as one-shot commands, on `recover`.
    func testRecoverOffersTheThreeChoices() throws {
        try makeArchives()
        XCTAssertEqual(try shellMeetingAConflict([#"add "my edit""#, "quit"]).status, 75)
        let copy = try succeed("recover", path("B.zip"), "--as", path("Mine.zip"))
        XCTAssertTrue(copy.stdout.contains("is as it was"), copy.stdout)
        XCTAssertEqual(try tree("Mine.zip"), "1. one\n2. my edit\n")
        XCTAssertEqual(try tree("B.zip"), "1. one\n2. theirs\n")
        XCTAssertEqual(try succeed("recover").stdout, "No work is waiting for recovery.\n")

        try FileManager.default.removeItem(atPath: path("B.zip"))
        try succeed("save", path("A.poddoc"), "--as", path("B.zip"))
        XCTAssertEqual(try shellMeetingAConflict([#"add "mine again""#, "quit"]).status, 75)
        try succeed("recover", path("B.zip"), "--keep-mine")
        XCTAssertEqual(try tree("B.zip"), "1. one\n2. mine again\n")

        try FileManager.default.removeItem(atPath: path("B.zip"))
        try succeed("save", path("A.poddoc"), "--as", path("B.zip"))
        XCTAssertEqual(try shellMeetingAConflict([#"add "dropped""#, "quit"]).status, 75)
        try succeed("recover", path("B.zip"), "--discard")
        XCTAssertEqual(try tree("B.zip"), "1. one\n2. theirs\n")
        let both = try run(["recover", path("B.zip"), "--discard", "--keep-mine"])
        XCTAssertEqual(both.status, 64)
        XCTAssertTrue(
            both.stderr.hasPrefix("poddoc: Choose one of --discard, --keep-mine and --as") && both.stderr.split(separator: "\n").count == 1,
            both.stderr)
    }

    // MARK: Packages

    /// A package replaced behind an open shell: the shell's store connection still holds the
    /// old, unlinked file, so its version must be copied from that connection, never from the
    /// path (which is theirs now); `keep-mine` must leave a whole, healthy package.
    func testAPackageReplacedBehindTheShellOffersTheThreeChoices() throws {
        try makeDocuments("poddoc")
        let saved = try shellMeetingAConflict(
            [#"add "my edit""#, "save", "save --as \(path("C.poddoc"))", #"add "after""#, "quit"], ending: "poddoc")
        XCTAssertEqual(saved.status, 75, "the refused save is the shell's first failure: " + saved.stderr)
        XCTAssertTrue(saved.stderr.contains("changed on disk by someone else"), saved.stderr)
        XCTAssertTrue(saved.stdout.contains("Saved as"), saved.stdout + saved.stderr)
        XCTAssertEqual(try tree("C.poddoc"), "1. one\n2. my edit\n3. after\n")
        XCTAssertEqual(try tree("B.poddoc"), "1. one\n2. theirs\n", "theirs is untouched")
        for document in ["B.poddoc", "C.poddoc"] { try succeed("check", path(document)) }
        XCTAssertEqual(try succeed("recover").stdout, "No work is waiting for recovery.\n")

        try replace("B.poddoc", with: "A.poddoc")
        let kept = try shellMeetingAConflict([#"add "mine""#, "keep-mine", #"add "later""#, "quit"], ending: "poddoc")
        XCTAssertEqual(kept.status, 0, kept.stderr)
        XCTAssertEqual(try tree("B.poddoc"), "1. one\n2. mine\n3. later\n")
        try succeed("check", path("B.poddoc"))

        try replace("B.poddoc", with: "A.poddoc")
        let taken = try shellMeetingAConflict([#"add "mine""#, "take-theirs", "quit"], ending: "poddoc")
        XCTAssertEqual(taken.status, 0, taken.stderr)
        XCTAssertEqual(try tree("B.poddoc"), "1. one\n2. theirs\n")
        XCTAssertEqual(try succeed("recover").stdout, "No work is waiting for recovery.\n")
    }

    /// A quit in conflict keeps the package's version in a working copy; writing commands
    /// then refuse to edit the package until the user chooses, and `recover` offers the three
    /// choices.
    func testAPackageConflictKeepsYourVersionForRecover() throws {
        try makeDocuments("poddoc")
        let quit = try shellMeetingAConflict([#"add "my edit""#, "quit"], ending: "poddoc")
        XCTAssertEqual(quit.status, 75, quit.stderr)
        XCTAssertTrue(quit.stderr.contains("your edits are kept in the working copy"), quit.stderr)
        XCTAssertEqual(try tree("B.poddoc"), "1. one\n2. theirs\n")
        XCTAssertTrue(try succeed("recover").stdout.contains(path("B.poddoc")), "recover lists the waiting version")
        let edit = try run(["outline", "add", path("B.poddoc"), "x"])
        XCTAssertNotEqual(edit.status, 0)
        XCTAssertTrue(edit.stderr.contains("your version") && edit.stderr.contains("waits in"), edit.stderr)
        let recover = try run(["recover", path("B.poddoc")])
        XCTAssertEqual(recover.status, 75, recover.stderr)
        XCTAssertEqual(try tree("B.poddoc"), "1. one\n2. theirs\n")

        try succeed("recover", path("B.poddoc"), "--as", path("Mine.poddoc"))
        XCTAssertEqual(try tree("Mine.poddoc"), "1. one\n2. my edit\n")
        XCTAssertEqual(try tree("B.poddoc"), "1. one\n2. theirs\n")

        try replace("B.poddoc", with: "A.poddoc")
        XCTAssertEqual(try shellMeetingAConflict([#"add "mine again""#, "quit"], ending: "poddoc").status, 75)
        try succeed("recover", path("B.poddoc"), "--keep-mine")
        XCTAssertEqual(try tree("B.poddoc"), "1. one\n2. mine again\n")
        try succeed("check", path("B.poddoc"))

        try replace("B.poddoc", with: "A.poddoc")
        XCTAssertEqual(try shellMeetingAConflict([#"add "dropped""#, "quit"], ending: "poddoc").status, 75)
        try succeed("recover", path("B.poddoc"), "--discard")
        XCTAssertEqual(try tree("B.poddoc"), "1. one\n2. theirs\n")
        try succeed("outline", "add", path("B.poddoc"), "edits again")
        XCTAssertEqual(try succeed("recover").stdout, "No work is waiting for recovery.\n")
    }

    /// Puts a copy of `source` at `name`, replacing what is there.
    private func replace(_ name: String, with source: String) throws {
        try FileManager.default.removeItem(atPath: path(name))
        try FileManager.default.copyItem(atPath: path(source), toPath: path(name))
    }

    /// Another user (another state folder, so another lock) edits the archive while this
    /// user's crashed shell has autosaved work waiting: `recover` must not overwrite it.
    func testRecoverNeverOverwritesAnotherWritersSave() throws {
        try makeArchives()
        try crashAfterAutosave(path("B.zip"), typing: "add \"autosaved mine\"\n")

        let mine = environment
        environment["XDG_STATE_HOME"] = path("other-user-state")
        try succeed("outline", "add", path("B.zip"), "the other user's edit")
        environment = mine

        let recover = try run(["recover", path("B.zip")])
        XCTAssertEqual(recover.status, 75, recover.stderr)
        XCTAssertEqual(try tree("B.zip"), "1. one\n2. the other user's edit\n", "the other writer's save stands")
        XCTAssertTrue(try succeed("recover").stdout.contains(path("B.zip")), "and the autosaved work still waits")
    }

    /// A crash after an explicit save re-packed the archive but before `origin.json` recorded
    /// the new archive (found by `poddoc crash-test`): the archive holds exactly the working
    /// copy's save, so recovering is no conflict.
    func testAWriteBackCutShortIsNoConflict() throws {
        try makeArchives()
        let input = Pipe()
        let (shell, out, err) = try start(["open", path("B.zip")], stdin: input.fileHandleForReading)
        input.fileHandleForWriting.write(Data("tree\n".utf8))
        XCTAssertTrue(out.wait(for: "1. one"), err.current)
        let working = path("state/poddoc/working")
        let copy = try XCTUnwrap(try FileManager.default.contentsOfDirectory(atPath: working).first)
        let originFile = URL(fileURLWithPath: "\(working)/\(copy)/origin.json")
        let unpacked = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: originFile)) as? [String: Any])
        input.fileHandleForWriting.write(Data("add \"saved\"\nsave\n".utf8))
        XCTAssertTrue(out.wait(for: "Saved"), out.current + err.current)
        kill(shell.processIdentifier, SIGKILL)
        shell.waitUntilExit()
        // As the crash left it: dirty, still naming the archive as it was before the save.
        var cut = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: originFile)) as? [String: Any])
        cut["dirty"] = true
        cut["archiveStamp"] = unpacked["archiveStamp"]
        try JSONSerialization.data(withJSONObject: cut).write(to: originFile)

        let recover = try run(["recover", path("B.zip")])
        XCTAssertEqual(recover.status, 0, recover.stderr)
        XCTAssertEqual(try tree("B.zip"), "1. one\n2. saved\n")
    }

    func testAFullDiskKeepsTheArchivesUnsavedWorkForRecover() throws {
        // Random text, so the archive cannot compress it below the 3 MB disk.
        var generator = SystemRandomNumberGenerator()
        try writeOPML(
            "big.opml",
            body: (0..<30_000).map { i in
                #"<outline text="item \#(i) \#((0..<16).map { _ in String(generator.next(), radix: 36) }.joined())"/>"#
            })
        let disk = path("full")
        try mount(["-t", "tmpfs", "-o", "size=3m", "tmpfs"], at: disk, why: "a full 3 MB tmpfs")
        let archive = disk + "/N.zip"
        try succeed("new", archive, "--kind", "outline")
        let shell = try run(["open", archive, "-c", "import --opml \(path("big.opml")); quit"])
        XCTAssertEqual(shell.status, 66, shell.stderr)
        XCTAssertTrue(shell.stderr.contains("No space left on device") && shell.stderr.contains("kept in the working copy"), shell.stderr)
        XCTAssertTrue(try succeed("recover").stdout.contains(archive), "recover finds the work")
        try succeed("open", archive, "--recover", "-c", "save --as \(path("N.zip"))")
        XCTAssertEqual(try succeed("outline", "ls", path("N.zip")).stdout.split(separator: "\n").count, 30_000)

        // A one-shot edit whose write-back fails says where its edit waits and how to get it.
        let other = disk + "/M.zip"
        try succeed("new", other, "--kind", "outline")
        let oneShot = try run(["import", other, "--opml", path("big.opml")])
        XCTAssertEqual(oneShot.status, 66, oneShot.stderr)
        XCTAssertTrue(
            oneShot.stderr.contains("The edit is kept for recovery: `poddoc recover \(other)`")
                && oneShot.stderr.contains("--as NEW"), oneShot.stderr)
        try succeed("recover", other, "--as", path("M.zip"))
        XCTAssertEqual(try succeed("outline", "ls", path("M.zip")).stdout.split(separator: "\n").count, 30_000)
    }
}
