import Foundation
import PodDocStore

// MARK: - SaveBookkeeping

/// What a document holds that is not on disk yet, and the save under way: one value whose
/// changes are named for the steps of a save, so that no step moves one piece without the
/// others. ``ManagedDocument`` keeps one; it holds no file and no context, so its transitions
/// are tested on their own.
///
/// A save goes ``begin(actionCount:additionalContent:)`` (it takes the worker saves and the
/// additional content it is going to write), ``pushedToRoot()`` (the main context's changes
/// are in the root, not on disk), ``committed(_:)`` (the store's commit point), then
/// ``installed(_:)`` (the staged additional content is in place); or ``failed(_:)`` at any
/// step, which marks what it took as unsaved again. Between saves, ``workerSaved()`` and
/// ``additionalContentEdited()`` count new work, and ``reset(savedAdditionalContent:)`` starts
/// over when the document is reverted or opened again.
struct SaveBookkeeping {
    /// What a save took when it began.
    struct Save {
        /// The worker saves into the root counted when the save began; later ones stay
        /// unsaved after it.
        let workerSaves: Int
        /// The undo manager's action count when the save began: the actions it describes.
        let actionCount: Int
        /// The additional content it writes; nil when it had not changed.
        let additionalContent: [String: Data]?
    }

    /// The main context pushed changes into the root that are not on disk yet.
    private(set) var rootHasUnsavedChanges = false
    /// Saves of worker contexts into the root since the document last saved.
    private(set) var unsavedWorkerSaves = 0
    /// The additional content changed since the save that last took it.
    private(set) var additionalContentChanged = false
    /// The additional content as the store last committed it.
    private(set) var savedAdditionalContent: [String: Data]
    /// The undo manager's action count at the last save: later actions are the next save's.
    private(set) var savedActionCount = 0
    /// The save running now, which a save asked for meanwhile waits for.
    private(set) var runningSave: Task<ObjectContext.WrittenMerge?, any Error>?

    /// Bookkeeping of a document just opened, with the additional content on disk.
    init(savedAdditionalContent: [String: Data]) {
        self.savedAdditionalContent = savedAdditionalContent
    }

    /// Whether anything besides the main context's own changes waits for a save.
    var hasUnsavedWork: Bool {
        rootHasUnsavedChanges || unsavedWorkerSaves > 0 || additionalContentChanged
    }

    // MARK: Between saves

    /// A worker context saved into the root.
    mutating func workerSaved() {
        unsavedWorkerSaves += 1
    }

    /// The application set the additional content.
    mutating func additionalContentEdited() {
        additionalContentChanged = true
    }

    /// Actions up to `actionCount` are described by a save already (a merge's own save).
    mutating func described(upTo actionCount: Int) {
        savedActionCount = actionCount
    }

    /// Nothing is unsaved: the document was reverted to what is on disk, or opened again.
    /// The actions already described and a save still running are kept.
    mutating func reset(savedAdditionalContent content: [String: Data]) {
        rootHasUnsavedChanges = false
        unsavedWorkerSaves = 0
        additionalContentChanged = false
        savedAdditionalContent = content
    }

    // MARK: A save

    /// A save begins: it takes the worker saves counted so far and, if it changed, the
    /// additional content (which is no longer marked changed: edits made during the save are
    /// the next save's).
    mutating func begin(actionCount: Int, additionalContent: [String: Data]) -> Save {
        let save = Save(
            workerSaves: unsavedWorkerSaves, actionCount: actionCount,
            additionalContent: additionalContentChanged ? additionalContent : nil)
        additionalContentChanged = false
        return save
    }

    /// The save pushed the main context's changes into the root.
    mutating func pushedToRoot() {
        rootHasUnsavedChanges = true
    }

    /// The store committed the save: what it took is on disk.
    mutating func committed(_ save: Save) {
        savedActionCount = save.actionCount
        rootHasUnsavedChanges = false
        unsavedWorkerSaves -= save.workerSaves
    }

    /// The save's additional content is in place.
    mutating func installed(_ save: Save) {
        if let content = save.additionalContent { savedAdditionalContent = content }
    }

    /// The save failed: the additional content it took is unsaved again (the root's changes
    /// and the worker saves were never marked saved).
    mutating func failed(_ save: Save) {
        if save.additionalContent != nil { additionalContentChanged = true }
    }

    /// `task` runs the save now.
    mutating func started(_ task: Task<ObjectContext.WrittenMerge?, any Error>) {
        runningSave = task
    }

    /// `task` ended; another save may have started since, which stays the running one.
    mutating func ended(_ task: Task<ObjectContext.WrittenMerge?, any Error>) {
        if runningSave == task { runningSave = nil }
    }
}
