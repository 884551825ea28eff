import ArgumentParser
import Foundation
import PodDocArchive
import PodDocDocument
import PodDocFileSystem
import PodDocStore

// MARK: - git-setup

/// `poddoc git-setup [--global] [--remove] [--pattern P]…`: makes poddoc git's merge driver and
/// diff driver for poddoc archives.
struct GitSetupCommand: PodDocCommand {
    static let configuration = CommandConfiguration(
        commandName: "git-setup",
        abstract: "Make poddoc git's merge driver and diff driver for poddoc archives in this repository (or, with --global, for you).",
        discussion: Examples.discussion(
            """
            Writes one line a pattern to .gitattributes (`*.poddoc.tar.zst merge=poddoc diff=poddoc -text`, \
            and the same for .zip and .tar.gz, or the --pattern given) and sets merge.poddoc.driver and \
            diff.poddoc.textconv in the repository's git config. Then `git merge`, `git rebase` and \
            `git cherry-pick` merge the documents' saves as `poddoc merge` does (conflicts stop the merge \
            and leave our version; `git config poddoc.prefer mine|theirs` resolves them one way), and \
            `git diff`, `git log -p` and `git show` print their changes as text. Running it again changes \
            nothing; --remove takes it all away.

            Keep documents in git as archives: a package folder is many files that git would merge one \
            by one, pairing one branch's store with the other's metadata. git-setup warns about packages \
            it finds tracked.
            """,
            [
                "poddoc git-setup",
                "poddoc git-setup --pattern 'notes/*.tar.zst'",
                "poddoc git-setup --remove",
            ]))

    @Option(
        name: .customLong("pattern"),
        help: "A gitattributes pattern naming poddoc archives (repeatable); the three archive endings by default.")
    var patterns: [String] = []

    @Flag(help: "Set it up for every repository of yours (git's --global config and your global attributes file).")
    var global = false

    @Flag(help: "Take the set-up away: the .gitattributes lines poddoc wrote and the poddoc driver settings.")
    var remove = false

    @OptionGroup var outputOptions: OutputOptions
    var json: Bool { outputOptions.json }

    /// What `git-setup` prints with `--json`.
    struct Shape: Encodable {
        let attributesFile: String
        let added: [String]
        let removed: [String]
        let settings: [String: String]
        let unset: [String]
        let warnings: [String]
    }

    static let defaultPatterns = ["*.poddoc.tar.zst", "*.poddoc.zip", "*.poddoc.tar.gz"]
    static let attributes = "merge=poddoc diff=poddoc -text"

    func execute() async throws {
        let output = outputOptions.output
        let here = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        var git = try Git(in: here)
        let top: URL?
        if global {
            top = nil
        } else {
            let found = try await git.run(["rev-parse", "--show-toplevel"], allowing: [128])
            guard found.status == 0 else {
                throw CommandFailure(
                    .usage, code: "notAWorkTree",
                    "\(here.path) is not inside a git work tree: run `poddoc git-setup` in the repository, or `poddoc git-setup --global`.")
            }
            top = URL(fileURLWithPath: found.output.trimmingCharacters(in: .newlines))
            git = try Git(in: top!)
        }
        let attributesFile = try await self.attributesFile(top: top, git: git)
        let patterns = self.patterns.isEmpty ? Self.defaultPatterns : self.patterns
        let ours = patterns.map { "\($0) \(Self.attributes)" }
        let existing = try Self.lines(of: attributesFile)

        var added: [String] = []
        var removed: [String] = []
        var settings: [String: String] = [:]
        var unset: [String] = []
        let scope = global ? ["--global"] : []
        if remove {
            let dropped = existing.filter { line in
                self.patterns.isEmpty ? line.hasSuffix(" " + Self.attributes) : ours.contains(line)
            }
            if !dropped.isEmpty {
                try Self.write(existing.filter { !dropped.contains($0) }, to: attributesFile)
                removed = dropped
            }
            for name in ["merge.poddoc.name", "merge.poddoc.driver", "diff.poddoc.textconv", "diff.poddoc.cachetextconv"]
            where try await git.setting(name, global: global) != nil {
                try await git.run(["config"] + scope + ["--unset", name])
                unset.append(name)
            }
        } else {
            added = ours.filter { !existing.contains($0) }
            if !added.isEmpty { try Self.write(existing + added, to: attributesFile) }
            let poddoc = Self.invocation()
            let wanted = [
                "merge.poddoc.name": "poddoc documents: a three-way merge of their saves",
                "merge.poddoc.driver": "\(poddoc) merge-driver %O %A %B %P",
                "diff.poddoc.textconv": "\(poddoc) textconv",
                // git keeps each version's text (in its notes), so `git log -p` reads each once.
                "diff.poddoc.cachetextconv": "true",
            ]
            for (name, value) in wanted.sorted(by: { $0.key < $1.key }) where try await git.setting(name, global: global) != value {
                try await git.run(["config"] + scope + [name, value])
                settings[name] = value
            }
        }
        let warnings = top == nil || remove ? [] : try await trackedPackages(git)
        for warning in warnings { output.message("poddoc: warning: \(warning)") }
        let shape = Shape(
            attributesFile: attributesFile.path, added: added, removed: removed, settings: settings, unset: unset, warnings: warnings)
        output.emit(shape, text: Self.text(shape, remove: remove, global: global))
    }

