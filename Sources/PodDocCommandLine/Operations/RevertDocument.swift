import ArgumentParser
import Foundation
import PodDocDocument
import PodDocStore

/// `revert --to N`: make the document what it was after save N, as a new save.
struct RevertDocument: DocumentOperation {
    static let name = "revert"
    static let examples = [
        "poddoc revert Notes.poddoc --to 1   # as a new save: revert again to undo it",
        "poddoc revert Notes.poddoc --to 2 --json",
    ]
    static let abstract =
        "Go back to save N (--to N; poddoc versions lists them) as a new save that can be undone; in the shell, revert alone drops unsaved changes."
    static let kind: DocumentKind? = nil
    static let changesDocument = true

    @Option(
        name: .customLong("to"),
        help: ArgumentHelp(
            "The save to go back to: a number `poddoc versions` lists. The saves after it stay in the history; reverting is a save of its own, so going back to the save before it undoes it.",
            valueName: "N"))
    var save: Int

    /// What `revert` prints with `--json`.
    struct Shape: Encodable {
        let save: Int
        /// Objects deleted since that save, put back.
        let restored: Int
        /// Objects whose properties took their old values.
        let changed: Int
        /// Objects inserted since that save, removed.
        let removed: Int
    }

    func validate() throws {
        if save < 0 { throw ValidationError("--to takes a save number, 0 or more; `poddoc versions` lists them.") }
    }

    func perform(in session: DocumentSession) async throws {
        let document = session.document
        // The history describes saves: edits not yet saved are saved first.
        if document.hasUnsavedChanges { try await document.autosave() }
        let store = document.rootContext.store
        let save = self.save
        let past = try await Task.detached { try store.pastState(after: save) }.value
        let context = document.mainContext
        let name = "Revert to save \(save)"
        let summary = try document.undoManager.group(name) { try context.revert(to: past) }
        // The merges since then are taken back: merging those copies again brings them back.
        document.takeBack(merges: try await Task.detached { try store.mergeSaves(after: save) }.value)
        session.currentItem = nil
        let shape = Shape(save: save, restored: summary.inserted, changed: summary.updated, removed: summary.deleted)
        let changed = summary.inserted + summary.updated + summary.deleted
        session.output.emit(
            shape,
            text: changed == 0
                ? "Nothing to change: the document is as it was after save \(save)."
                : "Reverted to save \(save): \(Self.count(summary.inserted, "object")) put back, \(Self.count(summary.updated, "object")) changed back, \(Self.count(summary.deleted, "object")) removed."
        )
    }

    private static func count(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }
}
