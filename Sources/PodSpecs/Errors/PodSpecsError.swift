import Foundation
import PodDocFileSystem
import PodDocStore

/// An error from the pod specs module: parsing specs, fetching pages, importing, serving or
/// exporting.
///
/// Match on ``code``; show ``message`` to users: it names the file or page involved, says what
/// went wrong and what to do. ``cause`` keeps the lower-level error (an HTTP client error, a
/// `PodDocStore.StoreError`, a `PodDocFileSystem.FileSystemError`…).
///
/// ```swift
/// do { try await importer.importService(client, resume: true) }
/// catch let error as PodSpecsError where error.code == .network {
///     print(error.message)   // "Could not fetch page 7 of http://…: …; run the import again to resume."
/// }
/// ```
public struct PodSpecsError: Error, Sendable {
    /// The kind of failure.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Kind: String {
            case malformedJSON, invalidSpec, invalidPage, network, httpStatus, timeout
            case store, fileSystem, server, invalidArgument
        }
        private let kind: Kind
        private init(_ kind: Kind) { self.kind = kind }

        /// The text is not well-formed JSON (or is cut short).
        public static let malformedJSON = Code(.malformedJSON)
        /// The JSON is well formed but is not a usable pod spec (no name, a version of the wrong type…).
        public static let invalidSpec = Code(.invalidSpec)
        /// A page of the web service is not in the reference format, or its number is out of range.
        public static let invalidPage = Code(.invalidPage)
        /// The network failed, after the retries the policy allows.
        public static let network = Code(.network)
        /// The server answered with an HTTP status that is not a success (after retries for 5xx).
        public static let httpStatus = Code(.httpStatus)
        /// A request took longer than its timeout, after the retries the policy allows.
        public static let timeout = Code(.timeout)
        /// The object store failed (see ``PodSpecsError/cause``).
        public static let store = Code(.store)
        /// Reading or writing a file failed (see ``PodSpecsError/cause``).
        public static let fileSystem = Code(.fileSystem)
        /// The spec server could not start or stop.
        public static let server = Code(.server)
        /// A caller passed something unusable (a base URL without a host, a page size of 0…).
        public static let invalidArgument = Code(.invalidArgument)

        public var description: String { kind.rawValue }
    }

    /// The kind of failure.
    public let code: Code
    /// What happened, naming the file or page, and what to do about it.
    public let message: String
    /// The file path or page URL the error is about, when there is one.
    public let location: String?
    /// The underlying error, if any.
    public let cause: (any Error)?

    package init(_ code: Code, _ message: String, location: String? = nil, cause: (any Error)? = nil) {
        self.code = code
        self.message = message
        self.location = location
        self.cause = cause
    }
}

// MARK: - Factories

extension PodSpecsError {
    /// Wraps an error of a lower layer met while doing `action`: a file system error is
    /// `.fileSystem`, anything else (store, SQLite) `.store`; a ``PodSpecsError`` passes through.
    package static func wrapping(_ error: any Error, while action: String, location: String? = nil) -> PodSpecsError {
        if let error = error as? PodSpecsError { return error }
        let code: Code = error is FileSystemError ? .fileSystem : .store
        return PodSpecsError(code, "Could not \(action): \(error)", location: location, cause: error)
    }
}

// MARK: - CustomStringConvertible

extension PodSpecsError: CustomStringConvertible {
    public var description: String { message }
}

// MARK: - LocalizedError

extension PodSpecsError: LocalizedError {
    public var errorDescription: String? { message }
}
