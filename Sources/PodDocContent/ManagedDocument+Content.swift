public import Foundation
public import PodDocDocument

// MARK: - Opening any document

extension ManagedDocument {
    /// Opens the document at `url` whatever its kind: pods and outlines with their own
    /// models, any other kind with the model its store records. What a tool that opens any
    /// poddoc document calls.
    ///
    /// - Throws: ``PodDocDocument/DocumentError``.
    public static func open(_ url: URL, options: OpenOptions = OpenOptions()) async throws -> ManagedDocument {
        try await open(url, types: DocumentType.builtIn, options: options)
    }

    /// Creates a new document of a kind poddoc brings (pods, outline): a package, or an
    /// archive when `url` ends in `.tar.zst`, `.zip` or `.tar.gz`; with no `url`, a
    /// never-saved document.
    ///
    /// - Throws: ``PodDocDocument/DocumentError``; `.wrongKind` for a kind poddoc does not
    ///   bring (create it with its `DocumentType`).
    public static func create(at url: URL?, kind: DocumentKind, options: OpenOptions = OpenOptions()) async throws -> ManagedDocument {
        guard let type = DocumentType.builtIn(kind) else {
            throw DocumentError(
                .wrongKind,
                "poddoc does not know the kind '\(kind)' (it knows \(DocumentType.builtIn.map(\.kind.rawValue).joined(separator: ", "))); an app makes documents of its own kind with ManagedDocument.create(at:type:).",
                path: url?.path)
        }
        return try await create(at: url, type: type, options: options)
    }
}
