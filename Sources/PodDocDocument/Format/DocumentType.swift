public import PodDocStore

/// A kind of document as an app declares it: its identifier, its object model (with the
/// model's earlier versions and its merge description), a name to show, and what a new
/// document holds.
///
/// With it, an app gets the whole document for free: package or archive, autosave in
/// order, recovery, conflicts, versions, merging of copies. The store records the model, so
/// a program that does not know the kind (`poddoc info`, `check`, `merge`, `export`…) still
/// reads and merges its documents as the app would.
///
/// ```swift
/// let tasks = DocumentType(
///     kind: DocumentKind("org.example.tasks"), displayName: "Task list", model: TaskModel.model)
/// let document = try await ManagedDocument.create(at: url, type: tasks)
/// ```
public struct DocumentType: Sendable {
    /// The identifier the metadata and the store record.
    public let kind: DocumentKind
    /// What a person calls a document of this kind ("Outline", "Task list").
    public let displayName: String
    /// The object model: entities, version, earlier versions, merge description.
    public let model: ObjectModel
    /// What a new document holds before its first edit (an outline's root item), inserted
    /// in the save that creates the document: every copy made from it holds the same objects,
    /// under the same ids. Nil for a document that starts empty.
    public let initialContent: (@Sendable (ObjectContext) throws -> Void)?

    /// Declares a kind of document.
    ///
    /// - Parameters:
    ///   - kind: The identifier the app owns (reverse-DNS).
    ///   - displayName: What a person calls a document of this kind.
    ///   - model: Its object model.
    ///   - initialContent: What a new document holds, inserted into the context given (on
    ///     its queue, no undo); nil for none.
    public init(
        kind: DocumentKind, displayName: String, model: ObjectModel,
        initialContent: (@Sendable (ObjectContext) throws -> Void)? = nil
    ) {
        self.kind = kind
        self.displayName = displayName
        self.model = model
        self.initialContent = initialContent
    }
}
