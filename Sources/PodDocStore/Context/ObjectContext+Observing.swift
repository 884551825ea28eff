import Dispatch

// MARK: - Announcing changes

extension ObjectContext {
    /// Announces pending changes to observers (results controllers) and closes the undo
    /// group of the current event.
    ///
    /// Contexts call this themselves at the end of each ``perform(_:)`` block, before a save,
    /// and (for a main context edited directly) at the end of the current main-queue turn.
    public func processPendingChanges() {
        preconditionOnQueue()
        pending.unschedule()
        _undoManager?.closeEventGroup()
        sweep()
        let (change, observers) = pending.takeForAnnouncing()
        for observer in observers {
            observer.contextDidChange(change)
        }
    }

    /// Makes sure pending changes get processed even when no `perform` block wraps the edit
    /// (a main context edited directly on the main actor).
    func scheduleProcessing() {
        guard performDepth == 0, pending.schedule() else { return }
        queue.async { [weak self] in
            guard let self, self.pending.isScheduled else { return }
            self.processPendingChanges()
        }
    }

    func addChangeObserver(_ observer: any ContextChangeObserver) {
        pending.addObserver(observer)
    }
}

// MARK: - Save notifications

/// Keeps a save observer registered; dropping it (or calling ``cancel()``) stops the calls.
public final class SaveObservation: Sendable {
    private let cancelAction: @Sendable () -> Void

    init(_ cancel: @escaping @Sendable () -> Void) {
        cancelAction = cancel
    }

    /// Stops the observation.
    public func cancel() { cancelAction() }

    deinit { cancelAction() }
}

extension ObjectContext {
    /// Calls `observer` after each save of this context, on this context's queue.
    ///
    /// - Returns: an observation to keep for as long as the calls are wanted.
    public func observeSaves(_ observer: @escaping @Sendable (SaveNotification) -> Void) -> SaveObservation {
        let id = links.withLock { links -> UInt64 in
            links.nextObserverID += 1
            links.saveObservers[links.nextObserverID] = observer
            return links.nextObserverID
        }
        return SaveObservation { [weak self] in
            _ = self?.links.withLock { $0.saveObservers.removeValue(forKey: id) }
        }
    }

    /// The saves of this context, as an async sequence. Each call makes a new subscriber.
    ///
    /// ```swift
    /// for await note in root.saves() { print(note.inserted.count) }
    /// ```
    public func saves() -> AsyncStream<SaveNotification> {
        let (stream, continuation) = AsyncStream<SaveNotification>.makeStream(bufferingPolicy: .unbounded)
        let observation = observeSaves { continuation.yield($0) }
        continuation.onTermination = { _ in observation.cancel() }
        return stream
    }

    var hasSaveObservers: Bool {
        links.withLock { !$0.saveObservers.isEmpty }
    }

    func publish(_ note: SaveNotification) {
        let observers = links.withLock { Array($0.saveObservers.values) }
        for observer in observers { observer(note) }
    }

    /// The children alive now.
    func liveChildren() -> [ObjectContext] {
        links.withLock { links in
            links.children.removeAll { $0.context == nil }
            return links.children.compactMap(\.context)
        }
    }
}

// MARK: - Observing object changes

/// The changes a context announced when it processed pending changes: its own edits, undo and
/// redo, and what it merged.
public struct ObjectChanges: Sendable {
    /// Objects inserted.
    public let inserted: Set<ObjectID>
    /// Objects changed.
    public let updated: Set<ObjectID>
    /// Objects deleted.
    public let deleted: Set<ObjectID>
    /// The context was reset: every object is gone.
    public let invalidatedAll: Bool
}

/// Keeps a change observer registered; drop it to stop the calls. Use it on the context's
/// queue only.
public final class ObjectChangesObservation: ContextChangeObserver {
    private let handler: (ObjectChanges) -> Void

    init(_ handler: @escaping (ObjectChanges) -> Void) {
        self.handler = handler
    }

    func contextDidChange(_ change: ObjectsDidChange) {
        handler(
            ObjectChanges(
                inserted: change.inserted, updated: change.updated, deleted: change.deleted,
                invalidatedAll: change.invalidatedAll))
    }
}

extension ObjectContext {
    /// Calls `handler` on this context's queue each time the context announces changes.
    ///
    /// - Returns: an observation; the calls stop when it is released.
    public func observeObjectChanges(_ handler: @escaping (ObjectChanges) -> Void) -> ObjectChangesObservation {
        preconditionOnQueue()
        let observation = ObjectChangesObservation(handler)
        addChangeObserver(observation)
        return observation
    }
}
