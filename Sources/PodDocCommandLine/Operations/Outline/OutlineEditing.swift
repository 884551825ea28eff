import ArgumentParser
import OutlineInterchange
import Outliner
import PodDocDocument

/// `add TITLE [--under PATH] [--at N] [--note TEXT]`.
struct AddItem: DocumentOperation {
    static let name = "add"
    static let examples = [
        "poddoc outline add Notes.poddoc Bread --under /Groceries",
        "poddoc outline add Notes.poddoc \"Call the bank\" --at 1 --note \"before noon\"",
    ]
    static let abstract = "Add an item under an item (the current one in the shell), last or at a position."
    static let kind: DocumentKind? = .outline
    static let changesDocument = true

    @Argument(help: "The new item's title.")
    var title: String

    @Option(help: "The parent item (default: the current item; the top level at first).")
    var under: String?

    @Option(help: "Its position among the parent's items, from 1 (default: last).")
    var at: Int?

    @Option(help: "A note under the item.")
    var note: String?

    func perform(in session: DocumentSession) async throws {
        let outline = try session.outline()
        let parent = try session.item(at: under)
        let index = try session.insertionIndex(at: at, among: outline.childCount(of: parent))
        let id = try outline.add(OutlineItem(title: title, note: note), under: parent, at: index)
        try session.reportEdit(at: id)
    }
}

/// `insert PATH TITLE`: a new item where `PATH` is, moving that one down.
struct InsertItem: DocumentOperation {
    static let name = "insert"
    static let examples = [
        "poddoc outline insert Notes.poddoc 1.2 Butter   # before the item now at 1.2",
        "poddoc outline insert Notes.poddoc 1 Today",
    ]
    static let abstract = "Insert an item at a position (1.3 inserts before the item now at 1.3)."
    static let kind: DocumentKind? = .outline
    static let changesDocument = true

    @Argument(help: "Where the new item goes, as positions (1.3), up to one past the last item.")
    var path: String

    @Argument(help: "The new item's title.")
    var title: String

    func perform(in session: DocumentSession) async throws {
        guard case .indexes(let positions) = try OutlinePath(parsing: path), let position = positions.last else {
            throw CommandFailure(
                .badInput, code: "invalidPath", "insert takes a position such as 1.3 (where the new item goes), not '\(path)'.")
        }
        let outline = try session.outline()
        let parent = try outline.itemID(at: .indexes(Array(positions.dropLast())))
        let id = try outline.add(OutlineItem(title: title), under: parent, at: position - 1)
        try session.reportEdit(at: id)
    }
}

/// `rename PATH TITLE`.
struct RenameItem: DocumentOperation {
    static let name = "rename"
    static let examples = [
        "poddoc outline rename Notes.poddoc 1.1 \"Oat milk\"",
        "poddoc outline rename Notes.poddoc /Work Office",
    ]
    static let abstract = "Give an item a new title."
    static let kind: DocumentKind? = .outline
    static let changesDocument = true

    @Argument(help: "The item.")
    var path: String

    @Argument(help: "Its new title.")
    var title: String

    func perform(in session: DocumentSession) async throws {
        let id = try session.item(at: path)
        try session.outline().rename(id, to: title)
        try session.reportEdit(at: id)
    }
}

/// `done PATH` and `undone PATH`: mark an item a task, done or still open.
protocol MarkStatus: DocumentOperation {
    /// The status the operation gives the item.
    static var status: OutlineStatus { get }
    /// The item.
    var path: String { get }
}

extension MarkStatus {
    static var kind: DocumentKind? { .outline }
    static var changesDocument: Bool { true }

    @MainActor func perform(in session: DocumentSession) async throws {
        let id = try session.item(at: path)
        try session.outline().setStatus(id, to: Self.status)
        try session.reportEdit(at: id)
    }
}

/// `done PATH`: mark an item a task done.
struct MarkDone: MarkStatus {
    static let name = "done"
    static let examples = [
        "poddoc outline done Notes.poddoc 1.1",
        "poddoc outline done Notes.poddoc /Work/Report --json",
    ]
    static let abstract = "Mark an item done (a task; `undone` marks it open again)."
    static let status = OutlineStatus.done

    @Argument(help: "The item.")
    var path: String
}

/// `undone PATH`: mark an item a task still open.
struct MarkUndone: MarkStatus {
    static let name = "undone"
    static let examples = [
        "poddoc outline undone Notes.poddoc 1.2",
        "poddoc outline undone Notes.poddoc /Work/Report --json",
    ]
    static let abstract = "Mark an item a task still open (`- [ ]`); `find --open` lists them."
    static let status = OutlineStatus.open

    @Argument(help: "The item.")
    var path: String
}

/// `note PATH [TEXT]`: set or remove an item's note.
struct SetNote: DocumentOperation {
    static let name = "note"
    static let examples = [
        "poddoc outline note Notes.poddoc 2.1 \"due Friday\"",
        "poddoc outline note Notes.poddoc 2.1   # removes the note",
    ]
    static let abstract = "Set an item's note, or remove it when no text is given."
    static let kind: DocumentKind? = .outline
    static let changesDocument = true

    @Argument(help: "The item.")
    var path: String

    @Argument(help: "The note (leave out to remove the note).")
    var text: String?

    func perform(in session: DocumentSession) async throws {
        let id = try session.item(at: path)
        try session.outline().setNote(id, to: text)
        try session.reportEdit(at: id)
    }
}
