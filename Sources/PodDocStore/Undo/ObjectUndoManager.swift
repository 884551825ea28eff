/// Undo and redo for one context's changes: inserts, deletes (with everything their delete
/// rules did), attribute and relationship changes, grouped per user action.
///
/// Open a group around each user action and name it; changes made outside an explicit group
/// are grouped per event (until the context processes pending changes). Imports switch
/// registration off.
///
/// ```swift
/// let undo = ObjectUndoManager()
/// main.undoManager = undo
/// undo.group("Add \"Groceries\"") { _ = main.insert("Item") }
/// undo.undo()
/// ```
///
/// Use it on its context's queue only.
public final class ObjectUndoManager {
    /// The most groups kept (0: no limit). The oldest are dropped first.
    public var levelsOfUndo: Int {
        didSet { trim() }
    }
    /// Whether changes made outside an explicit group are grouped per event. Default: true.
    public var groupsByEvent = true
    /// Whether an undo is being applied.
    public private(set) var isUndoing = false
    /// Whether a redo is being applied.
    public private(set) var isRedoing = false

    weak var context: ObjectContext?
    private var undoStack: [UndoGroup] = []
    private var redoStack: [UndoGroup] = []
    private var openGroup: UndoGroup?
    private var explicitDepth = 0
    private var disabledCount = 0
    /// The names of the last actions done, undone and redone (``actionNames(since:)``).
    private var recentNames: [String] = []

    /// Makes an undo manager; attach it with ``ObjectContext/undoManager``.
    ///
    /// - Parameter levelsOfUndo: The most groups kept (0: no limit).
    public init(levelsOfUndo: Int = 0) {
        self.levelsOfUndo = levelsOfUndo
    }

    // MARK: - State

    /// Whether there is something to undo (an open group counts once it has changes).
    public var canUndo: Bool { !(openGroup?.steps.isEmpty ?? true) || !undoStack.isEmpty }
    /// Whether there is something to redo.
    public var canRedo: Bool { !redoStack.isEmpty }
    /// The name of the action ``undo()`` would revert.
    public var undoActionName: String? {
        if let openGroup, !openGroup.steps.isEmpty { return openGroup.name }
        return undoStack.last?.name
    }
    /// The name of the action ``redo()`` would repeat.
    public var redoActionName: String? { redoStack.last?.name }
    /// The number of groups that can be undone.
    public var undoCount: Int { undoStack.count + ((openGroup?.steps.isEmpty ?? true) ? 0 : 1) }
    /// Whether changes are being recorded.
    public var isUndoRegistrationEnabled: Bool { disabledCount == 0 }

    // MARK: - Grouping

    /// Opens a group; every change until the matching ``endUndoGrouping()`` undoes together.
    /// Groups nest; only the outermost counts.
    public func beginUndoGrouping(named name: String = "") {
        if explicitDepth == 0 {
            closeEventGroup(force: true)
            openGroup = UndoGroup(name: name, isImplicit: false)
        } else if !name.isEmpty, openGroup?.name.isEmpty ?? false {
            openGroup?.name = name
        }
        explicitDepth += 1
    }

    /// Closes the group opened by ``beginUndoGrouping(named:)``.
    ///
    /// - Precondition: a group is open.
    public func endUndoGrouping() {
        precondition(explicitDepth > 0, "endUndoGrouping() without beginUndoGrouping()")
        explicitDepth -= 1
        if explicitDepth == 0 { closeOpenGroup() }
    }

    /// Runs `body` as one named undo group.
    public func group<T>(_ name: String, _ body: () throws -> T) rethrows -> T {
        beginUndoGrouping(named: name)
        defer { endUndoGrouping() }
        return try body()
    }

    /// Names the current (or last) action, as shown by ``undoActionName``.
    public func setActionName(_ name: String) {
        if openGroup != nil {
            openGroup?.name = name
        } else if !undoStack.isEmpty {
            if undoStack[undoStack.count - 1].name.isEmpty { noteAction(name) }
            undoStack[undoStack.count - 1].name = name
        }
    }

    /// Stops recording (nests with ``enableUndoRegistration()``).
    public func disableUndoRegistration() { disabledCount += 1 }

    /// Resumes recording.
    public func enableUndoRegistration() {
        precondition(disabledCount > 0, "enableUndoRegistration() without disableUndoRegistration()")
        disabledCount -= 1
    }

    /// Runs `body` without recording its changes (imports, merges).
    public func withoutRegistration<T>(_ body: () throws -> T) rethrows -> T {
        disableUndoRegistration()
        defer { enableUndoRegistration() }
        return try body()
    }

