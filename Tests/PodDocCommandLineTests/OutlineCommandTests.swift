import Foundation
import XCTest

/// The outline one-shot commands, through the real binary.
final class OutlineCommandTests: CommandLineTestCase {
    func testEditingOneCommandAtATime() throws {
        let doc = path("Notes.poddoc")
        try succeed("new", doc, "--kind", "outline")
        try succeed("outline", "add", doc, "Groceries")
        try succeed("outline", "add", doc, "Work")
        let milk = try succeed("outline", "add", doc, "Milk", "--under", "1", "--json").json(EditShape.self)
        XCTAssertEqual(milk.done, "Add \"Milk\"")
        XCTAssertEqual(milk.path, "1.1")
        try succeed("outline", "insert", doc, "1.1", "Eggs")
        try succeed("outline", "rename", doc, "/Groceries/Milk", "Oat milk")
        try succeed("outline", "note", doc, "1.2", "the big carton")
        try succeed("outline", "mv", doc, "2", "--under", "/", "--at", "1")
        try succeed("outline", "add", doc, "Report", "--under", "2")
        try succeed("outline", "indent", doc, "2")
        try succeed("outline", "outdent", doc, "1.1")

        let tree = try succeed("outline", "tree", doc)
        XCTAssertEqual(tree.stdout, "1. Work\n2. Groceries\n  1. Eggs\n  2. Oat milk\n  3. Report\n")
        let listed = try succeed("outline", "ls", doc, "2", "--json").json(ItemListShape.self)
        XCTAssertEqual(listed.items.map(\.path), ["2.1", "2.2", "2.3"])
        XCTAssertEqual(listed.items[1].note, "the big carton")
        let found = try succeed("outline", "find", doc, "MILK", "--json").json(FindShape.self)
        XCTAssertEqual(found.matches.map(\.path), ["2.2"])
        let removed = try succeed("outline", "rm", doc, "2", "--json").json(EditShape.self)
        XCTAssertEqual(removed.deleted, 4)
        XCTAssertEqual(try succeed("outline", "tree", doc).stdout, "1. Work\n")
        XCTAssertTrue(try succeed("check", doc).stdout.contains(": ok"))
    }

