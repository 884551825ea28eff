import Foundation
import XCTest

/// `poddoc merge`, through the binary: two copies of an outline edited apart come back
/// together (both ways to the same logical hash), merging again changes nothing, conflicts are
/// listed with nothing changed until `--prefer` resolves them, an item under an item deleted
/// on the other side is put in a stated place, pods imports of different pages combine, copies
/// of other documents are refused, and the shell undoes a merge.
final class MergeTests: CommandLineTestCase {
    private struct Info: Decodable { let storeHash: String? }
    private struct Shape: Decodable {
        struct Conflict: Decodable {
            let kind: String
            let title: String?
            let properties: [String]
            let placedUnder: [String]
        }
        let outcome: String
        let changed: Int
        let conflicts: [Conflict]
        let preferred: String?
        let notes: [String]
    }

    private func hash(_ doc: String) throws -> String? { try succeed("info", doc, "--json").json(Info.self).storeHash }

    /// An outline and an archive copy of it: Work, Home (Garden, Shed), Later.
    private func twoCopies() throws -> (mine: String, theirs: String) {
        let mine = try makeOutline("Notes.poddoc", holding: "Work", "Home", "Later")
        try succeed("outline", "add", mine, "Garden", "--under", "2")
        try succeed("outline", "add", mine, "Shed", "--under", "2")
        let theirs = path("Notes-laptop.poddoc.tar.zst")
        try succeed("export", mine, theirs, "--format", "archive")
        return (mine, theirs)
    }

    func testEditsOfBothCopiesCombineTheSameBothWays() throws {
        let (mine, theirs) = try twoCopies()
        try succeed("outline", "add", mine, "Desk", "--under", "1")
        try succeed("outline", "rename", mine, "1", "Office")
        try succeed("outline", "mv", mine, "2.2", "--under", "1")
        try succeed("outline", "add", theirs, "Roses", "--under", "2.1")
        try succeed("outline", "note", theirs, "2", "the house")
        try succeed("outline", "add", theirs, "Errands")
        try succeed("outline", "rm", theirs, "3")
        let mineBefore = path("Notes-before.poddoc.tar.zst")
        try succeed("export", mine, mineBefore, "--format", "archive")
        let theirsBefore = path("Laptop-before.poddoc.tar.zst")
        try succeed("export", theirs, theirsBefore, "--format", "archive")

        let merged = try succeed("merge", mine, theirs, "--json").json(Shape.self)
        XCTAssertEqual(merged.outcome, "merged")
        XCTAssertEqual(merged.conflicts.count, 0)
        XCTAssertEqual(
            try succeed("outline", "tree", mine).stdout,
            """
            1. Office
              1. Desk
              2. Shed
            2. Home
              1. Garden
                1. Roses
            3. Errands

            """)
        XCTAssertTrue(try succeed("outline", "ls", mine, "--json").stdout.contains("the house"), "the note theirs wrote")
        try succeed("check", mine)
        let versions = try succeed("versions", mine, "--json").json(VersionsShape.self).versions
        XCTAssertEqual(versions.first?.description, "Merge Notes-laptop.poddoc.tar.zst")

        // Again: nothing to do. The other way, from the copies as they were: the same rows.
        XCTAssertTrue(try succeed("merge", mine, theirs).stdout.contains("Nothing to merge"))
        try succeed("merge", theirsBefore, mineBefore)
        XCTAssertEqual(try hash(theirsBefore), try hash(mine))
        // And the copy merged into takes the merge back whole.
        let back = try succeed("merge", theirs, mine).stdout
        XCTAssertTrue(back.contains("Took"), "theirs holds nothing mine lacks: \(back)")
        XCTAssertEqual(try hash(theirs), try hash(mine))
        XCTAssertTrue(try succeed("merge", mine, theirs).stdout.contains("Nothing to merge"))
    }

