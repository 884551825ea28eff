import Foundation
import GRDB
import XCTest

/// `poddoc merge` as copies are really kept in step, through the binary: merging again after
/// more work takes only what is new, a change already merged is never a conflict again, three
/// copies merged in different orders hold each item once, and `diff` names items by their
/// identity, not their row's place.
final class MergeAgainTests: CommandLineTestCase {
    private struct Shape: Decodable {
        struct Conflict: Decodable { let title: String? }
        let outcome: String
        let conflicts: [Conflict]
    }
    private struct Info: Decodable { let storeHash: String? }

    private func hash(_ doc: String) throws -> String? { try succeed("info", doc, "--json").json(Info.self).storeHash }

    /// The titles of an outline, in tree order.
    private func titles(_ doc: String) throws -> [String] {
        try succeed("outline", "tree", doc).stdout.split(separator: "\n").map {
            String($0.drop { $0 == " " }.drop { $0 != " " }.dropFirst())
        }
    }

    /// An outline holding Base, and two copies of it saved as `b` and `c`.
    private func threeCopies(b: String, c: String) throws -> (a: String, b: String, c: String) {
        let a = try makeOutline("A.poddoc", holding: "Base")
        try succeed("save", a, "--as", path(b))
        try succeed("save", a, "--as", path(c))
        return (a, path(b), path(c))
    }

    /// The number of a document's newest save.
    private func newestSave(_ doc: String) throws -> Int {
        try succeed("versions", doc, "--json").json(VersionsShape.self).versions.first?.save ?? 0
    }

    /// An outline holding Base, and an archive copy of it.
    private func twoCopies() throws -> (a: String, b: String) {
        let a = try makeOutline("A.poddoc", holding: "Base")
        let b = path("B.poddoc.tar.zst")
        try succeed("save", a, "--as", b)
        return (a, b)
    }

    func testMergingAgainAfterMoreWorkTakesOnlyWhatIsNew() throws {
        let (a, b) = try twoCopies()
        try succeed("outline", "add", a, "X")
        try succeed("outline", "add", b, "Y")
        XCTAssertEqual(try succeed("merge", a, b, "--json").json(Shape.self).outcome, "merged")
        try succeed("outline", "add", b, "Z")
        XCTAssertEqual(try succeed("merge", a, b, "--json").json(Shape.self).outcome, "merged")
        XCTAssertEqual(try titles(a).sorted(), ["Base", "X", "Y", "Z"], "each item once")
        // Again and again, both ways: nothing new, and the copies end alike.
        XCTAssertTrue(try succeed("merge", a, b).stdout.contains("Nothing to merge"))
        XCTAssertEqual(try succeed("merge", b, a, "--json").json(Shape.self).outcome, "fastForward")
        XCTAssertEqual(try hash(a), try hash(b))
        XCTAssertEqual(try succeed("merge", b, a, "--json").json(Shape.self).outcome, "upToDate")
        // Keep working on both, merge both ways again.
        try succeed("outline", "add", a, "P")
        try succeed("outline", "rename", b, "1", "Base!")
        try succeed("merge", a, b)
        try succeed("merge", b, a)
        XCTAssertEqual(try titles(a).sorted(), ["Base!", "P", "X", "Y", "Z"])
        XCTAssertEqual(try hash(a), try hash(b))
        try succeed("check", a)
        try succeed("check", b)
    }

    func testAChangeAlreadyMergedIsNoConflictAgain() throws {
        let (a, b) = try twoCopies()
        try succeed("outline", "rename", b, "1", "House")
        try succeed("merge", a, b)
        XCTAssertEqual(try titles(a), ["House"])
        // A renames it again after taking B's name; B goes on with other work.
        try succeed("outline", "rename", a, "1", "Home sweet home")
        try succeed("outline", "add", b, "Garden")
        let again = try succeed("merge", a, b, "--prefer", "theirs", "--json").json(Shape.self)
        XCTAssertEqual(again.conflicts.count, 0, "B's rename was merged already")
        XCTAssertEqual(try titles(a), ["Home sweet home", "Garden"], "--prefer theirs does not take back the newer title")
        // And B takes A's newer title without a conflict.
        XCTAssertEqual(try succeed("merge", b, a, "--json").json(Shape.self).conflicts.count, 0)
        XCTAssertEqual(try titles(b), ["Home sweet home", "Garden"])
    }

