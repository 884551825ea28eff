import Foundation
import Glibc
import PodDocTesting
import XCTest

/// `poddoc open`: the shell through standard input, `-c`, and a pseudo-terminal; autosave,
/// SIGKILL and SIGTERM; recovery of an archive's autosaved work.
final class ShellTests: CommandLineTestCase {
    /// The shells' standard inputs, kept open until the test ends (closing one is Ctrl-D).
    private var inputs: [Pipe] = []

    /// A shell kept running on a new document of `kind`, with `lines` typed on its standard input.
    private func openShell(
        _ name: String, kind: String = "outline", autosave: String, typing lines: String
    )
        throws -> (document: String, shell: Process, stdout: OutputCollector, stderr: OutputCollector)
    {
        let doc = path(name)
        try succeed("new", doc, "--kind", kind)
        let input = Pipe()
        let (shell, out, errors) = try start(["open", doc, "--autosave-interval", autosave], stdin: input.fileHandleForReading)
        input.fileHandleForWriting.write(Data(lines.utf8))
        inputs.append(input)
        return (doc, shell, out, errors)
    }

    func testScriptOnStandardInputWithUndoAndRedo() throws {
        let doc = path("Notes.poddoc")
        try succeed("new", doc, "--kind", "outline")
        let result = try succeed(
            "open", doc, "--autosave-interval", "0",
            input: """
                add Groceries
                add Milk --under 1   # a comment
                add "Rye bread" --under /Groceries; add Work
                undo
                undo
                redo
                cd 1
                ls
                cd ..
                tree
                status

                """)
        XCTAssertEqual(result.stderr, "")
        XCTAssertEqual(
            result.stdout,
            """
            Add "Groceries" (1)
            Add "Milk" (1.1)
            Add "Rye bread" (1.2)
            Add "Work" (2)
            Undid Add "Work"
            Undid Add "Rye bread"
            Redid Add "Rye bread"
            1.1. Milk
            1.2. Rye bread
            1. Groceries
              1. Milk
              2. Rye bread
            \(doc) (outline): normal, unsaved changes, save 0
              last autosave: none yet
              undo: Add "Rye bread"
              redo: Add "Work"

            """)
        XCTAssertEqual(
            try succeed("outline", "tree", doc).stdout, "1. Groceries\n  1. Milk\n  2. Rye bread\n", "Ctrl-D (end of input) saved")
    }

    func testCommandListAndFailuresInAScript() throws {
        let doc = path("Notes.poddoc")
        try succeed("new", doc, "--kind", "outline")
        let result = try run(["open", doc, "-c", "add A; rm 9; frobnicate; add B --under 1; quit; add Never"])
        XCTAssertEqual(result.status, 65, "the status of the first failure")
        XCTAssertEqual(result.stderr.split(separator: "\n").count, 2, result.stderr)
        XCTAssertTrue(result.stderr.contains("Unknown command 'frobnicate'"), result.stderr)
        XCTAssertEqual(try succeed("outline", "tree", doc).stdout, "1. A\n  1. B\n")
    }