    /// The attributes file to write: the work tree's `.gitattributes`, or (`--global`) the
    /// one git reads for every repository (`core.attributesFile`, else
    /// `$XDG_CONFIG_HOME/git/attributes`).
    private func attributesFile(top: URL?, git: Git) async throws -> URL {
        if let top { return top.appending(path: ".gitattributes") }
        let environment = ProcessInfo.processInfo.environment
        let home = environment["HOME"] ?? NSHomeDirectory()
        if let configured = try await git.setting("core.attributesFile", global: true), !configured.isEmpty {
            return URL(fileURLWithPath: configured.hasPrefix("~/") ? home + configured.dropFirst() : configured)
        }
        let config = environment["XDG_CONFIG_HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? home + "/.config"
        let folder = URL(fileURLWithPath: config).appending(path: "git")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder.appending(path: "attributes")
    }

    /// How git is to run poddoc: by name when `poddoc` on PATH is this program, else by its
    /// path (quoted for the shell git runs drivers with).
    private static func invocation() -> String {
        let this = Subprocess.poddoc.resolvingSymlinksInPath()
        if let found = Subprocess.find("poddoc"), found.resolvingSymlinksInPath() == this { return "poddoc" }
        return ShellQuoting.quote(this.path)
    }

    /// Package folders git tracks, each as a warning.
    private func trackedPackages(_ git: Git) async throws -> [String] {
        let listed = try await git.run(["ls-files", "-z"])
        var packages: Set<String> = []
        for path in listed.output.split(separator: "\0") {
            let parts = path.split(separator: "/")
            if let end = parts.dropLast().firstIndex(where: { $0.hasSuffix(".poddoc") }) {
                packages.insert(parts[...end].joined(separator: "/"))
            }
        }
        return packages.sorted().map { package in
            "\(package) is a package folder tracked by git: git merges its files one by one and can pair one branch's store with the other's metadata. Keep it as an archive: `poddoc save \(ShellQuoting.quote(package)) --as \(ShellQuoting.quote(package + ".tar.zst"))`, then `git rm -r --cached \(ShellQuoting.quote(package))`."
        }
    }

    private static func lines(of file: URL) throws -> [String] {
        guard FileManager.default.fileExists(atPath: file.path) else { return [] }
        let text = try String(contentsOf: file, encoding: .utf8)
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() }
        return lines
    }

    private static func write(_ lines: [String], to file: URL) throws {
        let text = lines.isEmpty ? "" : lines.joined(separator: "\n") + "\n"
        try FileSystem().write(Data(text.utf8), to: file)
    }

    private static func text(_ shape: Shape, remove: Bool, global: Bool) -> String {
        let config = global ? "your global git config" : "the repository's git config"
        var lines: [String] = []
        for line in shape.added { lines.append("  \(shape.attributesFile): added `\(line)`") }
        for line in shape.removed { lines.append("  \(shape.attributesFile): removed `\(line)`") }
        for (name, value) in shape.settings.sorted(by: { $0.key < $1.key }) { lines.append("  \(config): \(name) = \(value)") }
        for name in shape.unset { lines.append("  \(config): unset \(name)") }
        if lines.isEmpty {
            return remove
                ? "poddoc is not set up with git here; nothing changed." : "git is already set up for poddoc documents; nothing changed."
        }
        let head =
            remove
            ? "Took poddoc's git set-up away:"
            : "Set up git for poddoc documents (`git merge` merges their saves; `git diff` and `git log -p` show their changes as text):"
        return ([head] + lines).joined(separator: "\n")
    }
}

// MARK: - merge-driver

