import Foundation
import GRDB
import PodDocContent
import PodDocDocument
import PodDocRandom
import PodDocStore
import XCTest

/// Documents written with an earlier version of a shipped model (Tests/Fixtures/model-N) open
/// with every later poddoc: reading changes no byte, exports are the same, and the first
/// edit upgrades them.
final class ModelVersionTests: CommandLineTestCase {
    private static let modelOne = repository.appending(path: "Tests/Fixtures/model-1")

    /// The model-1 documents, copied into the test's folder (the committed ones never change).
    private func copyModelOneDocuments() throws -> [String] {
        let names = ["outline-sample.poddoc", "outline-sample.poddoc.tar.zst", "pods-sample.poddoc", "pods-sample.poddoc.tar.zst"]
        for name in names {
            try FileManager.default.copyItem(at: Self.modelOne.appending(path: name), to: URL(fileURLWithPath: path(name)))
        }
        return names.map(path)
    }

    /// The recorded SHA-256 of each export, by `NAME.FORMAT` (`outline-sample.opml`).
    private func recordedExports() throws -> [String: String] {
        let text = try String(contentsOf: Self.modelOne.appending(path: "exports.sha256"), encoding: .utf8)
        return Dictionary(
            uniqueKeysWithValues: text.split(separator: "\n").map { line in
                let parts = line.split(separator: " ", omittingEmptySubsequences: true)
                return (String(parts[1]), String(parts[0]))
            })
    }

    func testReadingAModelOneDocumentChangesNoByteAndExportsTheSameContent() throws {
        let recorded = try recordedExports()
        for doc in try copyModelOneDocuments() {
            let name = URL(fileURLWithPath: doc).lastPathComponent
            let base = String(name.prefix { $0 != "." })
            let before = doc.hasSuffix(".poddoc") ? try hashes(doc) : ["": try runTool("/usr/bin/sha256sum", [doc]).stdout]
            try succeed("info", doc)
            try succeed("info", doc, "--json")
            try succeed("check", doc)
            try succeed("versions", doc)
            try succeed("diff", doc, "--from", "1")
            let formats = base.hasPrefix("pods") ? ["json", "csv"] : ["opml", "markdown"]
            for format in formats {
                let out = path("\(name).\(format)")
                try succeed("export", doc, out, "--format", format)
                let ending = format == "markdown" ? "md" : format
                let digest = try runTool("/usr/bin/sha256sum", [out]).stdout.split(separator: " ").first.map(String.init)
                XCTAssertEqual(digest, recorded["\(base).\(ending)"], "\(name) exports the same \(format)")
            }
            let after = doc.hasSuffix(".poddoc") ? try hashes(doc) : ["": try runTool("/usr/bin/sha256sum", [doc]).stdout]
            XCTAssertEqual(after, before, "reading \(name) changes no byte")
        }
    }

