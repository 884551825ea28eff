import OutlineInterchange
import Outliner
import PodDocDocument
import PodDocStore

/// An open document and what commands on it share: the output, and for an outline its
/// ``OutlineStore`` and the current item (`cd`).
@MainActor
final class DocumentSession {
    /// The document.
    let document: ManagedDocument
    /// Where results go.
    var output: Output
    /// The item `ls`, `tree` and `add` use when given no path (the shell's `cd`).
    var currentItem: ObjectID?
    /// Asks the user a question and waits for the answer (the next line typed); nil when
    /// there is nobody to ask (a one-shot command, a `-c` script) or the input ended.
    var ask: ((String) async -> String?)?
    private var outlineStore: OutlineStore?
    /// The undo manager's ``ObjectUndoManager/actionCount`` when the running operation began:
    /// an edit that records no action did nothing.
    private var actionsAtStart: Int

    init(document: ManagedDocument, output: Output) {
        self.document = document
        self.output = output
        actionsAtStart = document.undoManager.actionCount
    }

    /// Marks the start of an operation (the shell runs many on one session).
    func beginOperation() {
        actionsAtStart = document.undoManager.actionCount
    }

    /// The outline of an outline document, on the main context (its edits are undoable).
    ///
    /// - Throws: ``OutlineError`` when the outline cannot be read.
    func outline() throws -> OutlineStore {
        if let outlineStore, outlineStore.context === document.mainContext { return outlineStore }
        let store = try OutlineStore(context: document.mainContext)
        outlineStore = store
        return store
    }

    /// A private-queue context for reading saved content off the main actor (pods queries).
    func reader() -> ObjectContext {
        ObjectContext(.privateQueue, parent: document.rootContext, name: "reader")
    }

    /// The item a path names; no path means the current item (the root, at first).
    ///
    /// - Throws: ``OutlineError`` (`invalidPath`, `notFound`, `ambiguousPath`).
    func item(at path: String?) throws -> ObjectID {
        let outline = try outline()
        guard let path else { return currentItem ?? outline.rootID }
        return try outline.itemID(at: OutlinePath(parsing: path))
    }

    /// The index (from 0) of a position given with `--at` (from 1) among `count` items: nil
    /// when none was given (last).
    ///
    /// - Throws: ``CommandFailure`` (bad input) for a position below 1 or past the end, in the
    ///   user's terms.
    func insertionIndex(at position: Int?, among count: Int) throws -> Int? {
        guard let position else { return nil }
        guard (1...(count + 1)).contains(position) else {
            throw CommandFailure(
                .badInput, code: "invalidArgument",
                "--at \(position) is \(position < 1 ? "before the first place" : "past the end of the list"): positions go from 1 (first) to \(count + 1) (last)."
            )
        }
        return position - 1
    }

    /// `1.3.2` for an item (empty for the root).
    func pathText(of id: ObjectID) throws -> String {
        OutlinePath.indexes(try outline().indexPath(of: id)).description
    }

    /// Prints what the last edit did, by its undo name: `Add "Milk" (1.3)`.
    func reportEdit(at id: ObjectID?, deleted: Int? = nil) throws {
        // An edit to what is already so (a move to where the item is) records nothing.
        let name =
            document.undoManager.actionCount == actionsAtStart
            ? "Nothing to change" : document.undoManager.undoActionName ?? "Done"
        let path = try id.map(pathText(of:))
        output.emit(EditShape(done: name, path: path, deleted: deleted), text: name + (path.map { " (\($0))" } ?? ""))
    }
}

/// What an edit prints with `--json`: `{"done": "Add \"Milk\"", "path": "1.3"}`.
struct EditShape: Encodable {
    /// The edit's undo name.
    let done: String
    /// Where the item is now.
    let path: String?
    /// How many items a delete removed.
    let deleted: Int?
}