    func testACopyThatWasNeverEditedTakesTheOthersContentAndIsRecognisedLater() throws {
        // A copy made before any save: neither history holds a save the other does.
        let mine = path("Fresh.poddoc")
        try succeed("new", mine, "--kind", "outline")
        let theirs = path("Fresh-copy.poddoc")
        try succeed("save", mine, "--as", theirs)
        try succeed("outline", "add", theirs, "Work")
        try succeed("outline", "add", theirs, "Home")
        let taken = try succeed("merge", mine, theirs, "--json").json(Shape.self)
        XCTAssertEqual(taken.outcome, "fastForward")
        XCTAssertEqual(try hash(mine), try hash(theirs))
        // Each holds the other now: nothing to merge either way, and nothing twice.
        XCTAssertEqual(try succeed("merge", theirs, mine, "--json").json(Shape.self).outcome, "upToDate")
        XCTAssertEqual(try succeed("merge", mine, theirs, "--json").json(Shape.self).outcome, "upToDate")
        try succeed("outline", "add", mine, "Later")
        try succeed("merge", theirs, mine)
        XCTAssertEqual(try succeed("outline", "tree", theirs).stdout, "1. Work\n2. Home\n3. Later\n")
    }

    func testConflictsAreListedAndChangeNothingUntilResolved() throws {
        let (mine, theirs) = try twoCopies()
        try succeed("outline", "rename", mine, "1", "Office")
        try succeed("outline", "rename", theirs, "1", "Studio")
        try succeed("outline", "note", mine, "3", "soon")
        try succeed("outline", "rm", theirs, "3")
        let mineBefore = path("Notes-before.poddoc.tar.zst")
        try succeed("export", mine, mineBefore, "--format", "archive")
        let theirsBefore = path("Laptop-before.poddoc.tar.zst")
        try succeed("export", theirs, theirsBefore, "--format", "archive")
        let before = try hashes(mine)

        let refused = try fail(75, "merge", mine, theirs)
        XCTAssertTrue(refused.stdout.contains(#"conflict: OutlineItem"#), refused.stdout)
        XCTAssertTrue(refused.stdout.contains(#""Office": title: mine "Office", theirs "Studio""#), refused.stdout)
        XCTAssertTrue(refused.stdout.contains(#""Later": changed here (note), deleted in the other copy"#), refused.stdout)
        XCTAssertTrue(refused.stderr.contains("--prefer mine or --prefer theirs"), refused.stderr)
        XCTAssertFalse(refused.stdout.contains("modified"), "a change time alone is no conflict: \(refused.stdout)")
        let listed = try fail(75, "merge", mine, theirs, "--json")
        let shape = try JSONDecoder().decode(Shape.self, from: Data(listed.stdout.utf8))
        XCTAssertEqual(shape.outcome, "conflicts")
        XCTAssertEqual(shape.conflicts.map(\.title), ["Office", "Later"].sorted().reversed().map { $0 })
        XCTAssertEqual(try hashes(mine), before, "a refused merge changes nothing")

        let resolved = try succeed("merge", mine, theirs, "--prefer", "theirs", "--json").json(Shape.self)
        XCTAssertEqual(resolved.preferred, "theirs")
        XCTAssertEqual(resolved.conflicts.map(\.kind).sorted(), ["bothChanged", "changedHereDeletedThere"])
        XCTAssertEqual(try succeed("outline", "tree", mine).stdout, "1. Studio\n2. Home\n  1. Garden\n  2. Shed\n")
        // The other way, preferring the same copy's values: the same rows.
        try succeed("merge", theirsBefore, mineBefore, "--prefer", "mine")
        XCTAssertEqual(try hash(theirsBefore), try hash(mine))
        try fail(64, "merge", mine, theirs, "--prefer", "both")
    }

    /// An item put under one the other copy deleted without seeing it: the delete met a change
    /// it did not know of, a conflict naming both; resolved the deleting copy's way the item
    /// goes where the deleted one was, the other way the deleted one stays.
    func testAnItemPutUnderAnItemDeletedOnTheOtherSideIsAConflict() throws {
        let (mine, theirs) = try twoCopies()
        try succeed("outline", "add", mine, "Tools", "--under", "2.2")
        try succeed("outline", "rm", theirs, "2")
        let mineBefore = path("Notes-before.poddoc.tar.zst")
        try succeed("export", mine, mineBefore, "--format", "archive")
        let before = try hashes(mine)

        let refused = try fail(75, "merge", mine, theirs)
        XCTAssertTrue(refused.stdout.contains(#""Shed": "Tools" put under it here, deleted in the other copy"#), refused.stdout)
        XCTAssertEqual(try hashes(mine), before, "a refused merge changes nothing")
        let listed = try fail(75, "merge", mine, theirs, "--json").json(Shape.self)
        XCTAssertEqual(listed.conflicts.map(\.kind), ["changedHereDeletedThere"])
        XCTAssertEqual(listed.conflicts.map(\.placedUnder), [["Tools"]])
        // The other way round, the copy that deleted it names the item put under it there.
        let theirsSide = try fail(75, "merge", theirs, mineBefore)
        XCTAssertTrue(
            theirsSide.stdout.contains(#""Shed": deleted here, "Tools" put under it in the other copy"#), theirsSide.stdout)

        let resolved = try succeed("merge", mine, theirs, "--prefer", "theirs")
        XCTAssertTrue(
            resolved.stderr.contains(
                #"poddoc: note: "Tools" was put under the top level: the item it was under was deleted in one of the copies."#),
            resolved.stderr)
        // At the top level, at its own position (0): after Work, which was there first.
        XCTAssertEqual(try succeed("outline", "tree", mine).stdout, "1. Work\n2. Tools\n3. Later\n")
        try succeed("check", mine)

        // Kept: Shed stays with Tools under it, where Home was (the top level).
        try succeed("merge", mineBefore, theirs, "--prefer", "mine")
        XCTAssertEqual(try succeed("outline", "tree", mineBefore).stdout, "1. Work\n2. Shed\n  1. Tools\n3. Later\n")
        try succeed("check", mineBefore)
        // The copy that deleted it takes the keeping, without a conflict.
        try succeed("merge", theirs, mineBefore)
        XCTAssertEqual(try succeed("outline", "tree", theirs).stdout, "1. Work\n2. Shed\n  1. Tools\n3. Later\n")
    }

    func testPodsImportsOfDifferentPagesCombine() throws {
        // The sample's specs as two page files.
        let sample = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: Self.sampleSpecs))) as! [String: Any]
        let specs = sample["result"] as! [Any]
        func page(_ name: String, _ part: ArraySlice<Any>) throws -> String {
            let data = try JSONSerialization.data(withJSONObject: ["number_of_pages": 1, "result": Array(part)])
            try data.write(to: URL(fileURLWithPath: path(name)))
            return path(name)
        }
        let first = try page("first.json", specs[..<(specs.count / 2)])
        let second = try page("second.json", specs[(specs.count / 2)...])
        let mine = path("Specs.poddoc")
        try succeed("new", mine, "--kind", "pods")
        let theirs = path("Specs-copy.poddoc")
        try succeed("save", mine, "--as", theirs)
        try succeed("import", mine, "--from", first)
        try succeed("import", theirs, "--from", second)
        // One new spec imported the same on both copies: one object, no conflict.
        func probe(_ name: String, summary: String) throws -> String {
            let spec: [String: Any] = [
                "name": "MergeProbe", "version": "1.0.0", "summary": summary, "homepage": "https://example.org/probe", "license": "MIT",
                "authors": ["A": "a@example.org"], "source": ["git": "https://example.org/probe.git", "tag": "1.0.0"],
                "platforms": ["ios": "8.0"],
            ]
            return try page(name, [spec])
        }
        let same = try probe("same.json", summary: "The same on both")
        try succeed("import", mine, "--from", same)
        try succeed("import", theirs, "--from", same)
        let theirsBefore = path("Specs-copy-before.poddoc.tar.zst")
        try succeed("export", theirs, theirsBefore, "--format", "archive")
        let merged = try succeed("merge", mine, theirs, "--json").json(Shape.self)
        XCTAssertEqual(merged.conflicts.count, 0, "the spec both imported alike is one object")
        let keys = Set(
            specs.map { spec -> String in
                let fields = spec as! [String: Any]
                return "\(fields["name"]!)/\(fields["version"]!)"
            })
        let count = try succeed("pods", "count", mine, "--json").stdout
        XCTAssertTrue(count.contains("\(keys.count + 1)"), count)
        XCTAssertEqual(try hash(theirsBefore).map { _ in true }, true)
        try succeed("merge", theirsBefore, mine)
        XCTAssertEqual(try hash(theirsBefore), try hash(mine), "the copy merged into takes the merge back whole")
        try succeed("check", mine)
        XCTAssertFalse(try succeed("pods", "search", mine, "api").stdout.isEmpty, "the search index holds the merged specs")
    }

    func testASpecImportedDifferentlyOnBothCopiesIsAConflict() throws {
        let mine = path("Specs.poddoc")
        try succeed("new", mine, "--kind", "pods")
        let theirs = path("Specs-copy.poddoc")
        try succeed("save", mine, "--as", theirs)
        for (doc, summary) in [(mine, "Mine"), (theirs, "Theirs")] {
            try succeed("import", doc, "--from", try writeProbeSpecPage(summary: summary))
        }
        let refused = try fail(75, "merge", mine, theirs)
        XCTAssertTrue(refused.stdout.contains(#""MergeProbe/1.0.0": summary: mine "Mine", theirs "Theirs""#), refused.stdout)
        try succeed("merge", mine, theirs, "--prefer", "theirs")
        XCTAssertTrue(try succeed("pods", "show", mine, "MergeProbe").stdout.contains("Theirs"))
        XCTAssertTrue(try succeed("pods", "count", mine).stdout.contains("1"))
        try succeed("check", mine)
    }

    func testCopiesASyncToolKeptAreNamedByInfoAndOpen() throws {
        let doc = try makeOutline("Notes.poddoc", holding: "Work")
        let syncthing = path("Notes.sync-conflict-20261125-120000-ABCDEFG.poddoc")
        let dropbox = path("Notes (Alice's conflicted copy 2026-11-25).poddoc")
        for copy in [syncthing, dropbox, path("Notes-old.poddoc"), path("Other.sync-conflict-20261125-120000-ABCDEFG.poddoc")] {
            try succeed("save", doc, "--as", copy)
        }
        try succeed("outline", "add", syncthing, "From the laptop")
        struct Copies: Decodable { let conflictCopies: [String] }
        XCTAssertEqual(try succeed("info", doc, "--json").json(Copies.self).conflictCopies, [dropbox, syncthing])
        XCTAssertTrue(
            try succeed("info", doc).stdout.contains("`poddoc merge \(doc) \(syncthing) --remove-copy` merges it in and removes it"))
        let opened = try succeed("open", doc, "-c", "merge '\(syncthing)'; tree; quit")
        XCTAssertTrue(
            opened.stderr.contains("Notes.sync-conflict-20261125-120000-ABCDEFG.poddoc beside this document is a copy a sync tool kept"),
            opened.stderr)
        XCTAssertTrue(opened.stdout.contains("2. From the laptop"), opened.stdout)
        XCTAssertEqual(try succeed("info", path("Notes-old.poddoc"), "--json").json(Copies.self).conflictCopies, [])
        // Merged in (without --remove-copy), the copy is no longer offered for a merge.
        let after = try succeed("info", doc).stdout
        XCTAssertTrue(after.contains("\(syncthing): a copy a sync tool kept after a conflict, merged in already: it can go"), after)
        struct Merged: Decodable { let mergedCopies: [String] }
        XCTAssertEqual(
            try succeed("info", doc, "--json").json(Merged.self).mergedCopies, [dropbox, syncthing],
            "the Dropbox copy held nothing new either")
    }

    func testTheSuggestedMergeWorksWhenPastedIntoAShellOrThePoddocShell() throws {
        let doc = try makeOutline("My Notes.poddoc", holding: "Work")
        let copy = path("My Notes (Alice's conflicted copy 2026-11-25).poddoc")
        try succeed("save", doc, "--as", copy)
        try succeed("outline", "add", copy, "From Alice")
        let said = try succeed("info", doc).stdout
        guard let line = said.split(separator: "\n").first(where: { $0.contains("conflicted copy") }),
            let command = line.split(separator: "`").dropFirst().first.map(String.init)
        else { return XCTFail(said) }
        XCTAssertTrue(command.hasPrefix("poddoc merge '"), command)
        // Pasted into sh, with poddoc on the PATH.
        environment["PATH"] = try Self.binary().deletingLastPathComponent().path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        let pasted = try runTool("/bin/sh", ["-c", command])
        XCTAssertEqual(pasted.status, 0, pasted.stderr)
        XCTAssertEqual(try succeed("outline", "tree", doc).stdout, "1. Work\n2. From Alice\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: copy), "merged in, the copy is gone")
        XCTAssertFalse(try succeed("info", doc).stdout.contains("conflicted copy"))
        // --remove-copy removes nothing but a sync tool's copy.
        let own = path("My Notes backup.poddoc")
        try succeed("save", doc, "--as", own)
        XCTAssertTrue(try fail(64, "merge", doc, own, "--remove-copy").stderr.contains("is not one, so it stays"))
        XCTAssertTrue(FileManager.default.fileExists(atPath: own))
        // And the shell's own suggestion, pasted into the poddoc shell.
        let other = try makeOutline("Other Notes.poddoc", holding: "Work")
        let otherCopy = path("Other Notes (Bob's conflicted copy 2026-11-25).poddoc")
        try succeed("save", other, "--as", otherCopy)
        try succeed("outline", "add", otherCopy, "From Bob")
        let opened = try succeed("open", other, "-c", "quit")
        guard let suggested = opened.stderr.split(separator: "`").dropFirst().first.map(String.init) else { return XCTFail(opened.stderr) }
        let merged = try succeed("open", other, "-c", "\(suggested); tree; quit")
        XCTAssertTrue(merged.stdout.contains("2. From Bob"), merged.stdout + merged.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: otherCopy))
    }

    /// A sync tool that synced a package's files apart: one machine's store, the other's
    /// metadata, and the losing store kept beside under a conflict name. Both stores are
    /// intact: poddoc says so, edits go on, and `merge` takes the kept store in and removes it.
    func testAStoreASyncToolKeptInsideAPackageIsNamedAndMergedIn() throws {
        for (tool, name) in [
            ("Syncthing", "persistentStore.sync-conflict-20261126-101010-ABCDEFG"),
            ("Dropbox", "persistentStore (Bob's conflicted copy 2026-11-26)"), ("OneDrive", "persistentStore-LAPTOP"),
        ] {
            let doc = try makeOutline("\(tool).poddoc", holding: "Work")
            let laptop = path("\(tool)-laptop.poddoc")
            try FileManager.default.copyItem(atPath: doc, toPath: laptop)
            try succeed("outline", "add", doc, "From the desktop")
            try succeed("outline", "add", laptop, "From the laptop")
            // The desktop's store won, the laptop's metadata won, the laptop's store was kept.
            let kept = path("\(tool).poddoc/StoreContent/\(name)")
            try FileManager.default.copyItem(atPath: path("\(tool)-laptop.poddoc/StoreContent/persistentStore"), toPath: kept)
            try FileManager.default.removeItem(atPath: path("\(tool).poddoc/DocumentMetadata.json"))
            try FileManager.default.copyItem(
                atPath: path("\(tool)-laptop.poddoc/DocumentMetadata.json"), toPath: path("\(tool).poddoc/DocumentMetadata.json"))

            let info = try succeed("info", doc).stdout
            XCTAssertTrue(info.contains("another machine's store a sync tool kept inside the package"), "\(tool): \(info)")
            let checked = try fail(76, "check", doc)
            XCTAssertTrue(checked.stdout.contains("this store is intact"), "\(tool): \(checked.stdout)")
            XCTAssertFalse(checked.stdout.contains("differs from the metadata's"), checked.stdout)
            // The suggested command, pasted, merges the laptop's edits in and lets the kept file go.
            guard let line = info.split(separator: "\n").first(where: { $0.contains("sync conflict") }),
                let command = line.split(separator: "`").dropFirst().first.map(String.init)
            else { return XCTFail(info) }
            environment["PATH"] = try Self.binary().deletingLastPathComponent().path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
            let merged = try runTool("/bin/sh", ["-c", command])
            XCTAssertEqual(merged.status, 0, "\(tool): \(merged.stderr)")
            XCTAssertTrue(merged.stderr.contains("merged in and removed"), merged.stderr)
            XCTAssertEqual(try succeed("outline", "tree", doc).stdout, "1. Work\n2. From the desktop\n3. From the laptop\n", tool)
            XCTAssertFalse(FileManager.default.fileExists(atPath: kept))
            XCTAssertTrue(try succeed("check", doc).stdout.contains(": ok"), tool)
            XCTAssertFalse(try succeed("info", doc).stdout.contains("sync conflict"))
        }
        // Uneven saves, this machine's metadata: nothing looks wrong but the kept store, which
        // `check` names (it holds the laptop's edit) until it is merged in.
        let doc = try makeOutline("Uneven.poddoc", holding: "Work")
        let laptop = path("Uneven-laptop.poddoc")
        try FileManager.default.copyItem(atPath: doc, toPath: laptop)
        try succeed("outline", "add", doc, "One")
        try succeed("outline", "add", doc, "Two")
        try succeed("outline", "add", laptop, "From the laptop")
        let kept = path("Uneven.poddoc/StoreContent/persistentStore.sync-conflict-20261126-101010-ABCDEFG")
        try FileManager.default.copyItem(atPath: path("Uneven-laptop.poddoc/StoreContent/persistentStore"), toPath: kept)
        let checked = try fail(76, "check", doc)
        XCTAssertTrue(checked.stdout.contains("it holds that machine's edits. Merge it in"), checked.stdout)
        try succeed("merge", doc, kept)
        let tree = try succeed("outline", "tree", doc).stdout
        XCTAssertEqual(
            Set(tree.split(separator: "\n").map { $0.split(separator: " ", maxSplits: 1)[1] }), ["Work", "One", "Two", "From the laptop"])
        try succeed("check", doc)

        // SQLite's own files and poddoc's backup are no conflict.
        let plain = try makeOutline("Plain.poddoc", holding: "Work")
        try Data().write(to: URL(fileURLWithPath: path("Plain.poddoc/StoreContent/persistentStore-journal")))
        XCTAssertFalse(try succeed("info", plain).stdout.contains("sync conflict"))
    }

    func testCopiesOfOtherDocumentsAreRefused() throws {
        let mine = try makeOutline("Notes.poddoc", holding: "Work")
        let other = try makeOutline("Other.poddoc", holding: "Work")
        XCTAssertTrue(try fail(65, "merge", mine, other).stderr.contains("not a copy of this document"))
        try fail(66, "merge", mine, path("Missing.poddoc"))
    }

    func testTheShellAsksConflictByConflict() throws {
        let (mine, theirs) = try twoCopies()
        try succeed("outline", "rename", mine, "1", "Office")
        try succeed("outline", "rename", theirs, "1", "Studio")
        try succeed("outline", "note", mine, "3", "soon")
        try succeed("outline", "rm", theirs, "3")
        // Standard input, not -c: the shell reads the answers as it reads commands.
        let answered = try succeed("open", mine, input: "merge \(theirs)\nt\nm\ntree\nquit\n")
        XCTAssertTrue(answered.stdout.contains("2 conflicts resolved one by one"), answered.stdout)
        XCTAssertTrue(answered.stdout.contains("1. Studio\n2. Home\n  1. Garden\n  2. Shed\n3. Later\n"), answered.stdout)
        XCTAssertEqual(try succeed("outline", "tree", mine).stdout, "1. Studio\n2. Home\n  1. Garden\n  2. Shed\n3. Later\n")
        // An answer that is neither stops the merge, and nothing changes.
        let (again, other) = (try makeOutline("Again.poddoc", holding: "Work"), path("Again-copy.poddoc"))
        try succeed("save", again, "--as", other)
        try succeed("outline", "rename", again, "1", "A")
        try succeed("outline", "rename", other, "1", "B")
        let stopped = try run(["open", again], input: "merge \(other)\nperhaps\nquit\n")
        XCTAssertTrue(stopped.stderr.contains("Merge stopped"), stopped.stderr)
        XCTAssertEqual(try succeed("outline", "tree", again).stdout, "1. A\n")
    }

    func testTheShellUndoesAMerge() throws {
        let (mine, theirs) = try twoCopies()
        try succeed("outline", "add", theirs, "Errands")
        let tree = try succeed("outline", "tree", mine).stdout
        let out = try succeed("open", mine, "-c", "merge \(theirs); tree; undo; tree; quit").stdout
        XCTAssertTrue(out.contains("4. Errands"), out)
        XCTAssertTrue(out.hasSuffix(tree), out)
    }

    func testTheShellRedoesAnUndoneMergeAndQuittingSavesIt() throws {
        let (mine, theirs) = try twoCopies()
        try succeed("outline", "add", theirs, "Errands")
        try succeed("outline", "rename", theirs, "1", "Office")
        try succeed("outline", "rm", theirs, "2.1")
        let before = try succeed("outline", "tree", mine).stdout
        let merged = try succeed("outline", "tree", theirs).stdout
        XCTAssertNotEqual(before, merged)
        let out = try succeed("open", mine, "-c", "merge \(theirs); tree; undo; tree; redo; tree; quit").stdout
        // The three trees in their order: merged, as before, merged again.
        let first = try XCTUnwrap(out.range(of: merged), out)
        let second = try XCTUnwrap(out.range(of: before, range: first.upperBound..<out.endIndex), out)
        XCTAssertNotNil(out.range(of: merged, range: second.upperBound..<out.endIndex), out)
        XCTAssertEqual(try succeed("outline", "tree", mine).stdout, merged, "quitting saved the merge redone")
        XCTAssertTrue(try succeed("check", mine).stdout.contains("ok"))
        XCTAssertEqual(try succeed("merge", mine, theirs, "--json").stdout.contains("\"upToDate\""), true, "the copy holds theirs")
    }

    func testCopiesOfANewOutlineMergeIntoOneOutline() throws {
        // Copies made before either was edited: a new outline holds its root already, so
        // both copies share it, and their items merge into one tree, whichever way.
        for format in ["poddoc", "poddoc.tar.zst"] {
            let mine = path("New.\(format)")
            let theirs = path("New-copy.\(format)")
            try succeed("new", mine, "--kind", "outline")
            try succeed("save", mine, "--as", theirs)
            try succeed("outline", "add", mine, "Errands")
            try succeed("outline", "add", theirs, "Desk")
            let shell = try succeed("open", theirs, "-c", "tree; merge \(mine); tree; quit")
            XCTAssertFalse(shell.stdout.contains("damaged") || shell.stderr.contains("damaged"), shell.stdout + shell.stderr)
            try succeed("merge", mine, theirs)
            for copy in [mine, theirs] {
                // Both at the top of the list: the tie falls to the ids, the original's first.
                XCTAssertEqual(try succeed("outline", "tree", copy).stdout, "1. Errands\n2. Desk\n")
                XCTAssertTrue(try succeed("check", copy).stdout.contains("ok"))
            }
            XCTAssertEqual(try hash(mine), try hash(theirs))
            XCTAssertEqual(try succeed("merge", theirs, mine, "--json").json(Shape.self).outcome, "upToDate")
            // A new outline has no history of its own yet: save 0 is where copies start.
            let untouched = path("Untouched.\(format)")
            try succeed("new", untouched, "--kind", "outline")
            XCTAssertTrue(try succeed("versions", untouched).stdout.contains("no saves"))
        }
    }
}