    func testAnItemBroughtBackByAConflictKeepsBothCopiesChanges() throws {
        let (a, b) = try twoCopies()
        // A renames Base, then deletes it; B notes it.
        try succeed("outline", "rename", a, "1", "Base, renamed")
        try succeed("outline", "rm", a, "1")
        try succeed("outline", "note", b, "1", "from B")
        let merged = try succeed("merge", a, b, "--prefer", "theirs", "--json").json(Shape.self)
        XCTAssertEqual(merged.conflicts.count, 1, "deleted here, changed there")
        XCTAssertEqual(try titles(a), ["Base, renamed"], "A's rename comes back with the item")
        XCTAssertTrue(try succeed("outline", "tree", a, "--json").stdout.contains("from B"), "and B's note")
        // B takes it as A holds it; merging again changes nothing.
        XCTAssertEqual(try succeed("merge", b, a, "--json").json(Shape.self).conflicts.count, 0)
        XCTAssertEqual(try titles(b), ["Base, renamed"])
        XCTAssertEqual(try hash(a), try hash(b))
    }

    func testAnItemKeptAgainstADeleteIsAChangeToACopyThatDeletedItUnseen() throws {
        let (a, b) = try twoCopies()
        let c = path("C.poddoc.tar.zst")
        try succeed("save", a, "--as", c)
        try succeed("outline", "note", b, "1", "keep me")
        try succeed("merge", c, b)
        // A deletes the item; B keeps it against that delete.
        try succeed("outline", "rm", a, "1")
        XCTAssertEqual(try succeed("merge", b, a, "--prefer", "mine", "--json").json(Shape.self).conflicts.count, 1)
        XCTAssertEqual(try titles(b), ["Base"])
        let listed = try succeed("versions", b).stdout
        XCTAssertFalse(
            listed.contains("OutlineItem: \n") || listed.hasSuffix("OutlineItem: "),
            "a merge that only kept an item lists no empty counts: \(listed)")
        // A has been seen by B's keeping: it takes the item back without a conflict.
        XCTAssertEqual(try succeed("merge", a, b, "--json").json(Shape.self).conflicts.count, 0)
        XCTAssertEqual(try titles(a), ["Base"])
        // C, which had B's note, deletes the item without seeing the keeping: a conflict that
        // says so, not a silent delete.
        try succeed("outline", "rm", c, "1")
        let refused = try fail(75, "merge", c, b)
        XCTAssertTrue(refused.stdout.contains("deleted here, kept against a delete in the other copy"), refused.stdout + refused.stderr)
        try succeed("merge", c, b, "--prefer", "theirs")
        XCTAssertEqual(try titles(c), ["Base"])
    }

    /// A copy that is not there: the message says how a copy is made, never `poddoc new`
    /// (whose document shares no save with any other).
    func testAMissingCopyIsNamedWithHowToMakeOne() throws {
        let (a, _) = try twoCopies()
        let refused = try fail(66, "merge", a, path("Notes-laptop.poddoc.tar.zst"))
        XCTAssertTrue(refused.stderr.contains("poddoc save DOC --as COPY"), refused.stderr)
        XCTAssertFalse(refused.stderr.contains("poddoc new"), refused.stderr)
    }

    func testASpecUpdatedAgainOnOneCopyIsNoConflict() throws {
        let a = path("Specs.poddoc")
        try succeed("new", a, "--kind", "pods")
        let b = path("Specs-copy.poddoc")
        try succeed("save", a, "--as", b)
        func importSpec(_ doc: String, summary: String) throws {
            try succeed("import", doc, "--from", try writeProbeSpecPage(summary: summary))
        }
        try importSpec(b, summary: "First")
        try succeed("merge", a, b)
        try importSpec(b, summary: "Second")
        try succeed("merge", a, b)
        try importSpec(b, summary: "Third")
        let merged = try succeed("merge", a, b, "--json").json(Shape.self)
        XCTAssertEqual(merged.conflicts.count, 0, "only B ever changed the spec")
        XCTAssertTrue(try succeed("pods", "show", a, "MergeProbe").stdout.contains("Third"))
        XCTAssertTrue(try succeed("pods", "count", a).stdout.contains("1"))
    }

