// MARK: - SaveState

/// Where a context's saves stand.
///
/// One save of a context goes through these states (``ObjectContext/save()-89u7j``, in
/// `ObjectContext+Saving.swift`):
///
/// 1. **Change set made** (``beginChangeSet()``): the context numbers a new change set and
///    copies its inserted and deleted objects into it. Its updated objects *move* their
///    state into it (their rows are not copied), and point at the save's ``PushFlight``
///    instead, unless another save of this context still holds moved objects (a synchronous
///    save during an asynchronous one), in which case they are copied too. While objects
///    are moved, the flight is ``moving``.
/// 2. **Applied by the parent**: synchronously (`performAndWait` on a parent context, or a
///    root context's SQLite transaction), or, for a main context's `save() async`, on the
///    parent's queue while the main actor goes on (``isApplyingAsynchronously``).
///    Meanwhile an object that is read or edited takes its state back from the flight at
///    once (``ManagedObject/land()``) and stays tracked.
/// 3. **Finished** (``finishMoving(_:)``): the parent's outcome is recorded in the flight;
///    the objects it took as pushed are not visited and settle, each by itself, when next
///    used. The flight is remembered among the ``recentFlightsKept`` latest, so that a
///    root's did-save notification can give their rows' store versions to the objects that
///    have not settled yet.
///    **Or failed**: every moved object takes its state back as it was, still changed, and
///    the context is as before the save.
///
/// Confined to its context's queue.
struct SaveState {
    /// Finished saves remembered for their unsettled objects. A root's did-save notification
    /// reaches the context a save or two after the save it names; more saves than this
    /// between the two means the objects already settled (each use settles one) or the
    /// versions no longer matter (the store then checks the next save by value).
    static let recentFlightsKept = 8

    /// The number of the latest change set.
    private(set) var changeSetNumber: UInt64 = 0
    /// Whether the parent is applying the latest change set while the context goes on.
    private(set) var isApplyingAsynchronously = false
    /// The save whose change set holds moved objects' state, until it finishes or fails.
    private(set) var moving: PushFlight?
    /// Recent finished saves whose objects may not have settled yet.
    private var recent: [WeakFlight] = []

    /// Numbers a new change set and makes its flight; `moves` is false when another save still
    /// holds moved objects (the new one then copies every object).
    mutating func beginChangeSet() -> (flight: PushFlight, moves: Bool) {
        changeSetNumber &+= 1
        return (PushFlight(number: changeSetNumber), moving == nil)
    }

    /// Records that `flight` holds moved objects' state.
    mutating func startMoving(_ flight: PushFlight) {
        precondition(moving == nil, "one save at a time holds moved objects")
        moving = flight
    }

    /// Ends the moving state of `flight`, if it is the one; true when it was.
    mutating func stopMoving(_ flight: PushFlight) -> Bool {
        guard moving === flight else { return false }
        moving = nil
        return true
    }

    /// Remembers a finished save whose objects may settle later.
    mutating func remember(_ flight: PushFlight) {
        recent.removeAll { $0.flight == nil }
        if recent.count >= Self.recentFlightsKept { recent.removeFirst() }
        recent.append(WeakFlight(flight: flight))
    }

    /// The remembered save of change set `number`, if it is still alive.
    func recentFlight(number: UInt64) -> PushFlight? {
        recent.last { $0.flight?.number == number }?.flight
    }

    /// Marks the latest change set as being applied by the parent while the context goes on
    /// (or no longer).
    mutating func setApplyingAsynchronously(_ applying: Bool) {
        isApplyingAsynchronously = applying
    }

    /// Whether the parent is applying, right now, the change set numbered `number`.
    func isApplying(changeSet number: UInt64) -> Bool {
        isApplyingAsynchronously && number == changeSetNumber
    }
}

/// A save a context remembers without keeping it alive (see ``SaveState``).
struct WeakFlight {
    weak var flight: PushFlight?
}
