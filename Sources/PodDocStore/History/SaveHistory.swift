import Foundation

// MARK: - What a save says about itself

/// What a root save records about itself in the store's history, beside what it changed.
///
/// A managed document fills it in (its host, the program and user, the undo action names
/// since the last save); a save without one records empty fields.
///
/// ```swift
/// let note = SaveNote(description: "Rename “Plans”", host: "studio", writer: "alice, poddoc 0.1.0")
/// try root.save(storeMetadata: [:], note: note)
/// ```
public struct SaveNote: Sendable, Hashable {
    /// What the save did, in the user's words: the undo action names, say.
    public var description: String
    /// The machine that saved.
    public var host: String
    /// Who saved, with which program.
    public var writer: String
    /// Saves of one long piece of work (an import saving every few thousand specs) share a
    /// run: ``PersistentStore/history(limit:)`` shows them as one entry.
    public var run: String?
    /// What a merge records beside its changes: the other copy's save graph and newest save,
    /// and where the values it took came from (``CopyMerge/record``).
    public var merge: MergeRecord?
    /// The merges (by save number) this save takes back — an undo of a merge, a revert to a
    /// save before it. The copy then no longer holds what they brought: merging the same copy
    /// again brings it back, and the other copy does not take the taking back as a change of
    /// its own work (see ``CopyMerge``).
    public var takesBack: [Int]

    /// Makes a note.
    public init(
        description: String = "", host: String = "", writer: String = "", run: String? = nil, merge: MergeRecord? = nil,
        takesBack: [Int] = []
    ) {
        self.description = description
        self.host = host
        self.writer = writer
        self.run = run
        self.merge = merge
        self.takesBack = takesBack
    }
}

extension SaveNote {
    /// What a merge's save records beside its changes, so that the next merge of either copy
    /// starts from what this one settled (docs/FORMAT.md, "Save graph").
    public struct MergeRecord: Sendable, Hashable {
        /// The other copy's newest save: the merge's second parent.
        public var theirsHead: String?
        /// Whether the merge made this store exactly the other copy's state (it had nothing
        /// the other lacked): the save is then named as the other's newest save.
        public var takesTheirState: Bool
        /// The other copy's save graph, for this store to take in.
        var graph: [SaveGraph.Node]
        /// Where the values the merge took came from: by entity, by the save that set them
        /// (``SaveGraph`` names), by property (`*` for the object itself), the row ids.
        var origins: [String: [String: [String: [Int64]]]]
        /// By entity, the objects the merge kept against the other copy's delete (a conflict
        /// resolved for this copy): their being there is the merge's own change.
        var kept: [String: [Int64]]

        init(
            theirsHead: String?, takesTheirState: Bool, graph: [SaveGraph.Node], origins: [String: [String: [String: [Int64]]]],
            kept: [String: [Int64]] = [:]
        ) {
            self.theirsHead = theirsHead
            self.takesTheirState = takesTheirState
            self.graph = graph
            self.origins = origins
            self.kept = kept
        }
    }
}

/// How much history a store keeps: the newest saves, up to a number of them and (if set) no
/// older than an age. The newest save is always kept.
public struct HistoryRetention: Sendable, Hashable {
    /// The most saves kept.
    public var maximumSaves: Int
    /// Saves older than this go, if set.
    public var maximumAge: Duration?

    /// The default: the last 10,000 saves, whatever their age.
    public static let standard = HistoryRetention(maximumSaves: 10_000)

    /// Makes a retention setting.
    ///
    /// - Precondition: `maximumSaves` is at least 1.
    public init(maximumSaves: Int, maximumAge: Duration? = nil) {
        precondition(maximumSaves >= 1, "a store keeps at least its last save")
        self.maximumSaves = maximumSaves
        self.maximumAge = maximumAge
    }
}

// MARK: - What the history holds

/// One entry of a store's history: a save, or the saves of one run, with what they changed.
public struct HistoryEntry: Sendable, Hashable {
    /// The number of the entry's last save; numbers increase with every save and are never
    /// reused.
    public var save: Int
    /// The number of its first save (equal to ``save`` unless a run saved several times).
    public var firstSave: Int
    /// When the last save was made.
    public var time: Date
    /// ``time`` in UTC, ISO 8601 to the second: `2026-11-25T12:00:00Z`.
    public var timestamp: String {
        var seconds = time_t(time.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return
            "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))Z"
    }
    /// The machine that saved.
    public var host: String
    /// Who saved, with which program.
    public var writer: String
    /// What the saves did, in the user's words (the undo action names).
    public var description: String
    /// Objects inserted, updated and deleted, counted once per save.
    public var inserted: Int
    /// See ``inserted``.
    public var updated: Int
    /// See ``inserted``.
    public var deleted: Int
    /// What changed, per entity: `Pod: 500 inserted; Item: 2 updated (title, order)`.
    public var summary: String
    /// What changed, object by object, as JSON, one object per save of the entry (see
    /// docs/FORMAT.md, "History").
    public var changes: [String]
}
