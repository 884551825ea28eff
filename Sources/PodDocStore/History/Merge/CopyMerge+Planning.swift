import Foundation
internal import GRDB

// MARK: - Planning

extension CopyMerge {
    /// Whether `mine` holds everything `theirs` saved (theirs' newest save is in mine's save
    /// graph): merging theirs would change nothing. Reads the two graphs only.
    public static func holdsEverything(of theirs: PersistentStore, in mine: PersistentStore) throws -> Bool {
        guard let head = try theirs.saveGraph().head else { return true }
        return try mine.saveGraph().contains(head)
    }

    /// Works out the merge of `theirs` into `mine`, reading both stores (saved content only:
    /// save mine's edits first).
    ///
    /// The two save graphs say what each copy has seen of the other: each copy's newest save
    /// the other holds is where its changes start, and a change the other copy has seen
    /// (made before that save, or taken in by a merge both copies made) is settled. Theirs'
    /// changes mine has not seen go onto mine property by property; a property both changed
    /// without seeing the other's change, to different values, is a conflict.
    ///
    /// - Parameters:
    ///   - mine: The store merged into.
    ///   - theirs: The store merged from: another copy of the same document.
    ///   - trees: The entities that form ordered trees; nil for those of mine's model
    ///     (``ObjectModel/merging``).
    ///   - latest: The attributes that take the later value; nil for those of mine's model.
    ///   - preferring: How to resolve conflicts; nil lists them and changes nothing.
    ///   - choices: How to resolve the conflicts of these objects (a shell asks one by one);
    ///     before `preferring`.
    ///   - twoWay: When the histories share no save in reach, compare every object and make
    ///     every difference a conflict.
    ///   - base: When the histories share no save in reach, a copy of the state the two
    ///     parted from (git's merge base): what each changed is what differs from it.
    /// - Throws: ``StoreError``: `.schemaMismatch` when the stores are read with different
    ///   models; `.notInHistory` when the histories share no save in reach
    ///   and neither `twoWay` nor `base` is given (the common save was let go by the
    ///   retention, or the copies are not of one document); `.corrupt` when a history is
    ///   damaged.
    public static func plan(
        mine: PersistentStore, theirs: PersistentStore, trees: [OrderedTree]? = nil, latest: [LatestValue]? = nil,
        preferring: MergeSide? = nil, choices: [ObjectID: MergeSide] = [:], twoWay: Bool = false, base: PersistentStore? = nil
    ) throws -> CopyMerge {
        for other in [theirs, base].compactMap({ $0 }) where other.model.versionHash != mine.model.versionHash {
            throw StoreError(
                .schemaMismatch,
                "Cannot merge copies read with two models (version \(mine.model.version) and \(other.model.version)): open the older copy with the app of the newer model, which upgrades it, then merge."
            )
        }
        let trees = trees ?? mine.model.merging.trees
        let latest = latest ?? mine.model.merging.latestValues
        let mineGraph = try mine.saveGraph()
        let theirsGraph = try theirs.saveGraph()
        let mineLatest = mineGraph.localSaves.last?.save ?? 0
        let theirsLatest = theirsGraph.localSaves.last?.save ?? 0
        func nothing(_ common: (mine: Int, theirs: Int)) -> CopyMerge {
            CopyMerge(
                outcome: .upToDate, conflicts: [], preference: preferring, choices: choices, moved: [], commonSave: common,
                record: SaveNote.MergeRecord(theirsHead: nil, takesTheirState: false, graph: [], origins: [:]), targets: [:])
        }
        guard let theirsHead = theirsGraph.head, !mineGraph.contains(theirsHead) else {
            return nothing((mineLatest, theirsLatest))
        }
        // Each copy's changes are read from the newest save both histories hold (the same
        // state in both), so that everything that differs is among them.
        let fromStart = mineGraph.startsAtFirstSave && theirsGraph.startsAtFirstSave
        let shared = mineGraph.newestSharedSave(with: theirsGraph) ?? (fromStart ? (0, 0) : nil)
        var pasts: (mine: PastState?, theirs: PastState?)?
        if let shared {
            do {
                // Two stores, two connections: read at once.
                pasts = try bothAtOnce(
                    { try past(mine, after: shared.mine, latest: mineLatest, graph: mineGraph) },
                    { try past(theirs, after: shared.theirs, latest: theirsLatest, graph: theirsGraph) })
            } catch let error as StoreError where error.code == .notInHistory {
                pasts = nil  // the values of the shared save were let go
            }
        }
        let common = (mine: shared?.mine ?? 0, theirs: shared?.theirs ?? 0)
        let imported = theirsGraph.nodes.filter { !mineGraph.contains($0.name) }
        let takesTheirs = mineGraph.head.map(theirsGraph.contains) ?? true
        if pasts == nil, !takesTheirs, let base {
            // No shared save in reach, but a copy of the state the two parted from: what each
            // changed is what differs from it.
            pasts = (
                try PastState(current: mine, base: base, name: mineGraph.head ?? ""),
                try PastState(current: theirs, base: base, name: theirsHead)
            )
        }
        var planner: MergePlanner
        if let pasts {
            planner = try MergePlanner(
                mine: mine, theirs: theirs, pastMine: pasts.mine, pastTheirs: pasts.theirs, mineGraph: mineGraph, theirsGraph: theirsGraph,
                trees: trees, latestValues: latest, preferring: preferring, choices: choices,
                sharedSave: shared.flatMap { shared in mineGraph.localSaves.last { $0.save == shared.mine }?.name })
        } else if takesTheirs || twoWay {
            // Nothing tells what each changed: every object of both is compared, and (two
            // ways) every difference is a conflict.
            planner = try MergePlanner(
                comparingEverythingOf: mine, theirs, mineName: mineGraph.head ?? "", theirsName: theirsHead, mineGraph: mineGraph,
                theirsGraph: theirsGraph, trees: trees, latestValues: latest, preferring: preferring, choices: choices)
        } else {
            let reason =
                shared == nil
                ? "the two copies share no save in the history they keep (or they are not copies of one document)"
                : "the newest save both copies hold is older than the history one of them keeps (its values were let go)"
            throw StoreError(
                .notInHistory,
                "Cannot merge exactly: \(reason). Merge with --two-way: every difference between the copies is then a conflict, resolved with --prefer mine or --prefer theirs (or one by one in the shell)."
            )
        }
        if takesTheirs {
            // Theirs has seen everything mine holds: mine becomes theirs, and is then at
            // theirs' newest save.
            try planner.takeTheirs()
            return CopyMerge(
                outcome: .fastForward, conflicts: [], preference: preferring, choices: choices, moved: [], commonSave: common,
                record: SaveNote.MergeRecord(theirsHead: theirsHead, takesTheirState: true, graph: imported, origins: planner.origins),
                targets: planner.targets)
        }
        try planner.merge()
        return CopyMerge(
            outcome: .merged, conflicts: planner.conflicts, preference: preferring, choices: choices, moved: planner.moved,
            commonSave: common,
            record: SaveNote.MergeRecord(
                theirsHead: theirsHead, takesTheirState: false, graph: imported, origins: planner.origins, kept: planner.kept),
            targets: planner.targets)
    }

    /// What `store`'s saves after `save` changed, with the values before and the saves that
    /// made each change; nothing when `save` is its newest.
    private static func past(_ store: PersistentStore, after save: Int, latest: Int, graph: SaveGraph) throws -> PastState? {
        save >= latest ? nil : try store.pastState(after: save, stampingWith: graph)
    }
}