    func testATitleHoldingASlashIsAddressedWithItEscaped() throws {
        let doc = path("Notes.poddoc")
        try succeed("new", doc, "--kind", "outline")
        try succeed("outline", "add", doc, "Q3/Q4")
        try succeed("outline", "add", doc, "a\\b")
        try succeed("outline", "add", doc, "Plan", "--under", #"/Q3\/Q4"#)
        try succeed("outline", "rename", doc, #"/Q3\/Q4/Plan"#, "Budget")
        try succeed("outline", "add", doc, "x", "--under", #"/a\\b"#)
        XCTAssertEqual(try succeed("outline", "ls", doc, #"/Q3\/Q4"#).stdout, "1.1. Budget\n")
        XCTAssertEqual(
            try succeed("outline", "tree", doc).stdout, "1. Q3/Q4\n  1. Budget\n2. a\\\\b\n  1. x\n", "a backslash is shown doubled")
        // Unescaped, the slash separates titles: no item is titled "Q3".
        let missing = try run(["outline", "ls", doc, "/Q3/Q4"])
        XCTAssertEqual(missing.status, 65, missing.stderr)
        XCTAssertTrue(missing.stderr.contains("Q3"), missing.stderr)
        let lone = try run(["outline", "ls", doc, #"/Q3\"#])
        XCTAssertEqual(lone.status, 65, lone.stderr)
        XCTAssertTrue(lone.stderr.contains("lone"), lone.stderr)
    }

    func testExportAndImportEveryOutlineFormat() throws {
        let source = Self.repository.appending(path: "Tests/Fixtures/opml/cactus-notes.opml").path
        try succeed("new", path("A.poddoc"), "--kind", "outline")
        let imported = try succeed("import", path("A.poddoc"), "--opml", source, "--json").json(OutlineImportShape.self)
        XCTAssertEqual(imported.format, "opml")
        XCTAssertTrue(imported.done.hasPrefix("Import "), imported.done)
        let tree = try succeed("outline", "tree", path("A.poddoc")).stdout
        for (format, option, file) in [
            ("opml", "--opml", "a.opml"), ("markdown", "--markdown", "a.md"), ("text", "--text", "a.txt"),
            ("json", "--outline-json", "a.json"),
        ] {
            try succeed("export", path("A.poddoc"), path(file), "--format", format)
            let copy = path("copy-\(format).poddoc")
            try succeed("new", copy, "--kind", "outline")
            try succeed("import", copy, option, path(file))
            XCTAssertEqual(try succeed("outline", "tree", copy).stdout, tree, "\(format) keeps the titles and their shape")
        }
    }

    func testAnImportIsOneSaveWithItsHeadAndUnderAnItemItAppends() throws {
        let source = try writeOPML(
            "in.opml",
            body: [#"<outline text="a" _note="n"><outline text="a1" type="task"/></outline>"#, #"<outline text="b"/>"#])
        let doc = path("I.poddoc")
        try succeed("new", doc, "--kind", "outline")
        let saves = { try self.succeed("info", doc, "--json").json(InfoShape.self).saveSequence }
        let before = try XCTUnwrap(saves())
        let imported = try succeed("import", doc, "--opml", source, "--json").json(OutlineImportShape.self)
        XCTAssertEqual(imported.done, "Import 3 items")
        XCTAssertEqual(imported.topLevel, 2)
        XCTAssertEqual(try saves(), before + 1, "the items and the head in one save")
        try succeed("export", doc, path("out.opml"), "--format", "opml")
        let exported = try String(contentsOfFile: path("out.opml"), encoding: .utf8)
        XCTAssertTrue(exported.contains("<title>t</title>"), exported)
        XCTAssertTrue(exported.contains(#"<outline text="a1" type="task"/>"#), exported)
        // Under an item: after its children, the head stays the document's.
        try succeed("import", doc, "--opml", source, "--under", "/a")
        XCTAssertEqual(
            try succeed("outline", "tree", doc).stdout, "1. a\n  1. a1\n  2. a\n    1. a1\n  3. b\n2. b\n")
        XCTAssertTrue(try succeed("check", doc).stdout.contains(": ok"))
        // A file without items says so, not the name of the edit before it.
        let nothing = try succeed("import", doc, "--opml", try writeOPML("empty.opml", body: []), "--json").json(OutlineImportShape.self)
        XCTAssertEqual(nothing.done, "Import 0 items")
        XCTAssertEqual(nothing.topLevel, 0)
    }

    func testMoveAmongSiblingsNeedsOnlyAPosition() throws {
        let doc = path("Move.poddoc")
        try succeed("new", doc, "--kind", "outline")
        try succeed("open", doc, "-c", "add Groceries; add Milk --under 1; add Eggs --under 1; add Work")
        try succeed("outline", "mv", doc, "/Work", "--at", "1")
        try succeed("outline", "mv", doc, "2.2", "--at", "1")
        XCTAssertEqual(try succeed("outline", "tree", doc).stdout, "1. Work\n2. Groceries\n  1. Eggs\n  2. Milk\n")
        let refused = try fail(64, "outline", "mv", doc, "1")
        XCTAssertTrue(
            refused.stderr.contains("mv needs --under (a new parent), --at (a new position among its siblings), or both"), refused.stderr)
        // Positions are the user's, from 1, in the messages too.
        for (command, position, words) in [
            (["outline", "mv", doc, "1"], "0", "before the first place: positions go from 1 (first) to 2 (last)"),
            (["outline", "mv", doc, "1"], "3", "past the end of the list: positions go from 1 (first) to 2 (last)"),
            (["outline", "add", doc, "Bread", "--under", "2"], "4", "past the end of the list: positions go from 1 (first) to 3 (last)"),
            (["outline", "add", doc, "Bread"], "0", "before the first place: positions go from 1 (first) to 3 (last)"),
        ] {
            let wrong = try run(command + ["--at", position])
            XCTAssertEqual(wrong.status, 65, wrong.stderr)
            XCTAssertTrue(wrong.stderr.contains("--at \(position) is " + words), wrong.stderr)
        }
        try succeed("outline", "add", doc, "Bread", "--under", "2", "--at", "3")
        XCTAssertEqual(try succeed("outline", "tree", doc).stdout, "1. Work\n2. Groceries\n  1. Eggs\n  2. Milk\n  3. Bread\n")
    }

    /// An edit to what is already so records nothing and says so, in a one-shot command and in
    /// the shell (where the undo stack holds the edits before it).
    func testAnEditThatChangesNothingSaysSo() throws {
        let doc = path("Same.poddoc")
        try succeed("new", doc, "--kind", "outline")
        try succeed("outline", "add", doc, "Milk")
        XCTAssertEqual(try succeed("outline", "mv", doc, "1", "--at", "1").stdout, "Nothing to change (1)\n")
        let shell = try succeed("open", doc, "-c", "add Eggs; mv 2 --at 2; done 1; done 1; rename 1 Milk").stdout
        XCTAssertEqual(
            shell, "Add \"Eggs\" (2)\nNothing to change (2)\nMark \"Milk\" done (1)\nNothing to change (1)\nNothing to change (1)\n")
    }
}
