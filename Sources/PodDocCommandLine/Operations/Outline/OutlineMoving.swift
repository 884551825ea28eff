import ArgumentParser
import OutlineInterchange
import Outliner
import PodDocDocument
import PodDocStore

/// `mv PATH [--under PATH] [--at N]`.
struct MoveItem: DocumentOperation {
    static let name = "mv"
    static let examples = [
        "poddoc outline mv Notes.poddoc 1.2 --under 2",
        "poddoc outline mv Notes.poddoc /Work --at 1",
    ]
    static let abstract = "Move an item, with everything below it, under another item."
    static let kind: DocumentKind? = .outline
    static let changesDocument = true

    @Argument(help: "The item to move.")
    var path: String

    @Option(help: "The new parent (/ for the top level; leave out to move the item among its siblings with --at).")
    var under: String?

    @Option(help: "Its position among the new parent's items, from 1 (default: last).")
    var at: Int?

    func validate() throws {
        guard under != nil || at != nil else {
            throw ValidationError("mv needs --under (a new parent), --at (a new position among its siblings), or both.")
        }
    }

    func perform(in session: DocumentSession) async throws {
        let outline = try session.outline()
        let id = try session.item(at: path)
        let current = try outline.parent(of: id) ?? outline.rootID
        let parent = try under.map { try session.item(at: $0) } ?? current
        // Among its own siblings, the item's place is one of the others'.
        let others = try outline.childCount(of: parent) - (parent == current ? 1 : 0)
        try outline.move(id, under: parent, at: session.insertionIndex(at: at, among: others))
        try session.reportEdit(at: id)
    }
}

/// An edit of one item named by its path, with nothing else to say: `indent`, `outdent`.
protocol SingleItemEdit: DocumentOperation {
    /// The item's path.
    var path: String { get }
    /// Makes the edit.
    @MainActor static func edit(_ id: ObjectID, in outline: OutlineStore) throws
}

extension SingleItemEdit {
    static var kind: DocumentKind? { .outline }
    static var changesDocument: Bool { true }

    @MainActor
    func perform(in session: DocumentSession) async throws {
        let id = try session.item(at: path)
        try Self.edit(id, in: session.outline())
        try session.reportEdit(at: id)
    }
}

/// `indent PATH`: make an item a child of the item above it.
struct IndentItem: SingleItemEdit {
    static let name = "indent"
    static let examples = [
        "poddoc outline indent Notes.poddoc 2   # under the item before it, last",
        "poddoc outline indent Notes.poddoc /Groceries/Eggs",
    ]
    static let abstract = "Make an item the last child of the item above it."

    @Argument(help: "The item.")
    var path: String

    static func edit(_ id: ObjectID, in outline: OutlineStore) throws { try outline.indent(id) }
}

/// `outdent PATH`: make an item a sibling of its parent.
struct OutdentItem: SingleItemEdit {
    static let name = "outdent"
    static let examples = [
        "poddoc outline outdent Notes.poddoc 1.2   # after its parent",
        "poddoc outline outdent Notes.poddoc /Work/Report --json",
    ]
    static let abstract = "Make an item follow its parent, one level up."

    @Argument(help: "The item.")
    var path: String

    static func edit(_ id: ObjectID, in outline: OutlineStore) throws { try outline.outdent(id) }
}

/// `rm PATH`: delete an item and everything below it.
struct RemoveItem: DocumentOperation {
    static let name = "rm"
    static let examples = [
        "poddoc outline rm Notes.poddoc 1.2",
        "poddoc outline rm Notes.poddoc /Work   # and everything under it",
    ]
    static let abstract = "Delete an item and everything below it (undo brings them back)."
    static let kind: DocumentKind? = .outline
    static let changesDocument = true

    @Argument(help: "The item.")
    var path: String

    func perform(in session: DocumentSession) async throws {
        let id = try session.item(at: path)
        let outline = try session.outline()
        let deleted = try outline.delete(id)
        if let current = session.currentItem, (try? outline.indexPath(of: current)) == nil { session.currentItem = nil }
        try session.reportEdit(at: nil, deleted: deleted)
    }
}