    func testThreeCopiesMergedInDifferentOrdersHoldEachItemOnce() throws {
        let (a, b, c) = try threeCopies(b: "B.poddoc", c: "C.poddoc.zip")
        try succeed("outline", "add", a, "From A")
        try succeed("outline", "add", b, "From B")
        try succeed("outline", "add", c, "From C")
        // And each puts one at the top.
        for (doc, name) in [(a, "A"), (b, "B"), (c, "C")] { try succeed("outline", "insert", doc, "1", "Top \(name)") }
        // A takes B then C; C takes A (before A took anything) then B.
        let early = path("A-early.poddoc")
        try succeed("save", a, "--as", early)
        try succeed("merge", a, b)
        try succeed("merge", a, c)
        try succeed("merge", c, early)
        try succeed("merge", c, b)
        XCTAssertEqual(try titles(a).sorted(), ["Base", "From A", "From B", "From C", "Top A", "Top B", "Top C"])
        XCTAssertEqual(try titles(c).sorted(), ["Base", "From A", "From B", "From C", "Top A", "Top B", "Top C"])
        // Each copy appended at one place (one order key): the ids, the same in every copy,
        // give one order, whatever the order of the merges.
        XCTAssertEqual(try titles(a), try titles(c), "one sibling order in both")
        // Merging the two results adds nothing twice, either way.
        try succeed("merge", a, c)
        try succeed("merge", c, a)
        XCTAssertEqual(try titles(a).sorted(), ["Base", "From A", "From B", "From C", "Top A", "Top B", "Top C"])
        XCTAssertEqual(try hash(a), try hash(c))
        try succeed("check", a)
    }