    /// Redo of an add after a save: the item is listed under its parent again, and moving it
    /// works (the redone item pointed to its parent's temporary ID from before the save).
    func testRedoAfterASaveListsTheItem() throws {
        let doc = path("Notes.poddoc")
        try succeed("new", doc, "--kind", "outline")
        let result = try run(["open", doc, "-c", "add A; add W; undo; save; redo; ls; mv 2 --under 1"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.contains("1. A\n2. W\n"), result.stdout)
        XCTAssertEqual(try succeed("outline", "tree", doc).stdout, "1. A\n  1. W\n")
    }

    func testPodsShell() throws {
        let doc = path("Specs.poddoc")
        try succeed("new", doc, "--kind", "pods")
        let result = try run([
            "open", doc, "-c",
            "import --from \(Self.sampleSpecs); count AF; show AFJSONRPCClient 0.4.0; search \"json rpc\" --limit 1; undo; cd 1",
        ])
        XCTAssertEqual(result.status, 64, "cd is refused in a pods document: \(result.stderr)")
        XCTAssertTrue(result.stdout.contains("Imported 300 specs"), result.stdout)
        XCTAssertTrue(result.stdout.contains("AFJSONRPCClient 0.4.0\n"), result.stdout)
        XCTAssertTrue(result.stdout.contains("Nothing to undo."), result.stdout)
        XCTAssertTrue(result.stderr.contains("cd moves between outline items"), result.stderr)
        XCTAssertEqual(try succeed("pods", "count", doc, "--json").json(CountShape.self).count, 300, "quitting saved the import")
    }

    func testAutosavedEditsSurviveSIGKILL() throws {
        let (doc, shell, _, errors) = try openShell("Notes.poddoc", autosave: "0.2", typing: "add Groceries\nadd Milk --under 1\n")
        XCTAssertTrue(errors.wait(for: "autosaved Notes.poddoc"), "an autosave line: \(errors.current)")
        kill(shell.processIdentifier, SIGKILL)
        shell.waitUntilExit()
        XCTAssertEqual(shell.terminationReason, .uncaughtSignal)
        XCTAssertEqual(try succeed("outline", "tree", doc).stdout, "1. Groceries\n  1. Milk\n")
        XCTAssertTrue(try succeed("check", doc).stdout.contains(": ok"))
    }

    func testSIGTERMSavesAndCloses() throws {
        let (doc, shell, out, errors) = try openShell("Notes.poddoc", autosave: "0", typing: "add Unsaved\n")
        XCTAssertTrue(out.wait(for: "Add \"Unsaved\""))
        shell.terminate()
        shell.waitUntilExit()
        XCTAssertEqual(shell.terminationStatus, 143, errors.current)
        XCTAssertTrue(errors.current.contains("received SIGTERM; saving and closing"), errors.current)
        XCTAssertEqual(try succeed("outline", "tree", doc).stdout, "1. Unsaved\n")
    }

    /// SIGTERM or SIGHUP while commands are still queued on standard input: the shell reads and
    /// runs none after the signal, saves every edit it reported, and exits 143 or 129.
    func testASignalStopsReadingCommandsAndSavesEveryReportedEdit() throws {
        for (signal, status) in [(SIGTERM, Int32(143)), (SIGHUP, Int32(129))] {
            let name = "Queued\(signal).poddoc.tar.zst"
            let commands = path("commands-\(signal).txt")
            try Data((0..<20_000).map { "add n\($0)\n" }.joined().utf8).write(to: URL(fileURLWithPath: commands))
            let doc = path(name)
            try succeed("new", doc, "--kind", "outline")
            let (shell, out, errors) = try start(
                ["open", doc, "--autosave-interval", "0.1"], stdin: FileHandle(forReadingAtPath: commands))
            XCTAssertTrue(out.wait(for: "Add \"n50\""), errors.current)
            kill(shell.processIdentifier, signal)
            shell.waitUntilExit()
            out.waitForEnd()
            errors.waitForEnd()
            XCTAssertEqual(shell.terminationStatus, status, errors.current)
            let reported = out.current.split(separator: "\n").filter { $0.hasPrefix("Add \"n") }.count
            XCTAssertLessThan(reported, 20_000, "the signal came before the last command")
            let tree = try succeed("outline", "tree", doc).stdout.split(separator: "\n")
            XCTAssertEqual(tree.count, reported, "every reported edit is saved, and no other: \(errors.current)")
            XCTAssertEqual(tree.last.map(String.init), "\(reported). n\(reported - 1)")
            XCTAssertEqual(try succeed("recover").stdout, "No work is waiting for recovery.\n")
        }
    }

    /// SIGTERM while an import waits on a server: the import stops, the shell says which
    /// command did not finish and how to resume it, saves, and exits 143.
    func testSIGTERMDuringAnImportSaysWhatWasNotDone() throws {
        let listener = try LoopbackSocket(listening: true)
        defer { listener.close() }
        let doc = path("Specs.poddoc")
        try succeed("new", doc, "--kind", "pods")
        let url = "http://127.0.0.1:\(listener.port)/specs"
        let input = Pipe()
        inputs.append(input)
        let (shell, _, errors) = try start(["open", doc, "--autosave-interval", "0"], stdin: input.fileHandleForReading)
        input.fileHandleForWriting.write(Data("import --from \(url)\nadd never\n".utf8))
        // The import is under way once it has connected.
        var waiting = pollfd(fd: listener.descriptor, events: Int16(POLLIN), revents: 0)
        XCTAssertEqual(poll(&waiting, 1, 30_000), 1, "the import connects")
        let connection = accept(listener.descriptor, nil, nil)
        defer { close(connection) }
        shell.terminate()
        shell.waitUntilExit()
        errors.waitForEnd()
        XCTAssertEqual(shell.terminationStatus, 143, errors.current)
        XCTAssertTrue(
            errors.current.contains("SIGTERM stopped `import --from \(url)` before it finished")
                && errors.current.contains("`import --from \(url) --resume` goes on"), errors.current)
        XCTAssertFalse(errors.current.contains("Unknown command"), "the line after the import is not run: \(errors.current)")
        XCTAssertEqual(try succeed("pods", "count", doc).stdout, "0 specs\n")
    }

    func testArchiveWorkIsRecoveredAfterACrash() throws {
        let (doc, shell, _, errors) = try openShell("Notes.poddoc.tar.zst", autosave: "0.2", typing: "add \"Autosaved elsewhere\"\n")
        XCTAssertTrue(errors.wait(for: "autosaved"), errors.current)
        kill(shell.processIdentifier, SIGKILL)
        shell.waitUntilExit()

        let waiting = try succeed("recover", "--json").json(RecoverShape.self)
        XCTAssertEqual(waiting.waiting.map(\.document), [URL(fileURLWithPath: doc).standardizedFileURL.path])
        let info = try succeed("info", doc, "--json").json(InfoShape.self)
        XCTAssertNotNil(info.recovery)
        // Reading reads the archive as it is on disk, and says what waits; --recover reads that.
        let read = try succeed("outline", "tree", doc)
        XCTAssertEqual(read.stdout, "")
        XCTAssertTrue(read.stderr.contains("waits for recovery"), read.stderr)
        XCTAssertEqual(try succeed("outline", "tree", doc, "--recover").stdout, "1. Autosaved elsewhere\n")
        XCTAssertEqual(try succeed("recover", doc, "--json").json(RecoverShape.self).recovered, doc)
        XCTAssertEqual(try succeed("outline", "tree", doc).stdout, "1. Autosaved elsewhere\n")
        XCTAssertEqual(try succeed("recover", "--json").json(RecoverShape.self).waiting.count, 0)
    }

    func testTerminalSessionWithPromptAndLineEditing() throws {
        let doc = path("Notes.poddoc")
        try succeed("new", doc, "--kind", "outline")
        let (process, screen, keyboard) = try startOnTerminal(["open", doc, "--autosave-interval", "0"])

        XCTAssertTrue(screen.wait(for: "Notes.poddoc> "), "the prompt: \(screen.current)")
        keyboard.write(Data("add Grocerx\u{7F}ies\r".utf8))  // a typo, erased with backspace
        XCTAssertTrue(screen.wait(for: "Add \"Groceries\" (1)"), screen.current)
        XCTAssertTrue(screen.wait(for: "Notes.poddoc*> "), "the unsaved mark: \(screen.current)")
        keyboard.write(Data("cd 1\r".utf8))
        XCTAssertTrue(screen.wait(for: "Notes.poddoc* 1> "), screen.current)
        keyboard.write(Data("\u{04}".utf8))  // Ctrl-D saves and quits
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, screen.current)
        XCTAssertEqual(try succeed("outline", "tree", doc).stdout, "1. Groceries\n")
    }

