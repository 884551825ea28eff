/// One save of a context, from the moment its change set is made until every object it
/// carried has its state back: what lets a save of many updated objects cost the saving
/// context's queue (often the main actor) almost nothing per object.
///
/// When a context saves, each updated object's unsaved row, snapshot and changed fields are
/// *moved* into the change set (no copy, no reference counting on the rows), and the object
/// points here instead (``ManagedObject/flight``). When the parent has taken the save, the
/// context records the parent's rows once (``savedRows``); the objects are not visited. Each
/// object settles by itself the next time anything reads or writes its state
/// (``ManagedObject/land()``): clean, with the row it pushed as its snapshot.
///
/// An object touched while the save still runs (read, edited, undone…) takes its state back
/// at once and is listed in ``landedEarly``; the save settles those one by one, as it does
/// inserted and deleted objects, which never move here.
///
/// Confined to the context's queue, as the objects are.
final class PushFlight {
    /// The context's change-set number (``SaveState/changeSetNumber``) of this save.
    let number: UInt64
    /// The change set's updated objects, each holding the state its object moved here; let
    /// go of (off the context's queue) once the save finishes, when the objects that have
    /// not settled need only their new rows, which ``savedRows`` holds.
    private(set) var updated: [PushedObject] = []
    /// Once the save finished, what the parent made of each updated object of the change set,
    /// in its order: the row it kept (nil: deleted there). Only this part of the outcome is
    /// kept, for the objects still to settle.
    private(set) var savedRows: [VersionedRow?]?
    /// By index in ``updated``, the store version a root save wrote the pushed row at (0 or
    /// missing: not known). Taken from the root's did-save notification when it names this
    /// push as the origin of rows it wrote, so that objects settling later know their row's
    /// store version.
    private var savedVersions: [Int64] = []
    /// Objects that took their state back before the save finished, with their edit count
    /// then (the one they were pushed with) and their index in ``updated``.
    private(set) var landedEarly: [(object: ManagedObject, edits: UInt64, index: Int)] = []
    /// Objects whose changes began to be tracked while the save ran.
    private(set) var trackedMeanwhile: [ManagedObject] = []

    init(number: UInt64) {
        self.number = number
    }

    deinit {
        // The last object to settle would free the saved rows on the context's queue.
        guard let savedRows, savedRows.count >= BackgroundRelease.worthwhileCount else { return }
        var held = (savedRows, savedVersions)
        self.savedRows = nil
        savedVersions = []
        releaseInBackground(taking: &held, leaving: ([], []))
    }

    /// Whether the save carries no moved object.
    var isEmpty: Bool { updated.isEmpty }

    /// Records the change set's updated objects, whose state their objects moved here.
    func carry(_ updated: [PushedObject]) {
        precondition(self.updated.isEmpty && savedRows == nil, "a save carries its objects once, before it finishes")
        self.updated = updated
    }

    /// Records that the parent took the save: the objects still here settle from its rows
    /// when next used, and the old snapshots go (off the context's queue).
    func finish(with outcome: PushOutcome) {
        savedRows = outcome.updated
        releaseInBackground(taking: &updated, leaving: [])
    }

    /// Records the store versions a root save wrote this save's rows at (see
    /// ``savedVersions``).
    func recordSavedVersions(_ versions: [Int64]) {
        savedVersions = versions
    }

    /// Records that `object`'s changes began to be tracked while the save ran.
    func noteTrackedMeanwhile(_ object: ManagedObject) {
        trackedMeanwhile.append(object)
    }

    /// The objects that took their state back before the save finished, which the save
    /// settles itself; forgets them, and the objects tracked meanwhile.
    func takeObjectsTouchedMeanwhile() -> [(object: ManagedObject, edits: UInt64, index: Int)] {
        trackedMeanwhile = []
        defer { landedEarly = [] }
        return landedEarly
    }

    /// What an object riding this save (``ManagedObject/land()``) takes back.
    enum Landing {
        /// The parent kept this row, written at this store version: the object is clean.
        case saved(RowData, version: Int64)
        /// The parent deleted the object.
        case deletedInParent
        /// The save still runs: the object takes back its pushed state, still changed, and
        /// the save settles it when it finishes.
        case stillPushing(PushedObject)
    }

    /// What the object at `index` of the change set takes back as it lands.
    func landing(of object: ManagedObject, at index: Int) -> Landing {
        guard let savedRows else {
            landedEarly.append((object, object.edits, index))
            return .stillPushing(updated[index])
        }
        // The save settles every object whose outcome is not its pushed row itself; an
        // object it could not find (its context was reset meanwhile) settles here the same.
        guard let row = savedRows[index] else { return .deletedInParent }
        let saved = index < savedVersions.count ? savedVersions[index] : 0
        return .saved(row.row, version: saved != 0 ? saved : row.version)
    }
}

/// Which push of which child set an object's row in a parent context (see
/// ``ManagedObject/origin``).
struct PushOrigin: Sendable {
    /// The child context that pushed.
    let source: ObjectIdentifier
    /// The child's change-set number.
    let push: UInt64
    /// The object's place among the change set's updated objects.
    let index: Int
}
