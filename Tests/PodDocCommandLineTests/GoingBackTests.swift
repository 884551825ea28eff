import Foundation
import XCTest

/// `export --at N` and `revert --to N`, through the binary: every earlier save of an outline
/// comes back exactly (content and logical hash), reverting is a save that can itself be
/// reverted or undone, an import goes and comes back with its search index, and a save out of
/// reach is refused with nothing changed.
final class GoingBackTests: CommandLineTestCase {
    private struct Info: Decodable { let storeHash: String? }

    /// The content (as JSON) and logical hash of the document now.
    private func state(_ doc: String, at save: Int? = nil) throws -> (content: String, hash: String?) {
        let out = path("state-\(UUID().uuidString).json")
        var arguments = ["export", doc, out, "--format", "json"]
        if let save { arguments += ["--at", String(save)] }
        let result = try run(arguments)
        XCTAssertEqual(result.status, 0, result.stderr)
        defer { try? FileManager.default.removeItem(atPath: out) }
        return (try String(contentsOfFile: out, encoding: .utf8), try succeed("info", doc, "--json").json(Info.self).storeHash)
    }

    private func latestSave(_ doc: String) throws -> Int {
        try succeed("versions", doc, "--json").json(VersionsShape.self).versions.first?.save ?? 0
    }

    func testEveryEarlierSaveOfAnOutlineComesBack() throws {
        let doc = path("Notes.poddoc")
        try succeed("new", doc, "--kind", "outline")
        var states = [0: try state(doc)]
        let edits: [[String]] = [
            ["outline", "add", doc, "Work"],
            ["outline", "add", doc, "Home"],
            ["outline", "add", doc, "Garden", "--under", "2"],
            ["outline", "add", doc, "Shed", "--under", "2"],
            ["outline", "rename", doc, "1", "Office"],
            ["outline", "note", doc, "2.1", "Water the roses"],
            ["outline", "mv", doc, "2.2", "--under", "1"],
            ["outline", "rm", doc, "2"],
            ["open", doc, "-c", "add Plans; add Later; undo; rename 1 Desk; quit"],
        ]
        for edit in edits {
            let result = try run(edit)
            XCTAssertEqual(result.status, 0, "\(edit): \(result.stderr)")
            states[try latestSave(doc)] = try state(doc)
        }
        let final = try XCTUnwrap(states[try latestSave(doc)])
        XCTAssertEqual(states.count, edits.count + 1)

        // Every save, exported as it was: its content exactly; the document itself unchanged.
        let before = try hashes(doc)
        for (save, expected) in states {
            XCTAssertEqual(try state(doc, at: save).content, expected.content, "export --at \(save)")
        }
        XCTAssertEqual(try hashes(doc), before, "export --at only reads the document")

        // Reverting is a save: the content and the logical hash of that save come back.
        let last = try latestSave(doc)
        let reverted = try succeed("revert", doc, "--to", "2", "--json").json(RevertShape.self)
        XCTAssertEqual(reverted.save, 2)
        XCTAssertGreaterThan(reverted.removed + reverted.restored + reverted.changed, 0)
        let afterRevert = try state(doc)
        XCTAssertEqual(afterRevert.content, states[2]!.content)
        XCTAssertEqual(afterRevert.hash, states[2]!.hash, "the same ids and values: the same logical hash")
        let entry = try XCTUnwrap(try succeed("versions", doc, "--json").json(VersionsShape.self).versions.first)
        XCTAssertEqual(entry.save, last + 1)
        XCTAssertEqual(entry.description, "Revert to save 2")
        try succeed("check", doc)

        // And going back to the save before the revert undoes it.
        try succeed("revert", doc, "--to", String(last))
        let restored = try state(doc)
        XCTAssertEqual(restored.content, final.content)
        XCTAssertEqual(restored.hash, final.hash)
        XCTAssertTrue(try succeed("revert", doc, "--to", String(last + 2)).stdout.contains("Nothing to change"))
        try succeed("check", doc)

        // An archive exported at a save holds the history up to it, and opens.
        let archive = path("Notes-at-3.poddoc.tar.zst")
        try succeed("export", doc, archive, "--format", "archive", "--at", "3")
        XCTAssertEqual(try succeed("versions", archive, "--json").json(VersionsShape.self).versions.map(\.save), [3, 2, 1])
        XCTAssertEqual(try state(archive).content, states[3]!.content)
        try succeed("check", archive)
    }

