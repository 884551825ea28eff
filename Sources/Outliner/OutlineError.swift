import Foundation
import OutlineInterchange

// MARK: - OutlineError

/// An error from reading or editing an outline document: an item that is not there, a move
/// that would put an item inside itself, a file that could not be imported, the store
/// failing underneath.
///
/// Match on ``code``; show ``message`` to users: it says what went wrong and what to do.
/// A refused operation changes nothing in the document.
///
/// ```swift
/// do {
///     try outline.move(work, under: project)
/// } catch let error where error.code == .moveIntoItself {
///     print(error.message)  // Cannot move "Work" into "Project": "Project" is inside "Work". …
/// }
/// ```
public struct OutlineError: Error, Sendable {
    /// The kind of failure. New codes may be added; match with `==`.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Kind: String {
            case notFound, ambiguousPath, invalidPath, invalidArgument, rootItem
            case moveIntoItself, cannotIndent, cannotOutdent
            case importFailed, exportFailed, damagedDocument, storeFailed
        }

        private let kind: Kind
        private init(_ kind: Kind) { self.kind = kind }

        /// No item has this ID, index path or title path.
        public static let notFound = Code(.notFound)
        /// A title path matches several items; address one by its index path.
        public static let ambiguousPath = Code(.ambiguousPath)
        /// A path could not be read (an index of 0, an empty title, a stray character).
        public static let invalidPath = Code(.invalidPath)
        /// A position, depth or search is out of range or empty.
        public static let invalidArgument = Code(.invalidArgument)
        /// The operation does not apply to the invisible root item.
        public static let rootItem = Code(.rootItem)
        /// The move would put an item under itself or under one of its own descendants.
        public static let moveIntoItself = Code(.moveIntoItself)
        /// The first item of a list has no previous sibling to go under.
        public static let cannotIndent = Code(.cannotIndent)
        /// A top-level item has no parent to come out of.
        public static let cannotOutdent = Code(.cannotOutdent)
        /// The file could not be read as an outline; nothing was imported.
        public static let importFailed = Code(.importFailed)
        /// The outline cannot be written in the chosen format.
        public static let exportFailed = Code(.exportFailed)
        /// The document breaks the outline's rules (several roots, unreadable attributes).
        public static let damagedDocument = Code(.damagedDocument)
        /// The object store failed (see ``OutlineError/cause``).
        public static let storeFailed = Code(.storeFailed)

        /// The code's name, for example `moveIntoItself`.
        public var description: String { kind.rawValue }
    }

    /// The kind of failure.
    public let code: Code
    /// What happened and what to do about it.
    public let message: String
    /// The underlying error: an `OutlineFormatError` for imports and exports, a
    /// `StoreError` for store failures.
    public let cause: (any Error)?

    init(_ code: Code, _ message: String, cause: (any Error)? = nil) {
        self.code = code
        self.message = message
        self.cause = cause
    }
}

// MARK: - Factories

extension OutlineError {
    static func notFound(_ message: String) -> OutlineError {
        OutlineError(.notFound, message)
    }

    static func importFailed(_ error: OutlineFormatError) -> OutlineError {
        OutlineError(.importFailed, error.description, cause: error)
    }

    static func exportFailed(_ error: OutlineFormatError) -> OutlineError {
        OutlineError(.exportFailed, error.description, cause: error)
    }

    static func storeFailed(_ error: any Error, while action: String) -> OutlineError {
        if let error = error as? OutlineError { return error }
        return OutlineError(.storeFailed, "The document's store failed while \(action): \(error)", cause: error)
    }

    static func rootItem(_ action: String) -> OutlineError {
        OutlineError(
            .rootItem, "The root item is the invisible top of the outline; it cannot be \(action). Choose one of its items instead.")
    }

    static func damaged(_ message: String, cause: (any Error)? = nil) -> OutlineError {
        OutlineError(
            .damagedDocument, "The outline is damaged: \(message). Repair the document from a backup, or export what can be read.",
            cause: cause)
    }
}

// MARK: - CustomStringConvertible

extension OutlineError: CustomStringConvertible {
    /// The ``message``.
    public var description: String { message }
}

// MARK: - LocalizedError

extension OutlineError: LocalizedError {
    /// The ``message``.
    public var errorDescription: String? { message }
}