    /// Types `quit` into a shell on a terminal and checks it saved and left with the outline
    /// holding `tree`.
    private func quit(
        _ process: Process, _ keyboard: FileHandle, _ screen: OutputCollector, leaving doc: String, holding tree: String,
        file: StaticString = #filePath, line: UInt = #line
    ) throws {
        keyboard.write(Data("quit\r".utf8))
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, screen.current, file: file, line: line)
        XCTAssertEqual(try succeed("outline", "tree", doc).stdout, tree, file: file, line: line)
    }

    /// An autosave reported while a line is being typed goes above it, and the prompt (now
    /// without the unsaved mark) and the line typed so far are drawn again below, through
    /// libedit's own redisplay.
    func testAnAutosaveLineRedrawsThePromptAndTheLineBeingTyped() throws {
        let doc = path("Notes.poddoc")
        try succeed("new", doc, "--kind", "outline")
        let (process, screen, keyboard) = try startOnTerminal(["open", doc, "--autosave-interval", "1"])
        XCTAssertTrue(screen.wait(for: "Notes.poddoc> "), screen.current)
        keyboard.write(Data("add Groceries\r".utf8))
        XCTAssertTrue(screen.wait(for: "Notes.poddoc*> "), screen.current)
        keyboard.write(Data("add Mil".utf8))
        XCTAssertTrue(screen.wait(for: "autosaved Notes.poddoc (save 1)"), screen.current)
        let redrawn = screen.wait(for: "Notes.poddoc> add Mil")
        let afterAutosave = screen.current.components(separatedBy: "autosaved Notes.poddoc (save 1)").last ?? ""
        XCTAssertTrue(redrawn && afterAutosave.contains("Notes.poddoc> add Mil"), "redrawn below: \(screen.current.debugDescription)")
        keyboard.write(Data("k\r".utf8))
        XCTAssertTrue(screen.wait(for: "Add \"Milk\" (2)"), screen.current)
        try quit(process, keyboard, screen, leaving: doc, holding: "1. Groceries\n2. Milk\n")
    }

    /// Ctrl-C at the first prompt, before any command ran, is a hint, not the end of the
    /// shell; the line being typed stays.
    func testCtrlCAtTheFirstPromptIsAHint() throws {
        let doc = path("Notes.poddoc")
        try succeed("new", doc, "--kind", "outline")
        let (process, screen, keyboard) = try startOnTerminal(["open", doc, "--autosave-interval", "0"])
        XCTAssertTrue(screen.wait(for: "Notes.poddoc> "), screen.current)
        keyboard.write(Data("add Gro".utf8))
        XCTAssertTrue(screen.wait(for: "add Gro"), screen.current)
        kill(process.processIdentifier, SIGINT)
        XCTAssertTrue(screen.wait(for: "(type quit or press Ctrl-D to save and leave)"), screen.current)
        keyboard.write(Data("ceries\r".utf8))
        XCTAssertTrue(screen.wait(for: "Add \"Groceries\" (1)"), screen.current)
        try quit(process, keyboard, screen, leaving: doc, holding: "1. Groceries\n")
    }

    func testCtrlCCancelsTheRunningCommandNotTheShell() throws {
        // A server that accepts connections and never answers: the import waits on it.
        let listener = try LoopbackSocket(listening: true)
        defer { listener.close() }
        let port = listener.port
        let doc = path("Specs.poddoc")
        try succeed("new", doc, "--kind", "pods")
        let (process, screen, keyboard) = try startOnTerminal(["open", doc, "--autosave-interval", "0"])
        XCTAssertTrue(screen.wait(for: "Specs.poddoc> "), screen.current)
        keyboard.write(Data("import --from http://127.0.0.1:\(port)/specs\r".utf8))
        Thread.sleep(forTimeInterval: 0.5)
        // Ctrl-C: the signal the terminal sends (Process does not make the pseudo-terminal the
        // child's controlling terminal, so typing \u{03} would only echo ^C).
        kill(process.processIdentifier, SIGINT)
        XCTAssertTrue(screen.wait(for: "Interrupted"), screen.current)
        XCTAssertTrue(screen.wait(for: "Specs.poddoc> ", count: 2), "the shell goes on: \(screen.current)")
        keyboard.write(Data("count\r".utf8))
        XCTAssertTrue(screen.wait(for: "0 specs"), screen.current)
        keyboard.write(Data("quit\r".utf8))
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, screen.current)
    }

    func testAnImportInTheShellIsSavedAndUndoTakesItOutAgain() throws {
        let source = try writeOPML("in.opml", body: [#"<outline text="a"><outline text="a1"/></outline>"#, #"<outline text="b"/>"#])
        let doc = path("U.poddoc")
        try succeed("new", doc, "--kind", "outline")
        let result = try succeed(
            "open", doc, "--autosave-interval", "0",
            input: "add first\nimport --opml \(source)\nls\nundo\nls\nredo\nundo\nquit\n")
        XCTAssertEqual(
            result.stdout,
            """
            Add "first" (1)
            Import 3 items from in.opml (2 at the top).
            1. first
            2. a
            3. b
            Undid Import 3 items
            1. first
            Redid Import 3 items
            Undid Import 3 items

            """)
        XCTAssertEqual(try succeed("outline", "tree", doc).stdout, "1. first\n", "quitting saved the undo")
        let again = try succeed("open", doc, "--autosave-interval", "0", input: "import --opml \(source)\nundo\nredo\nquit\n")
        XCTAssertTrue(again.stdout.contains("Redid Import 3 items"), again.stdout)
        XCTAssertEqual(try succeed("outline", "tree", doc).stdout, "1. first\n2. a\n  1. a1\n3. b\n")
    }
}