    func testDiffOfTwoCopiesNamesNewItemsAsNewNotAsRenames() throws {
        let (a, b) = try twoCopies()
        try succeed("outline", "add", a, "Groceries")
        try succeed("outline", "add", b, "Tax return")
        let diff = try succeed("diff", a, b).stdout
        XCTAssertFalse(diff.contains("renamed"), diff)
        XCTAssertTrue(diff.contains(#"- 2 "Groceries""#), diff)
        XCTAssertTrue(diff.contains(#"+ 2 "Tax return""#), diff)
        // After a merge, this copy's own items keep their identity: the diff from before
        // the merge shows only what came in.
        try succeed("merge", a, b)
        let since = try succeed("diff", a, "--from", "2").stdout
        XCTAssertFalse(since.contains("renamed"), since)
        XCTAssertTrue(since.contains(#"+ 3 "Tax return""#) || since.contains(#"+ 2 "Tax return""#), since)
        XCTAssertFalse(since.contains("Groceries"), since)
    }

    func testARevertedMergeComesBackWhenMergedAgain() throws {
        let (a, b) = try twoCopies()
        try succeed("outline", "add", b, "Errands")
        try succeed("outline", "rename", b, "1", "House")
        try succeed("outline", "add", a, "Desk")
        struct Versions: Decodable {
            struct Version: Decodable { let save: Int }
            let versions: [Version]
        }
        let before = try succeed("versions", a, "--json").json(Versions.self).versions.first!.save
        try succeed("merge", a, b)
        try succeed("revert", a, "--to", String(before))
        XCTAssertEqual(try titles(a), ["Base", "Desk"])
        // Merging the same copy again brings what the merge brought, with nothing to resolve.
        XCTAssertEqual(try succeed("merge", a, b, "--json").json(Shape.self).conflicts.count, 0)
        XCTAssertEqual(try titles(a).sorted(), ["Desk", "Errands", "House"])
        // B takes A's work and keeps its own.
        try succeed("merge", b, a)
        XCTAssertEqual(try titles(b).sorted(), ["Desk", "Errands", "House"])
    }

    /// A copy that took another's whole state (a fast-forward) and reverted it: a third copy
    /// that merges it has not seen what the reverted merge brought, so merging the copy that
    /// made it still brings it; and the copy that reverted, merging that copy again, takes it
    /// back and ends up seeing everything, so the next merges change nothing.
    func testAFastForwardRevertedIsNotSeenByCopiesThatMergeTheReverter() throws {
        let (a, b) = try twoCopies()
        let c = path("C.poddoc.tar.zst")
        try succeed("save", a, "--as", c)
        try succeed("outline", "add", c, "From C")
        try succeed("outline", "add", b, "From B")
        try succeed("merge", c, b)
        struct Versions: Decodable {
            struct Version: Decodable { let save: Int }
            let versions: [Version]
        }
        let before = try succeed("versions", b, "--json").json(Versions.self).versions.first!.save
        XCTAssertEqual(try succeed("merge", b, c, "--json").json(Shape.self).outcome, "fastForward")
        try succeed("revert", b, "--to", String(before))
        XCTAssertEqual(try titles(b), ["Base", "From B"])

        try succeed("merge", a, b)
        XCTAssertEqual(try titles(a), ["Base", "From B"])
        XCTAssertEqual(try succeed("merge", a, c, "--json").json(Shape.self).outcome, "merged")
        XCTAssertEqual(try titles(a).sorted(), ["Base", "From B", "From C"], "C's item reaches A")

        // B merges C again: C's item comes back, and B has now seen all of C.
        try succeed("merge", b, c)
        XCTAssertEqual(try titles(b).sorted(), ["Base", "From B", "From C"])
        XCTAssertEqual(try succeed("merge", b, c, "--json").json(Shape.self).outcome, "upToDate")
        // Everyone ends alike, and merging again changes nothing.
        try succeed("merge", a, b)
        try succeed("merge", b, a)
        try succeed("merge", c, a)
        XCTAssertEqual(try hash(a), try hash(b))
        XCTAssertEqual(try hash(a), try hash(c))
        for (mine, theirs) in [(a, b), (b, a), (a, c), (c, a), (b, c), (c, b)] {
            XCTAssertEqual(try succeed("merge", mine, theirs, "--json").json(Shape.self).outcome, "upToDate", "\(mine) \(theirs)")
        }
    }

    func testAMergeUndoneInTheShellComesBackWhenMergedAgain() throws {
        let (a, b) = try twoCopies()
        try succeed("outline", "add", b, "Errands")
        let shell = try succeed("open", a, "-c", "merge \(b); undo; tree; quit")
        XCTAssertTrue(shell.stdout.hasSuffix("1. Base\n"), shell.stdout)
        XCTAssertEqual(try titles(a), ["Base"])
        let again = try succeed("merge", a, b, "--json").json(Shape.self)
        XCTAssertNotEqual(again.outcome, "upToDate", "the undone merge is taken back")
        XCTAssertEqual(try titles(a), ["Base", "Errands"])
        try succeed("merge", b, a)
        XCTAssertEqual(try titles(b), ["Base", "Errands"], "B keeps its own item")
    }

    /// Two copies that set one value alike, unseen by each other, make it the merging copy's
    /// own: a copy that later changes what only one of them set meets the other as a conflict
    /// whichever copy it merges first. B and C rename Base to Home; A takes both; B takes its
    /// rename back. Met directly, A once took B's old title without a word (its Home counted
    /// as B's), while C, met first, made it a conflict.
    func testAValueSetAlikeByTwoCopiesMeetsALaterChangeTheSameWayInEveryOrder() throws {
        let (a, b, c) = try threeCopies(b: "B.poddoc.tar.zst", c: "C.poddoc.tar.zst")
        let beforeRename = try newestSave(b)
        try succeed("outline", "rename", b, "1", "Home")
        try succeed("outline", "rename", c, "1", "Home")
        try succeed("merge", a, b)
        try succeed("merge", a, c)
        XCTAssertEqual(try titles(a), ["Home"])
        try succeed("revert", b, "--to", String(beforeRename))
        XCTAssertEqual(try titles(b), ["Base"])

        let direct = path("A1.poddoc")
        try FileManager.default.copyItem(atPath: a, toPath: direct)
        XCTAssertEqual(try fail(75, "merge", direct, b, "--json").json(Shape.self).conflicts.map(\.title), ["Home"])
        XCTAssertEqual(try fail(75, "merge", c, b, "--json").json(Shape.self).conflicts.map(\.title), ["Home"])
        // Resolved the same way, both orders end alike.
        try succeed("merge", direct, b, "--prefer", "theirs")
        try succeed("merge", c, b, "--prefer", "theirs")
        try succeed("merge", a, c, "--prefer", "theirs")
        XCTAssertEqual(try titles(direct), ["Base"])
        XCTAssertEqual(try titles(a), ["Base"])
        try succeed("check", a)
    }

    /// A rename taken back (`revert --to`) is still a change the other copy's delete did not
    /// know of, so the outcome no longer depends on which copy comes first. A renames Base and
    /// takes it back; B deletes it, and C takes B's state; B then meets A's rename and keeps
    /// the item. Merged B first, A keeps Base; merged C first, A met the delete as no change
    /// (its title was back), let the item go, and then got it back from B as "Renamed".
    func testARenameTakenBackMeetsADeleteTheSameWayInEveryOrder() throws {
        let a = try makeOutline("A.poddoc", holding: "Base")
        let b = path("B.poddoc.tar.zst")
        let c = path("C.poddoc.tar.zst")
        try succeed("save", a, "--as", b)
        let beforeRename = try newestSave(a)
        try succeed("outline", "rename", a, "1", "Renamed")
        try succeed("outline", "rm", b, "1")
        try succeed("save", b, "--as", c)
        try succeed("merge", b, a, "--prefer", "theirs")
        XCTAssertEqual(try titles(b), ["Renamed"])
        try succeed("revert", a, "--to", String(beforeRename))
        let other = path("A2.poddoc")
        try FileManager.default.copyItem(atPath: a, toPath: other)

        // B first: A's own title stands, and C has nothing more.
        try succeed("merge", a, b)
        XCTAssertTrue(try succeed("merge", a, c).stdout.contains("Nothing to merge"))
        XCTAssertEqual(try titles(a), ["Base"])
        // C first: its delete meets A's rename, taken back or not, as a conflict naming it.
        let deleted = try fail(75, "merge", other, c, "--json").json(Shape.self)
        XCTAssertEqual(deleted.conflicts.map(\.title), ["Base"])
        try succeed("merge", other, c, "--prefer", "mine")
        try succeed("merge", other, b)
        XCTAssertEqual(try titles(other), ["Base"], "the same as merging B first")
        try succeed("check", other)
    }
}

/// Copies that kept working past the history they keep share a save whose values were let go:
/// `merge` says so and offers `--two-way`, which lists every difference as a conflict and
/// changes nothing until `--prefer` resolves them; after that the copies merge exactly again.
final class TwoWayMergeTests: CommandLineTestCase {
    private struct Shape: Decodable {
        struct Conflict: Decodable { let title: String? }
        let outcome: String
        let conflicts: [Conflict]
    }

    private func titles(_ doc: String) throws -> [String] {
        try succeed("outline", "tree", doc).stdout.split(separator: "\n").map {
            String($0.drop { $0 == " " }.drop { $0 != " " }.dropFirst())
        }
    }

    /// Lets go of a copy's oldest history entries, as retention does past its limit.
    private func letGoOfHistory(_ doc: String, upTo save: Int) throws {
        let db = try DatabaseQueue(path: path("\(doc)/StoreContent/persistentStore"))
        try db.write { try $0.execute(sql: "DELETE FROM _poddoc_history WHERE save <= ?", arguments: [save]) }
        try db.close()
    }

    private func files(_ doc: String) throws -> [String: Data] {
        var found: [String: Data] = [:]
        let root = URL(fileURLWithPath: path(doc))
        for case let url as URL in FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)! {
            if let data = try? Data(contentsOf: url) { found[url.path] = data }
        }
        return found
    }

    func testCopiesPastTheirSharedHistoryMergeTwoWaysThenExactly() throws {
        let a = try makeOutline("A.poddoc", holding: "Work", "Home")
        try succeed("save", a, "--as", path("B.poddoc"))
        let b = path("B.poddoc")
        try succeed("outline", "rename", a, "1", "Office")
        try succeed("outline", "rename", a, "1", "Studio")
        try succeed("outline", "add", b, "Errand")
        // A keeps the history of its last save only: the shared save's values are gone.
        let kept = try succeed("versions", a).stdout.split(separator: "\n").filter { $0.hasPrefix("save ") }.count
        XCTAssertGreaterThan(kept, 1)
        let newest = Int(try succeed("versions", a).stdout.split(separator: "\n").first!.split(separator: " ")[1])!
        try letGoOfHistory("A.poddoc", upTo: newest - 1)

        let refused = try fail(65, "merge", a, b)
        XCTAssertTrue(refused.stderr.contains("--two-way"), refused.stderr)
        // Two ways: every difference is a conflict; without a preference nothing changes.
        let before = try files("A.poddoc")
        let listed = try fail(75, "merge", a, b, "--two-way", "--json").json(Shape.self)
        XCTAssertEqual(Set(listed.conflicts.compactMap(\.title)), ["Studio", "Errand"], "\(listed.conflicts)")
        XCTAssertEqual(try files("A.poddoc"), before, "a merge with conflicts left unresolved writes nothing")

        XCTAssertEqual(try succeed("merge", a, b, "--two-way", "--prefer", "theirs", "--json").json(Shape.self).outcome, "merged")
        XCTAssertEqual(try titles(a), ["Work", "Home", "Errand"])
        // B takes A's state whole; then each holds the other, and merges are exact again.
        XCTAssertEqual(try succeed("merge", b, a, "--json").json(Shape.self).outcome, "fastForward")
        XCTAssertEqual(try succeed("merge", a, b, "--json").json(Shape.self).outcome, "upToDate")
        try succeed("outline", "rename", a, "2", "House")
        try succeed("outline", "add", b, "Garden")
        XCTAssertEqual(try succeed("merge", a, b, "--json").json(Shape.self).conflicts.count, 0)
        XCTAssertEqual(try succeed("merge", b, a, "--json").json(Shape.self).conflicts.count, 0)
        XCTAssertEqual(try titles(a), ["Work", "House", "Errand", "Garden"])
        XCTAssertEqual(try titles(b), try titles(a))
        try succeed("check", a)
        try succeed("check", b)
    }

    /// With a copy of the state the two parted from (git's merge base), the merge needs no
    /// shared history: what each changed is what differs from the base, and only true
    /// conflicts are conflicts. The git merge driver passes git's base so.
    func testABaseCopyMergesCopiesPastTheirSharedHistoryExactly() throws {
        let a = try makeOutline("A.poddoc", holding: "Work", "Home")
        try succeed("save", a, "--as", path("B.poddoc"))
        try succeed("save", a, "--as", path("Base.poddoc"))
        let b = path("B.poddoc")
        try succeed("outline", "rename", a, "1", "Office")
        try succeed("outline", "rename", a, "1", "Studio")
        try succeed("outline", "add", b, "Errand")
        try succeed("outline", "note", b, "2", "keys")
        let newest = Int(try succeed("versions", a).stdout.split(separator: "\n").first!.split(separator: " ")[1])!
        try letGoOfHistory("A.poddoc", upTo: newest - 1)
        try fail(65, "merge", a, b)

        let merged = try succeed("merge", a, b, "--base", path("Base.poddoc"), "--json").json(Shape.self)
        XCTAssertEqual(merged.outcome, "merged")
        XCTAssertEqual(merged.conflicts.count, 0)
        XCTAssertEqual(try titles(a), ["Studio", "Home", "Errand"])
        XCTAssertTrue(try succeed("outline", "ls", a, "--json").stdout.contains("keys"))
        try succeed("check", a)
        // A base of another document is refused.
        let other = try makeOutline("Other.poddoc", holding: "Work")
        XCTAssertTrue(try fail(65, "merge", b, a, "--base", other).stderr.contains("cannot be the merge's base"))

        // Through git's merge driver, archives whose histories were let go the same way.
        for (doc, archive) in [(a, "Ours.poddoc.tar.zst"), (b, "Theirs.poddoc.tar.zst"), (path("Base.poddoc"), "Base.poddoc.tar.zst")] {
            try succeed("save", doc, "--as", path(archive))
        }
        let c = try makeOutline("C.poddoc", holding: "One", "Two")
        try succeed("save", c, "--as", path("C-base.poddoc.tar.zst"))
        try succeed("save", c, "--as", path("D.poddoc"))
        try succeed("outline", "rename", c, "1", "Uno")
        try succeed("outline", "rename", c, "1", "Eins")
        try succeed("outline", "add", path("D.poddoc"), "Three")
        let cNewest = Int(try succeed("versions", c).stdout.split(separator: "\n").first!.split(separator: " ")[1])!
        try letGoOfHistory("C.poddoc", upTo: cNewest - 1)
        try succeed("save", c, "--as", path("C-ours.poddoc.tar.zst"))
        try succeed("save", path("D.poddoc"), "--as", path("C-theirs.poddoc.tar.zst"))
        let driven = try succeed(
            "merge-driver", path("C-base.poddoc.tar.zst"), path("C-ours.poddoc.tar.zst"), path("C-theirs.poddoc.tar.zst"),
            "Notes.poddoc.tar.zst")
        XCTAssertTrue(driven.stderr.contains("merged Notes.poddoc.tar.zst: "), driven.stderr)
        XCTAssertEqual(try titles(path("C-ours.poddoc.tar.zst")), ["Eins", "Two", "Three"])
        try succeed("check", path("C-ours.poddoc.tar.zst"))
    }
}