    func testRevertInTheShellIsUndoable() throws {
        let doc = try makeOutline("Notes.poddoc", holding: "Work", "Home", "Garden")
        let tree = try succeed("outline", "tree", doc).stdout
        let out = try succeed("open", doc, "-c", "add Shed; revert --to 1; tree; undo; tree; revert; tree; quit").stdout
        let trees = out.components(separatedBy: "Reverted to save 1")
        XCTAssertEqual(trees.count, 2, out)
        XCTAssertTrue(trees[1].contains("Work"), out)
        XCTAssertFalse(trees[1].prefix(while: { $0 != "U" }).contains("Home"), out)
        XCTAssertTrue(out.contains("Reverted to save 1: 0 objects put back, 0 objects changed back, 3 objects removed."), out)
        XCTAssertTrue(out.contains("Undid Revert to save 1\n1. Work\n2. Home\n3. Garden\n4. Shed\n"), out)
        // `revert --to` saved Shed first (the history describes saves); the undo then left
        // nothing unsaved, so the shell's plain revert changed nothing.
        XCTAssertEqual(try succeed("outline", "tree", doc).stdout, tree + "4. Shed\n")
    }

    func testAnImportGoesAndComesBackWithItsSearchIndex() throws {
        let doc = path("Specs.poddoc")
        try succeed("new", doc, "--kind", "pods")
        try succeed("import", doc, "--from", Self.sampleSpecs)
        let count = try succeed("pods", "count", doc).stdout
        let search = try succeed("pods", "search", doc, "json").stdout
        XCTAssertFalse(search.isEmpty)

        try succeed("revert", doc, "--to", "0")
        XCTAssertTrue(try succeed("pods", "count", doc).stdout.contains("0"), "every imported spec goes")
        try succeed("check", doc)
        try succeed("revert", doc, "--to", "1")
        XCTAssertEqual(try succeed("pods", "count", doc).stdout, count)
        XCTAssertEqual(try succeed("pods", "search", doc, "json").stdout, search, "the search index came back with the specs")
        try succeed("check", doc)
    }

    func testAFullTemporaryFolderFailsCleanly() throws {
        let doc = path("Specs.poddoc")
        try succeed("new", doc, "--kind", "pods")
        try succeed("import", doc, "--from", Self.sampleSpecs)
        let before = try hashes(doc)
        let temporary = path("small-tmp")
        try mount(["-t", "tmpfs", "-o", "size=200k", "tmpfs"], at: temporary, why: "a full temporary folder")
        environment["TMPDIR"] = temporary
        let failure = try fail(66, "export", doc, path("out.json"), "--format", "json", "--at", "1")
        XCTAssertTrue(failure.stderr.contains("set TMPDIR to a folder with room"), failure.stderr)
        XCTAssertTrue(try fail(66, "diff", doc, "--from", "0").stderr.contains("No space left on device"))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: temporary), [], "the copies' folders are gone")
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("out.json")))
        XCTAssertEqual(try hashes(doc), before)
    }

    func testASaveOutOfReachIsRefusedAndChangesNothing() throws {
        let temporary = path("tmp")
        try FileManager.default.createDirectory(atPath: temporary, withIntermediateDirectories: true)
        environment["TMPDIR"] = temporary
        let doc = try makeOutline("Notes.poddoc", holding: "Work", "Home")
        let before = try hashes(doc)
        XCTAssertTrue(try fail(65, "revert", doc, "--to", "99").stderr.contains("poddoc versions"))
        XCTAssertTrue(
            try fail(65, "export", doc, path("out.json"), "--format", "json", "--at", "99").stderr.contains("not in this store's history"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("out.json")))
        try fail(64, "revert", doc, "--to", "-1")
        try fail(64, "revert", doc)
        try fail(64, "export", doc, path("out.json"), "--format", "json", "--at", "-2")
        XCTAssertEqual(try hashes(doc), before)
        // Nothing left behind in the temporary folder either.
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: temporary), [])
    }
}
