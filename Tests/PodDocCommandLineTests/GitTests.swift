import Foundation
import XCTest

/// poddoc with the real `git`: `git-setup` registers the merge and diff drivers; branches that
/// each edit one archive document merge (and rebase) with every edit; a true conflict stops
/// the merge with git's message and our version untouched, and `poddoc.prefer` resolves it;
/// `git diff`, `git log -p` and `git show` print items and specs as text.
final class GitTests: CommandLineTestCase {
    private var gitPath: String!

    override func setUpWithError() throws {
        try super.setUpWithError()
        guard let found = ["/usr/bin/git", "/bin/git"].first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw TestSetupFailure(description: "git is not installed; `make test` installs it (scripts/bootstrap.sh)")
        }
        gitPath = found
        environment["GIT_CONFIG_NOSYSTEM"] = "1"
        environment["XDG_CONFIG_HOME"] = path("home/.config")
        try FileManager.default.createDirectory(atPath: path("home"), withIntermediateDirectories: true)
        try git("init", "-q", "-b", "main")
        try git("config", "user.name", "Test")
        try git("config", "user.email", "test@example.org")
        try "home/\nstate/\n*.opml\n*.json\ntheirs.*\n".write(toFile: path(".gitignore"), atomically: true, encoding: .utf8)
    }

    /// Runs git in the repository (the test's folder); asserts it worked unless `allowing` says.
    @discardableResult
    private func git(
        _ arguments: String..., allowing failure: Bool = false, file: StaticString = #filePath, line: UInt = #line
    ) throws
        -> RunResult
    {
        let result = try runTool(gitPath, ["-C", folder.path] + arguments)
        if !failure {
            XCTAssertEqual(
                result.status, 0, "git \(arguments.joined(separator: " ")):\n\(result.stderr)\(result.stdout)", file: file, line: line)
        }
        return result
    }

    private func commit(_ message: String) throws {
        try git("add", "-A")
        try git("commit", "-q", "-m", message)
    }

    private func titles(_ doc: String) throws -> [String] {
        try succeed("outline", "tree", doc).stdout.split(separator: "\n").map { String($0) }
    }

    /// An archive outline committed on `main`: Work, Home, Errands (with Milk under it).
    private func committedOutline() throws -> String {
        try succeed("git-setup")
        let doc = path("Notes.poddoc.tar.zst")
        try succeed("new", doc, "--kind", "outline")
        for title in ["Work", "Home", "Errands"] { try succeed("outline", "add", doc, title) }
        try succeed("outline", "add", doc, "Milk", "--under", "3")
        try commit("base")
        return doc
    }

    func testSetUpIsIdempotentRemovableAndWarnsAboutPackages() throws {
        let first = try succeed("git-setup").stdout
        XCTAssertTrue(first.contains("added `*.poddoc.tar.zst merge=poddoc diff=poddoc -text`"), first)
        let attributes = try String(contentsOfFile: path(".gitattributes"), encoding: .utf8)
        XCTAssertEqual(
            attributes,
            "*.poddoc.tar.zst merge=poddoc diff=poddoc -text\n*.poddoc.zip merge=poddoc diff=poddoc -text\n*.poddoc.tar.gz merge=poddoc diff=poddoc -text\n"
        )
        XCTAssertTrue(try git("config", "--get", "merge.poddoc.driver").stdout.contains("merge-driver %O %A %B %P"))
        XCTAssertTrue(try git("config", "--get", "diff.poddoc.textconv").stdout.contains("textconv"))
        XCTAssertTrue(try succeed("git-setup").stdout.contains("nothing changed"))
        XCTAssertEqual(try String(contentsOfFile: path(".gitattributes"), encoding: .utf8), attributes)

        // A package tracked by git is named, with the way to keep it as an archive.
        try makeOutline("Plans.poddoc", holding: "One")
        try commit("a package")
        let warned = try succeed("git-setup").stderr
        XCTAssertTrue(warned.contains("Plans.poddoc is a package folder tracked by git"), warned)
        XCTAssertTrue(warned.contains("poddoc save Plans.poddoc --as Plans.poddoc.tar.zst"), warned)

        let removed = try succeed("git-setup", "--remove").stdout
        XCTAssertTrue(removed.contains("unset merge.poddoc.driver"), removed)
        XCTAssertEqual(try String(contentsOfFile: path(".gitattributes"), encoding: .utf8), "")
        XCTAssertEqual(try git("config", "--get", "merge.poddoc.driver", allowing: true).status, 1)

        // For every repository of the user: git's global config and attributes file.
        try succeed("git-setup", "--global")
        XCTAssertTrue(try git("config", "--global", "--get", "diff.poddoc.textconv").stdout.contains("textconv"))
        XCTAssertTrue(
            try String(contentsOfFile: path("home/.config/git/attributes"), encoding: .utf8).contains("*.poddoc.zip merge=poddoc"))

        // Outside a work tree: a clear refusal.
        try FileManager.default.removeItem(atPath: path(".git"))
        XCTAssertTrue(try fail(64, "git-setup").stderr.contains("not inside a git work tree"))
    }

    func testBranchesEditingOneArchiveMergeWithEveryEdit() throws {
        let doc = try committedOutline()
        try git("checkout", "-q", "-b", "laptop")
        try succeed("outline", "add", doc, "Garden")
        try succeed("outline", "rename", doc, "1", "Office")
        try succeed("outline", "note", doc, "3", "buy on Friday")
        try commit("laptop")
        try git("checkout", "-q", "main")
        try succeed("outline", "add", doc, "Bread", "--under", "3")
        try succeed("outline", "mv", doc, "1", "--under", "3")
        try succeed("outline", "rm", doc, "1")
        try commit("desktop")

        let merged = try git("merge", "laptop", "-m", "merge laptop")
        XCTAssertTrue(merged.stderr.contains("poddoc: merged Notes.poddoc.tar.zst: "), merged.stderr)
        XCTAssertEqual(try git("status", "--porcelain").stdout, "", "the merge was committed")
        XCTAssertEqual(try titles(doc), ["1. Errands", "  1. Milk", "  2. Bread", "  3. Office", "2. Garden"])
        XCTAssertTrue(try succeed("outline", "ls", doc, "--json").stdout.contains("buy on Friday"))
        try succeed("check", doc)

        // The history reads as text: items, never "Binary files differ".
        let shown = try git("show", "HEAD^2", "--", "Notes.poddoc.tar.zst").stdout
        XCTAssertFalse(shown.contains("Binary files"), shown)
        XCTAssertTrue(shown.contains("-- Work") && shown.contains("+- Office") && shown.contains("+  buy on Friday"), shown)
        let log = try git("log", "-p", "--format=%s", "--", "Notes.poddoc.tar.zst").stdout
        XCTAssertTrue(log.contains("+- Garden") && log.contains("-- Home") && log.contains("+  - Bread"), log)
        let diff = try git("diff", "main~2", "main", "--", "Notes.poddoc.tar.zst").stdout
        XCTAssertTrue(diff.contains("+- Garden") && diff.contains("-- Home"), diff)
    }

    func testATrueConflictStopsTheMergeLeavesOursAndIsResolvedByPreference() throws {
        let doc = try committedOutline()
        try git("checkout", "-q", "-b", "laptop")
        try succeed("outline", "rename", doc, "2", "House")
        try commit("laptop")
        try git("checkout", "-q", "main")
        try succeed("outline", "rename", doc, "2", "Cottage")
        try commit("desktop")
        let desktop = try git("rev-parse", "HEAD").stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let ours = try Data(contentsOf: URL(fileURLWithPath: doc))

        let stopped = try git("merge", "laptop", "-m", "merge", allowing: true)
        XCTAssertNotEqual(stopped.status, 0)
        XCTAssertTrue(stopped.stdout.contains("CONFLICT (content): Merge conflict in Notes.poddoc.tar.zst"), stopped.stdout)
        XCTAssertTrue(stopped.stderr.contains("OutlineItem") && stopped.stderr.contains("at 2 \"Cottage\""), stopped.stderr)
        XCTAssertTrue(stopped.stderr.contains("title: mine \"Cottage\", theirs \"House\""), stopped.stderr)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: doc)), ours, "our version is left as it was")

        // Resolved by hand: poddoc merge with git's copy of theirs, then git add and commit.
        let theirs = path("theirs.poddoc.tar.zst")
        XCTAssertEqual(
            try runTool("/bin/sh", ["-c", "git -C \"$0\" show laptop:Notes.poddoc.tar.zst > \"$1\"", folder.path, theirs]).status, 0)
        try succeed("merge", doc, theirs, "--prefer", "theirs")
        XCTAssertEqual(try titles(doc)[1], "2. House")
        try commit("merged by hand")
        XCTAssertEqual(try git("log", "-1", "--format=%p").stdout.split(separator: " ").count, 2, "a merge commit")

        // Or by the preference in git's config: the same merge again from before it.
        try git("reset", "-q", "--hard", desktop)
        XCTAssertEqual(try titles(doc)[1], "2. Cottage")
        try git("config", "poddoc.prefer", "theirs")
        let resolved = try git("merge", "laptop", "-m", "merge")
        XCTAssertTrue(resolved.stderr.contains("1 conflict resolved as theirs"), resolved.stderr)
        XCTAssertEqual(try titles(doc)[1], "2. House")
        try succeed("check", doc)

        // The document's own attribute comes before the repository's setting.
        try git("reset", "-q", "--hard", desktop)
        let attributes = try String(contentsOfFile: path(".gitattributes"), encoding: .utf8)
        try (attributes + "Notes.poddoc.tar.zst poddoc-prefer=mine\n").write(
            toFile: path(".gitattributes"), atomically: true, encoding: .utf8)
        let kept = try git("merge", "laptop", "-m", "merge")
        XCTAssertTrue(kept.stderr.contains("1 conflict resolved as mine"), kept.stderr)
        XCTAssertEqual(try titles(doc)[1], "2. Cottage")
        try git("reset", "-q", "--hard", desktop)
        try attributes.write(toFile: path(".gitattributes"), atomically: true, encoding: .utf8)

        // A preference that is neither: the merge stops, saying what to set.
        try git("reset", "-q", "--hard", desktop)
        try git("config", "poddoc.prefer", "sideways")
        let refused = try git("merge", "laptop", "-m", "merge", allowing: true)
        XCTAssertNotEqual(refused.status, 0, refused.stdout + refused.stderr)
        XCTAssertTrue(refused.stderr.contains("poddoc.prefer is \"sideways\""), refused.stderr)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: doc)), ours)
    }

    func testRebasingABranchOfSeveralCommitsKeepsEveryEdit() throws {
        let doc = try committedOutline()
        try git("checkout", "-q", "-b", "topic")
        try succeed("outline", "add", doc, "Garden")
        try commit("add Garden")
        try succeed("outline", "rename", doc, "4", "Garden beds")
        try commit("rename Garden")
        try succeed("outline", "note", doc, "1", "standup at nine")
        try commit("note Work")
        try git("checkout", "-q", "main")
        try succeed("outline", "add", doc, "Bills")
        try commit("add Bills")
        try succeed("outline", "rename", doc, "2", "House")
        try commit("rename Home")

        try git("checkout", "-q", "topic")
        try git("rebase", "-q", "main")
        XCTAssertEqual(try git("log", "--format=%s").stdout, "note Work\nrename Garden\nadd Garden\nrename Home\nadd Bills\nbase\n")
        let tree = try titles(doc)
        let names = tree.map { $0.trimmingCharacters(in: .whitespaces).drop { $0 != " " }.dropFirst() }
        XCTAssertEqual(Set(names.map(String.init)), ["Work", "House", "Errands", "Milk", "Bills", "Garden beds"], "\(tree)")
        XCTAssertTrue(try succeed("outline", "ls", doc, "--json").stdout.contains("standup at nine"))
        try succeed("check", doc)
    }

    func testSpecsMergeAndShowAsTextLines() throws {
        try succeed("git-setup")
        let doc = path("Specs.poddoc.tar.zst")
        try succeed("new", doc, "--kind", "pods")
        try commit("base")
        try git("checkout", "-q", "-b", "update")
        try succeed("import", doc, "--from", try writeProbeSpecPage(summary: "A probe for merges"))
        try commit("import")
        try git("checkout", "-q", "main")
        try "notes\n".write(toFile: path("README.txt"), atomically: true, encoding: .utf8)
        try commit("readme")
        try git("merge", "update", "-m", "merge")
        XCTAssertTrue(try succeed("pods", "count", doc).stdout.hasPrefix("1"))
        let shown = try git("show", "HEAD^2", "--", "Specs.poddoc.tar.zst").stdout
        XCTAssertTrue(shown.contains("MergeProbe,1.0.0,A probe for merges"), shown)
        XCTAssertTrue(shown.contains("A probe for merges"), shown)
    }
}