    func testADocumentOfANewerModelIsReadAndRefusedForEditingWithBothVersionsNamed() throws {
        let doc = try copyModelOneDocuments()[0]
        // As a poddoc with model 3 of outlines would leave it: the tables this one reads are there.
        try succeed("outline", "add", doc, "upgraded")
        let store = try DatabaseQueue(path: doc + "/StoreContent/persistentStore")
        try store.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA user_version = 3") }
        try store.close()
        let before = try hashes(doc)
        let refused = try fail(66, "outline", "add", doc, "one more")
        XCTAssertEqual(
            refused.stderr,
            "poddoc: \(doc) was made by a newer poddoc: model 3, this poddoc knows up to 2; nothing changed. Open it with a newer poddoc.\n"
        )
        XCTAssertTrue(
            try succeed("info", doc).stdout.contains(
                "model          version 3, from a newer poddoc (this one knows up to 2): it reads, it does not edit"))
        XCTAssertTrue(try succeed("info", doc, "--json").stdout.contains(#""model":{"thisPoddoc":2,"upgrade":"newer","version":3}"#))
        XCTAssertTrue(try succeed("outline", "ls", doc).stdout.hasPrefix("1. Small Picture worknotes"))
        try succeed("check", doc)
        XCTAssertEqual(try hashes(doc), before, "nothing changed")
    }

    func testTheFirstEditOfAModelOneDocumentUpgradesItAndTasksWorkThere() throws {
        for doc in try copyModelOneDocuments() {
            let outline = doc.contains("outline")
            let info = try succeed("info", doc).stdout
            if outline {
                XCTAssertTrue(
                    info.contains("model          version 1: this poddoc reads it as it is and upgrades it to version 2 on the first edit"),
                    info)
                XCTAssertEqual(try succeed("outline", "done", doc, "1.1").stdout, "Mark \"July 2013\" done (1.1)\n")
                try succeed("outline", "undone", doc, "1.2")
                XCTAssertEqual(try succeed("outline", "find", doc, "--open").stdout, "1.2. June 2013\n")
                XCTAssertEqual(try succeed("outline", "find", doc, "july", "--done").stdout, "1.1. July 2013\n")
                XCTAssertTrue(try succeed("outline", "ls", doc, "1").stdout.hasPrefix("1.1. [x] July 2013\n1.2. [ ] June 2013\n"))
                XCTAssertTrue(
                    try succeed("info", doc, "--json").stdout.contains(#""model":{"thisPoddoc":2,"upgrade":"none","version":2}"#), doc)
                // The history from before the upgrade still reads and goes back.
                XCTAssertTrue(try succeed("diff", doc, "--from", "5").stdout.contains(#"~ 1.1 "July 2013": status changed"#))
                try succeed("revert", doc, "--to", "5")
                XCTAssertEqual(try succeed("outline", "find", doc, "--open").stdout, "No item matches.\n")
            } else {
                XCTAssertTrue(
                    info.contains("model          version 1: this poddoc reads it as it is and upgrades it to version 2 on the first edit"),
                    info)
                XCTAssertEqual(try succeed("pods", "ls", doc, "--swift", "5.0").stdout, "No spec declares Swift 5.0.\n")
                try succeed("import", doc, "--from", try writeProbeSpecPage(summary: "one more"))
                XCTAssertTrue(
                    try succeed("info", doc, "--json").stdout.contains(#""model":{"thisPoddoc":2,"upgrade":"none","version":2}"#), doc)
                XCTAssertEqual(try succeed("pods", "count", doc).stdout, "301 specs\n")
            }
            try succeed("check", doc)
        }
    }

    func testTasksGoOutAndComeBackThroughOPMLMarkdownAndJSON() throws {
        let doc = try makeOutline("Tasks.poddoc", holding: "Pack", "Book", "Plan")
        try succeed("outline", "done", doc, "1")
        try succeed("outline", "undone", doc, "2")
        for (format, ending) in [("opml", "opml"), ("markdown", "md"), ("json", "json")] {
            let out = path("tasks.\(ending)")
            try succeed("export", doc, out, "--format", format)
            let copy = path("Copy-\(format).poddoc")
            try succeed("new", copy, "--kind", "outline")
            try succeed("import", copy, "--\(format == "json" ? "outline-json" : format)", out)
            XCTAssertEqual(try succeed("outline", "ls", copy).stdout, "1. [x] Pack\n2. [ ] Book\n3. Plan\n", format)
        }
        let text = path("tasks.txt")
        let plain = try succeed("export", doc, text, "--format", "text")
        XCTAssertTrue(plain.stderr.contains("left out: whether 2 tasks are done"), plain.stderr)
    }

    func testAModelOneDocumentWhoseStoreChangedOnDiskIsNotUpgradedAndCheckSaysSo() throws {
        let doc = try copyModelOneDocuments()[0]
        // A title changed behind poddoc's back: the recorded hash no longer describes the store.
        let store = try DatabaseQueue(path: doc + "/StoreContent/persistentStore")
        try store.write { db in try db.execute(sql: #"UPDATE "OutlineItem" SET "title" = 'tampered' WHERE "id" = 2"#) }
        try store.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
        try store.close()
        let before = try hashes(doc)
        let refused = try run(["outline", "add", doc, "one more"])
        XCTAssertNotEqual(refused.status, 0)
        XCTAssertTrue(refused.stderr.contains("its store no longer matches the hash recorded at save 5"), refused.stderr)
        XCTAssertTrue(refused.stderr.contains("poddoc will not upgrade it"), refused.stderr)
        let check = try run(["check", doc])
        XCTAssertNotEqual(check.status, 0)
        XCTAssertTrue(check.stdout.contains("differs from the metadata's"), check.stdout)
        XCTAssertEqual(try hashes(doc).filter { $0.key != ".poddoc-lock" }, before, "nothing upgraded")
    }

    func testAnUpgradeCutOffBeforeItsMetadataWasWrittenIsTakenUpByTheNextOpen() throws {
        let doc = try copyModelOneDocuments()[0]
        // The store upgraded and committed; the process died before the metadata said so.
        let store = try PersistentStore(
            url: URL(fileURLWithPath: doc + "/StoreContent/persistentStore"), model: DocumentType.outline.model)
        _ = try store.checkpoint()
        try store.close()
        let check = try succeed("check", doc)
        XCTAssertTrue(check.stdout.contains(": ok ("), check.stdout)
        try succeed("outline", "add", doc, "after the upgrade")
        XCTAssertTrue(try succeed("check", doc).stdout.contains(": ok ("))
        XCTAssertTrue(try succeed("info", doc).stdout.contains("model          version 2 (up to date)"))
    }

    /// `outline add` on a model-1 document upgrades it and adds an item; killed with SIGKILL at
    /// random moments, it leaves the document as it was or upgraded with the item, never a
    /// mix: `check` passes and the content is one of the two.
    func testKillingAnUpgradeAtRandomMomentsLeavesTheOldDocumentOrTheUpgradedOne() throws {
        var random = SeededRandom(seed: 34)
        for name in ["outline-sample.poddoc", "outline-sample.poddoc.tar.zst"] {
            let fixture = Self.modelOne.appending(path: name)
            // The content both ways, by an export run to the end.
            let finished = path("finished-" + name)
            try FileManager.default.copyItem(at: fixture, to: URL(fileURLWithPath: finished))
            let started = Date()
            try succeed("outline", "add", finished, "killed here")
            let duration = Date().timeIntervalSince(started)
            try succeed("export", finished, path("finished.opml"), "--format", "opml", "--force")
            let upgraded = try runTool("/usr/bin/sha256sum", [path("finished.opml")]).stdout.prefix(64)
            let original = try recordedExports()["outline-sample.opml"]!
            var outcomes: [String: Int] = [:]
            for cycle in 0..<12 {
                let doc = path("cycle-\(cycle)-" + name)
                try FileManager.default.copyItem(at: fixture, to: URL(fileURLWithPath: doc))
                let (process, _, _) = try start(["outline", "add", doc, "killed here"])
                usleep(useconds_t(Double(random.below(1000)) / 1000 * duration * 1.3 * 1_000_000))
                kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit()
                let context = "\(name), cycle \(cycle)"
                let check = try run(["check", doc])
                XCTAssertEqual(check.status, 0, "\(context): \(check.stdout) \(check.stderr)")
                try succeed("export", doc, path("cycle.opml"), "--format", "opml", "--force")
                let digest = try runTool("/usr/bin/sha256sum", [path("cycle.opml")]).stdout.prefix(64)
                XCTAssertTrue(digest == upgraded || String(digest) == original, "\(context): a mix of old and new")
                outcomes[digest == upgraded ? "upgraded" : "old", default: 0] += 1
            }
            XCTAssertEqual(outcomes.values.reduce(0, +), 12, name)
        }
    }

    func testPodsListsTheSpecsThatDeclareASwiftVersionAndShowSaysWhich() throws {
        let specs: [[String: Any]] = [
            ["name": "Modern", "version": "2.0", "swift_versions": ["5.0", "5.9"], "source": ["git": "https://example.org/m.git"]],
            ["name": "Older", "version": "1.0", "swift_version": "4.2", "source": ["git": "https://example.org/o.git"]],
            ["name": "ObjC", "version": "1.0", "source": ["git": "https://example.org/c.git"]],
        ]
        let page = path("page.json")
        try JSONSerialization.data(withJSONObject: ["number_of_pages": 1, "result": specs]).write(to: URL(fileURLWithPath: page))
        let doc = path("Specs.poddoc")
        try succeed("new", doc, "--kind", "pods")
        try succeed("import", doc, "--from", page)
        XCTAssertEqual(try succeed("pods", "ls", doc, "--swift", "5.9").stdout, "Modern 2.0\n")
        XCTAssertEqual(try succeed("pods", "ls", doc, "--swift", "4.2").stdout, "Older 1.0\n")
        XCTAssertEqual(try succeed("pods", "ls", doc, "--swift", "6.0").stdout, "No spec declares Swift 6.0.\n")
        XCTAssertTrue(try succeed("pods", "show", doc, "Modern").stdout.contains("  swift:    5.0, 5.9"))
        XCTAssertTrue(try fail(64, "pods", "ls", doc, "--swift", " ").stderr.contains("--swift needs a Swift version"))
    }

    func testCopiesOfDifferentModelVersionsMerge() throws {
        let original = Self.modelOne.appending(path: "outline-sample.poddoc")
        for name in ["A", "B", "C"] {
            try FileManager.default.copyItem(at: original, to: URL(fileURLWithPath: path("\(name).poddoc")))
        }
        let (a, b, c) = (path("A.poddoc"), path("B.poddoc"), path("C.poddoc"))
        try succeed("outline", "done", a, "1.1")  // A is upgraded; B stays at model 1
        XCTAssertTrue(try succeed("merge", a, b).stdout.hasPrefix("Nothing to merge"))
        try succeed("merge", b, a)
        XCTAssertTrue(try succeed("info", b).stdout.contains("model          version 2 (up to date)"))
        XCTAssertTrue(try succeed("outline", "ls", b, "1").stdout.hasPrefix("1.1. [x] July 2013\n"))
        // Two upgraded copies that each changed something share the save from before.
        try succeed("outline", "add", c, "from C")
        XCTAssertTrue(try succeed("merge", a, c).stdout.contains("(common save 5)"))
        XCTAssertTrue(try succeed("outline", "ls", a).stdout.hasSuffix("2. from C\n"))
        XCTAssertTrue(try succeed("outline", "ls", a, "1").stdout.hasPrefix("1.1. [x] July 2013\n"))
        for doc in [a, b, c] { try succeed("check", doc) }
    }

    func testReadingAnOlderDocumentWithAFullTemporaryFolderSaysWhatToDo() throws {
        let doc = try copyModelOneDocuments()[0]
        let full = path("tmp")
        try mount(["-t", "tmpfs", "-o", "size=100k", "tmpfs"], at: full, why: "a temporary folder too small for the upgraded copy")
        environment["TMPDIR"] = full
        let before = try hashes(doc)
        let result = try run(["outline", "ls", doc])
        XCTAssertEqual(result.status, 66, result.stderr)
        XCTAssertTrue(
            result.stderr.contains("was written with model 1; reading it takes an upgraded copy in the temporary folder \(full)")
                && result.stderr.contains("(the folder is full). Set TMPDIR to a folder with room"), result.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: full), [], "nothing left in the temporary folder")
        XCTAssertEqual(try hashes(doc), before)
    }
}
