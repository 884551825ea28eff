import ArgumentParser
import OutlineInterchange
import Outliner
import PodDocDocument

/// `ls [PATH]`: the items directly under an item.
struct ListItems: DocumentOperation {
    static let name = "ls"
    static let examples = [
        "poddoc outline ls Notes.poddoc",
        "poddoc outline ls Notes.poddoc /Groceries --json",
    ]
    static let abstract = "List the items under an item (the current one in the shell)."
    static let kind: DocumentKind? = .outline
    static let changesDocument = false

    @Argument(help: "The item: positions like 1.3.2, or titles like /Work/Projects (a / inside a title is written \\/).")
    var path: String?

    struct Shape: Encodable {
        struct Entry: Encodable {
            let path: String
            let title: String
            let note: String?
            /// `open` or `done` for a task; left out otherwise.
            let status: String?
        }
        let path: String
        let items: [Entry]
    }

    func perform(in session: DocumentSession) async throws {
        let outline = try session.outline()
        let parent = try session.item(at: path)
        let base = try session.pathText(of: parent)
        // Titles, and whether there is a note; a note itself only for --json, one at a time.
        let headings = try outline.headings(under: parent)
        let paths = headings.map { base.isEmpty ? "\($0.index + 1)" : "\(base).\($0.index + 1)" }
        guard session.output.json else {
            session.output.line(
                zip(paths, headings).map {
                    "\($0). \(Self.checkbox($1.status))\(TerminalText.oneLine($1.title))\($1.hasNote ? "  [note]" : "")"
                }
                .joined(separator: "\n"))
            return
        }
        var entries: [Shape.Entry] = []
        for (path, heading) in zip(paths, headings) {
            entries.append(
                Shape.Entry(
                    path: path, title: heading.title, note: heading.hasNote ? try outline.note(of: heading.id) : nil,
                    status: heading.status?.rawValue))
        }
        session.output.emit(Shape(path: base, items: entries), text: "")
    }

    /// `[ ] ` for an open task, `[x] ` for a done one, nothing for an item that is no task.
    static func checkbox(_ status: OutlineStatus?) -> String {
        status.map { $0 == .done ? "[x] " : "[ ] " } ?? ""
    }
}

/// `tree [PATH] [--depth N]`: the outline below an item, indented.
struct PrintTree: DocumentOperation {
    static let name = "tree"
    static let examples = [
        "poddoc outline tree Notes.poddoc",
        "poddoc outline tree Notes.poddoc 1 --depth 1",
    ]
    static let abstract = "Print the outline below an item, numbered and indented (--json: the outline JSON format)."
    static let kind: DocumentKind? = .outline
    static let changesDocument = false

    @Argument(help: "The item (default: the current one in the shell, else the whole outline).")
    var path: String?

    @Option(help: "Print at most this many levels.")
    var depth: Int?

    func perform(in session: DocumentSession) async throws {
        let outline = try session.outline()
        let id = try session.item(at: path)
        if session.output.json {
            session.output.line(String(decoding: try outline.exportOutline(as: .json, from: id), as: UTF8.self))
        } else {
            session.output.line(try outline.printTree(from: id, maxDepth: depth))
        }
    }
}

/// `find WORDS…`: items whose titles hold every word.
struct FindItems: DocumentOperation {
    static let name = "find"
    static let examples = [
        "poddoc outline find Notes.poddoc milk",
        "poddoc outline find Notes.poddoc --open --limit 10   # the tasks still open",
    ]
    static let abstract = "Find the items whose titles contain every word (case-insensitive)."
    static let kind: DocumentKind? = .outline
    static let changesDocument = false

    @Argument(help: "Words to look for (none: every item with the status asked for).")
    var words: [String] = []

    @Flag(help: "Only tasks still open (`outline undone`, Markdown `- [ ]`, OPML `_status=\"unchecked\"`).")
    var open = false

    @Flag(help: "Only tasks done (`outline done`).")
    var done = false

    @Option(help: "Show at most this many items.")
    var limit = 100

    func validate() throws {
        if open && done { throw ValidationError("--open and --done cannot go together: a task is one or the other.") }
        if words.isEmpty && !open && !done { throw ValidationError("Give words to look for, or --open or --done.") }
    }

    struct Shape: Encodable {
        struct Match: Encodable {
            let path: String
            let title: String
        }
        let matches: [Match]
    }

    func perform(in session: DocumentSession) async throws {
        let status: OutlineStatus? = open ? .open : done ? .done : nil
        let matches = try session.outline().find(words.joined(separator: " "), status: status, limit: limit).map {
            Shape.Match(path: OutlinePath.indexes($0.indexPath).description, title: $0.title)
        }
        session.output.emit(
            Shape(matches: matches),
            text: matches.isEmpty
                ? "No item matches." : matches.map { "\($0.path). \(TerminalText.oneLine($0.title))" }.joined(separator: "\n"))
    }
}