    /// Forgets everything that could be undone or redone.
    public func removeAllActions() {
        undoStack.removeAll()
        redoStack.removeAll()
        if explicitDepth == 0 { openGroup = nil } else { openGroup?.steps.removeAll() }
    }

    /// Records, in the current group, that undoing it deletes these objects, each with its
    /// delete rules (a cascade takes what is below it); redo brings them back under the same
    /// IDs. For objects that come into the store some other way than an insert in this
    /// context: the rows of an insert batch, named by ``BatchUpsert/temporaryID(ofRow:)``.
    ///
    /// Undone while the batch is still staged in the context, it takes the whole batch out
    /// (redo stages it again). Undone while a save carries the batch, before the store has
    /// written it, it finds nothing to delete: the rows arrive with that save.
    ///
    /// ```swift
    /// let top = batch.temporaryID(ofRow: 0)   // the others are below it
    /// let receipt = try main.upsert(batch)
    /// undo.group("Import 1,329 items") { undo.registerDeletion(of: [top]) }
    /// ```
    public func registerDeletion(of ids: [ObjectID]) {
        for id in ids { register(.delete(id)) }
    }

    // MARK: - Undo and redo

    /// Reverts the last action. Its reverse becomes redoable.
    ///
    /// - Precondition: called on the context's queue.
    public func undo() {
        precondition(explicitDepth == 0, "undo() inside an open undo group")
        closeEventGroup(force: true)
        guard let group = undoStack.popLast() else { return }
        isUndoing = true
        defer { isUndoing = false }
        redoStack.append(apply(group))
        noteAction(group.name.isEmpty ? "" : "Undo \(group.name)")
    }

    /// Repeats the last undone action.
    public func redo() {
        precondition(explicitDepth == 0, "redo() inside an open undo group")
        closeEventGroup(force: true)
        guard let group = redoStack.popLast() else { return }
        isRedoing = true
        defer { isRedoing = false }
        undoStack.append(apply(group))
        trim()
        noteAction(group.name.isEmpty ? "" : "Redo \(group.name)")
    }

    // MARK: - Internals

    /// Applies a group's steps in reverse and returns the group that reverts them.
    private func apply(_ group: UndoGroup) -> UndoGroup {
        guard let context else { preconditionFailure("the undo manager's context is gone") }
        let reverse = UndoGroup(name: group.name, isImplicit: false)
        openGroup = reverse
        for step in group.steps.reversed() {
            context.revert(step)
        }
        let result = openGroup ?? reverse
        openGroup = nil
        context.processPendingChanges()
        return result
    }

    func register(_ step: UndoStep) {
        guard disabledCount == 0 else { return }
        if !isUndoing && !isRedoing { redoStack.removeAll() }
        if openGroup == nil {
            openGroup = UndoGroup(name: "", isImplicit: true)
        }
        openGroup?.steps.append(step)
    }

    /// Closes the group of the current event, if changes made outside any explicit group
    /// opened one (always before an undo or redo; otherwise only when grouping by event).
    func closeEventGroup(force: Bool = false) {
        guard explicitDepth == 0, openGroup?.isImplicit == true, groupsByEvent || force, !isUndoing, !isRedoing else { return }
        closeOpenGroup()
    }

    private func closeOpenGroup() {
        guard let group = openGroup else { return }
        openGroup = nil
        guard !group.steps.isEmpty else { return }
        undoStack.append(group)
        trim()
        noteAction(group.name)
    }

    private func noteAction(_ name: String) {
        guard !name.isEmpty else { return }
        actionCount += 1
        recentNames.append(name)
        if recentNames.count > Self.recentNameLimit { recentNames.removeFirst(recentNames.count - Self.recentNameLimit) }
    }

    private static let recentNameLimit = 20

    // MARK: - What was done

    /// How many named actions have been done, undone or redone so far.
    public private(set) var actionCount = 0

    /// The names of the actions done, undone (`Undo …`) and redone (`Redo …`) since
    /// ``actionCount`` was `count`, oldest first; at most the last 20. A document describes a
    /// save with them.
    public func actionNames(since count: Int) -> [String] {
        Array(recentNames.suffix(max(0, min(actionCount - count, recentNames.count))))
    }

    private func trim() {
        if levelsOfUndo > 0 && undoStack.count > levelsOfUndo {
            undoStack.removeFirst(undoStack.count - levelsOfUndo)
        }
    }
}
