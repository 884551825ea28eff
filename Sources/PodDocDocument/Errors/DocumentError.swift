import Foundation
import PodDocArchive
import PodDocStore

/// An error from opening, saving, locking or recovering a document.
///
/// Match on ``code``; show ``message``: it says what happened and what to do next.
public struct DocumentError: Error, Sendable {
    /// The kind of failure.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Kind: String {
            case notADocument, missingStore, newerFormat, locked, inConflict, recoveryAvailable
            case closed, readOnly, corrupt, fileSystem, archive, store, invalidMetadata, notSaved, wrongKind
        }
        private let kind: Kind
        private init(_ kind: Kind) { self.kind = kind }

        /// The path is not a poddoc document (a plain file, or a folder without the layout).
        public static let notADocument = Code(.notADocument)
        /// The package has no `StoreContent/persistentStore`.
        public static let missingStore = Code(.missingStore)
        /// The document was written by a newer poddoc format.
        public static let newerFormat = Code(.newerFormat)
        /// Another process has the document open for writing.
        public static let locked = Code(.locked)
        /// The document changed on disk since it was opened; choose how to resolve it.
        public static let inConflict = Code(.inConflict)
        /// A working copy newer than the document waits to be recovered or discarded.
        public static let recoveryAvailable = Code(.recoveryAvailable)
        /// The document is closed.
        public static let closed = Code(.closed)
        /// The document was opened read-only.
        public static let readOnly = Code(.readOnly)
        /// The document's parts disagree in a way poddoc cannot repair.
        public static let corrupt = Code(.corrupt)
        /// A file operation failed.
        public static let fileSystem = Code(.fileSystem)
        /// Packing or unpacking an archive failed.
        public static let archive = Code(.archive)
        /// The object store failed (see ``DocumentError/cause``).
        public static let store = Code(.store)
        /// `DocumentMetadata.json` is missing or unreadable.
        public static let invalidMetadata = Code(.invalidMetadata)
        /// The document has no location yet (never saved); use save(as:).
        public static let notSaved = Code(.notSaved)
        /// The document is of another kind than the one asked for, or of a kind this program
        /// does not know whose store records no model to read it with.
        public static let wrongKind = Code(.wrongKind)

        public var description: String { kind.rawValue }
    }

    /// The kind of failure.
    public let code: Code
    /// What happened and what to do next.
    public let message: String
    /// The document or file concerned.
    public let path: String?
    /// The underlying error (a `StoreError`, a file-system or archive error…).
    public let cause: (any Error)?

    /// An error with a message that says what happened and what to do next.
    public init(_ code: Code, _ message: String, path: String? = nil, cause: (any Error)? = nil) {
        self.code = code
        self.message = message
        self.path = path
        self.cause = cause
    }
}

// MARK: - Wrapping

extension DocumentError {
    /// Wraps an error from a lower layer, keeping a DocumentError as it is.
    static func wrap(_ error: any Error, _ code: Code, while action: String, path: String?) -> DocumentError {
        if let error = error as? DocumentError { return error }
        // The cause's own message: a plain `as CustomStringConvertible` would bridge the error
        // to NSError on Linux and print "Error Domain=…" instead.
        let detail = (error as? any LocalizedError)?.errorDescription ?? String(describing: error)
        return DocumentError(code, "Could not \(action): \(detail)", path: path, cause: error)
    }

    /// The code for an error from a lower layer: a store error is `.store`, an archive error
    /// `.archive`, a DocumentError keeps its own, anything else (the file system's) is
    /// `fallback`.
    static func code(for error: any Error, otherwise fallback: Code = .fileSystem) -> Code {
        switch error {
        case let error as DocumentError: return error.code
        case is StoreError: return .store
        case is ArchiveError: return .archive
        default: return fallback
        }
    }
}

// MARK: - CustomStringConvertible

extension DocumentError: CustomStringConvertible {
    public var description: String { message }
}

// MARK: - LocalizedError

extension DocumentError: LocalizedError {
    public var errorDescription: String? { message }
}