/// `poddoc merge-driver BASE OURS THEIRS PATH`: git's merge driver for poddoc archives.
struct MergeDriverCommand: PodDocCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge-driver",
        abstract: "git's merge driver for poddoc archives: git runs it (set it up with `poddoc git-setup`).",
        discussion: Examples.discussion(
            """
            git passes its base, ours and theirs (%O %A %B) and the document's path (%P). The documents' \
            own save graph finds what each branch changed; a clean merge is written to OURS (exit 0); \
            conflicts are listed on standard error with the items' titles and both values, OURS is left \
            as it was, and the exit status is 1, so git stops and reports a conflict. The attribute \
            `poddoc-prefer=mine|theirs` on the document in .gitattributes, else `git config poddoc.prefer \
            mine|theirs`, else --prefer resolves every conflict one way.

            When the two versions share no save whose changes they still keep (their histories were \
            let go), git's base tells what each changed; without a base (both branches added the \
            document), the merge is two-way: every difference is a conflict, resolved by poddoc.prefer.
            """,
            [
                "git config merge.poddoc.driver \"poddoc merge-driver %O %A %B %P\"   # what git-setup sets",
                "poddoc merge-driver Notes-base.poddoc.tar.zst Notes.poddoc.tar.zst Notes-laptop.poddoc.tar.zst Notes.poddoc.tar.zst   # git runs it so",
            ]))

    @Argument(help: "git's merge base (%O); empty when the branches share none.", completion: .file())
    var base: String
    @Argument(help: "Our version (%A): the merge is written here.", completion: .file())
    var ours: String
    @Argument(help: "Their version (%B).", completion: .file())
    var theirs: String
    @Argument(help: "The document's path in the repository (%P): its ending names the archive format.")
    var path: String

    @Option(help: "Resolve every conflict one way: mine (ours) or theirs; default: git config poddoc.prefer.")
    var prefer: MergeSide?

    func execute() async throws {
        let name = URL(fileURLWithPath: path).lastPathComponent
        guard (try? ArchiveFormat(inferringFrom: URL(fileURLWithPath: path))) != nil else {
            throw CommandFailure(
                .usage, code: "notAnArchive",
                "\(path) does not end in .tar.zst, .zip or .tar.gz: poddoc merges archives in git (a package folder is many files git merges one by one). Save it as an archive with `poddoc save`."
            )
        }
        let git = try Git(in: URL(fileURLWithPath: FileManager.default.currentDirectoryPath))
        var prefer = self.prefer
        // The document's own attribute (`Notes.poddoc.tar.zst poddoc-prefer=theirs` in
        // .gitattributes), then the repository's setting.
        let checked = try await git.run(["check-attr", "poddoc-prefer", "--", path], allowing: [128])  // 128: not in a work tree
        let attribute =
            checked.status == 0 ? checked.output.split(separator: ":").last.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) } : nil
        if prefer == nil, let attribute, !["unspecified", "unset", "set"].contains(attribute) {
            guard let side = MergeSide(rawValue: attribute) else {
                throw CommandFailure(
                    .usage, code: "usage",
                    "The attribute poddoc-prefer of \(path) is \"\(attribute)\": set it to mine or theirs in .gitattributes, or take it out."
                )
            }
            prefer = side
        }
        if prefer == nil, let configured = try await git.setting("poddoc.prefer") {
            guard let side = MergeSide(rawValue: configured) else {
                throw CommandFailure(
                    .usage, code: "usage", "git config poddoc.prefer is \"\(configured)\": set it to mine or theirs, or unset it.")
            }
            prefer = side
        }
        let scratch = try ScratchFolder(prefix: "poddoc-merge")
        defer { scratch.remove() }
        let oursCopy = scratch.url.appending(path: "ours").appending(path: name)
        let theirsCopy = scratch.url.appending(path: "theirs").appending(path: name)
        let fileSystem = FileSystem()
        for (source, copy) in [(ours, oursCopy), (theirs, theirsCopy)] {
            try FileManager.default.createDirectory(at: copy.deletingLastPathComponent(), withIntermediateDirectories: true)
            try fileSystem.copyFile(at: URL(fileURLWithPath: source), to: copy)
        }
        var arguments = ["merge", oursCopy.path, theirsCopy.path, "--json"] + (prefer.map { ["--prefer", $0.rawValue] } ?? [])
        var result = try await scratch.poddoc(arguments)
        var twoWay = false
        if result.status == ExitStatus.badInput.rawValue, result.errors.contains("--two-way") {
            // The branches share no save whose changes both still keep: what each changed is
            // what differs from git's base; without one (both branches added the document),
            // every difference is a conflict, which poddoc.prefer resolves.
            if let size = try? FileManager.default.attributesOfItem(atPath: base)[.size] as? Int, size > 0 {
                let baseCopy = scratch.url.appending(path: "base").appending(path: name)
                try FileManager.default.createDirectory(at: baseCopy.deletingLastPathComponent(), withIntermediateDirectories: true)
                try fileSystem.copyFile(at: URL(fileURLWithPath: base), to: baseCopy)
                arguments += ["--base", baseCopy.path]
            } else {
                twoWay = true
                arguments.append("--two-way")
            }
            result = try await scratch.poddoc(arguments)
        }
        let report = try? JSONDecoder().decode(MergeDocument.Shape.self, from: result.stdout)
        func say(_ lines: [String]) { FileHandle.standardError.write(Data(lines.map { "poddoc: \($0)\n" }.joined().utf8)) }
        let conflicts = (report?.conflicts ?? []).map { "  " + MergeDocument.describe($0) }
        switch (result.status, report) {
        case (0, let report?):
            try fileSystem.copyFile(at: oursCopy, to: URL(fileURLWithPath: ours))
            let how = twoWay ? " (two-way: the branches share no save whose changes both keep)" : ""
            let resolved =
                conflicts.isEmpty
                ? []
                : ["\(conflicts.count) conflict\(conflicts.count == 1 ? "" : "s") resolved as \(report.preferred ?? "preferred"):"]
                    + conflicts
            say(["merged \(path)\(how): \(report.changed) object\(report.changed == 1 ? "" : "s") changed"] + resolved)
        case (ExitStatus.locked.rawValue, _?):
            say(
                [
                    "\(conflicts.count) conflict\(conflicts.count == 1 ? "" : "s") in \(path)\(twoWay ? " (two-way: every difference is one)" : ""):"
                ] + conflicts)
            throw CommandFailure(
                .failure, code: "mergeConflict",
                "\(path): the branches changed the same things differently; ours is left as it was. Take one side for all with `git config poddoc.prefer mine` (or theirs) and merge again, or merge by hand with `poddoc merge \(ShellQuoting.quote(path)) THEIRS --prefer …` (THEIRS from `git show`)."
            )
        default:
            let said = result.errors.split(separator: "\n").map(String.init)
            say(said)
            throw CommandFailure(
                .failure, code: "mergeFailed", "\(path) could not be merged (poddoc merge exited \(result.status)); ours is left as it was."
            )
        }
    }
}

