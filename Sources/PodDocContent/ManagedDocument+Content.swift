public import Foundation
public import PodDocDocument

// MARK: - Opening any document

extension ManagedDocument {
    /// Opens the document at `url` with the model of the kind its metadata names, pods or
    /// outline: what a tool that opens any poddoc document calls.
    ///
    /// - Throws: ``PodDocDocument/DocumentError``.
    public static func open(_ url: URL, options: OpenOptions = OpenOptions()) async throws -> ManagedDocument {
        try await open(url, options: options) { kind in kind.objectModel }
    }

    /// Creates a new, empty document of `kind`: a package, or an archive when `url` ends in
    /// `.tar.zst`, `.zip` or `.tar.gz`; with no `url`, a never-saved document.
    ///
    /// - Throws: ``PodDocDocument/DocumentError``.
    public static func create(at url: URL?, kind: DocumentKind, options: OpenOptions = OpenOptions()) async throws -> ManagedDocument {
        try await create(at: url, kind: kind, model: kind.objectModel, options: options)
    }
}
