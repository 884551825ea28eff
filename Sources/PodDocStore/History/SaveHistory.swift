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
    /// The state the save makes, when another copy can reach the same state (a merge): see
    /// ``CopyMerge``.
    public var state: State?

    /// Makes a note.
    public init(description: String = "", host: String = "", writer: String = "", run: String? = nil, state: State? = nil) {
        self.description = description
        self.host = host
        self.writer = writer
        self.run = run
        self.state = state
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