// MARK: - textconv

/// `poddoc textconv FILE`: a document as text, for git's diff.
struct TextConvCommand: PodDocCommand {
    static let configuration = CommandConfiguration(
        commandName: "textconv",
        abstract: "Print a document as text for `git diff` and `git log -p` (git runs it: set it up with `poddoc git-setup`).",
        discussion: Examples.discussion(
            """
            An outline prints as Markdown (every item and its note, in order); a pods document as CSV, one \
            spec a line. The document is only read.
            """,
            [
                "poddoc textconv Notes.poddoc.tar.zst | head -20",
                "git config diff.poddoc.textconv \"poddoc textconv\"   # what git-setup sets",
            ]))

    @Argument(help: "The document (a package or an archive).", completion: .file())
    var document: String

    func execute() async throws {
        let scratch = try ScratchFolder(prefix: "poddoc-textconv")
        defer { scratch.remove() }
        struct Info: Decodable { let kind: String? }
        let described = try await scratch.poddoc(["info", document, "--json"])
        guard described.status == 0, let kind = try? JSONDecoder().decode(Info.self, from: described.stdout).kind else {
            FileHandle.standardError.write(described.stderr)
            throw CommandFailure(
                ExitStatus(rawValue: described.status) ?? .document, code: "unreadable", "\(document) cannot be read as a poddoc document.")
        }
        let format = kind == "pods" ? "csv" : "markdown"
        let text = scratch.url.appending(path: "document.\(format == "csv" ? "csv" : "md")")
        let exported = try await scratch.poddoc(["export", document, text.path, "--format", format])
        guard exported.status == 0 else {
            FileHandle.standardError.write(exported.stderr)
            throw CommandFailure(
                ExitStatus(rawValue: exported.status) ?? .document, code: "exportFailed", "\(document) could not be printed as text.")
        }
        let handle = try FileHandle(forReadingFrom: text)
        defer { try? handle.close() }
        while let chunk = try handle.read(upToCount: 1 << 16), !chunk.isEmpty { FileHandle.standardOutput.write(chunk) }
    }
}

// MARK: - Helpers

/// A private folder for one command's scratch files, where poddoc runs as a child with its
/// state (working copies, locks of archives it opens) kept inside, so nothing is left in the
/// user's state folder.
struct ScratchFolder {
    let url: URL

    init(prefix: String) throws {
        var template = Array((FileManager.default.temporaryDirectory.path + "/\(prefix)-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else {
            throw CommandFailure(
                .document, code: "fileSystem", "Could not make a scratch folder in \(FileManager.default.temporaryDirectory.path).")
        }
        url = URL(fileURLWithPath: String(cString: made))
    }

    /// Runs this program with `arguments`, its state folder inside the scratch folder.
    func poddoc(_ arguments: [String]) async throws -> Subprocess.Result {
        try await Subprocess(
            executable: Subprocess.poddoc, arguments: arguments,
            environment: ["XDG_STATE_HOME": url.appending(path: "state").path]
        ).run()
    }

    func remove() { try? FileManager.default.removeItem(at: url) }
}
