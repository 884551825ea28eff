import Foundation

/// A document's state, as a set of flags; empty means normal.
public struct DocumentState: OptionSet, Sendable, Hashable, CustomStringConvertible {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Normal: open, editable, in step with the disk.
    public static let normal: DocumentState = []
    /// Closed; nothing can be done with it.
    public static let closed = DocumentState(rawValue: 1 << 0)
    /// The document changed on disk since it was opened; saving waits for a resolution.
    public static let inConflict = DocumentState(rawValue: 1 << 1)
    /// The last save or autosave failed; the edits are kept in memory and retried.
    public static let savingError = DocumentState(rawValue: 1 << 2)
    /// Opened read-only.
    public static let editingDisabled = DocumentState(rawValue: 1 << 3)

    public var description: String {
        if isEmpty { return "normal" }
        let names: [(DocumentState, String)] = [
            (.closed, "closed"), (.inConflict, "in conflict"),
            (.savingError, "saving error"), (.editingDisabled, "editing disabled"),
        ]
        return names.filter { contains($0.0) }.map(\.1).joined(separator: ", ")
    }
}

/// How the last autosaves went.
public struct AutosaveStatus: Sendable {
    /// When the last autosave completed.
    public var lastSuccess: Date?
    /// The error of the last failed autosave, cleared by the next success.
    public var lastError: DocumentError?
    /// Autosaves that failed in a row.
    public var consecutiveFailures = 0
}

/// What happened to one autosave, as reported to ``ManagedDocument/onAutosave``.
public enum AutosaveEvent: Sendable {
    /// It completed. `storeHash` is the metadata's, which an autosave does not recompute: it
    /// describes save ``DocumentMetadata/storeHashSaveSequence``.
    case saved(at: Date, saveSequence: Int, storeHash: String)
    /// It failed; the edits stay in memory and the next tick retries.
    case failed(DocumentError)
}

/// How to resolve a document in conflict (changed on disk since it was opened).
public enum ConflictResolution: Sendable {
    /// Save this version over the one on disk.
    case keepMine
    /// Drop this version's unsaved changes and reload the one on disk.
    case takeTheirs
    /// Save this version as a new document at the URL (the document continues there).
    case saveAsCopy(URL)
}

/// What to do when opening finds a working copy with unsaved work.
public enum RecoveryChoice: Sendable, Hashable {
    /// Fail with ``DocumentError/Code/recoveryAvailable`` so the caller can ask the user.
    case ask
    /// Open the working copy, keeping its work.
    case recover
    /// Discard the working copy and open the document as last saved.
    case discard
}
