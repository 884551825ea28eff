import OutlineInterchange
import Outliner
public import PodDocDocument
public import PodDocStore
import PodSpecs

// MARK: - The kinds poddoc brings

extension DocumentKind {
    /// CocoaPods specs (`poddoc pods …`).
    public static let pods = DocumentKind("pods")
    /// An outline: a tree of items (`poddoc outline …`).
    public static let outline = DocumentKind("outline")
}

extension DocumentType {
    /// A catalogue of CocoaPods specs: starts empty.
    public static let pods = DocumentType(kind: .pods, displayName: "CocoaPods specs", model: ContentModels.pods)

    /// An outline: starts with its root item (the parent of the top-level items), so that
    /// every copy of a new outline shares one root.
    public static let outline = DocumentType(kind: .outline, displayName: "Outline", model: ContentModels.outline) { context in
        _ = try OutlineStore(context: context)
    }

    /// The kinds poddoc brings, which the `poddoc` program opens with their own models and
    /// commands; it opens a document of any other kind with the model its store records.
    public static let builtIn: [DocumentType] = [.pods, .outline]

    /// The built-in type of `kind`, if poddoc brings it.
    public static func builtIn(_ kind: DocumentKind) -> DocumentType? {
        builtIn.first { $0.kind == kind }
    }
}

/// The built-in models, built once: both are fixed at compile time and valid (a test builds
/// them).
enum ContentModels {
    static let pods: ObjectModel = build(version: PodSpecsSchema.version, PodSpecsSchema.entities, migrations: PodSpecsSchema.migrations) {
        try PodSpecsSchema.earlierVersions()
    }
    static let outline: ObjectModel = build(version: OutlineSchema.version, OutlineSchema.entities, merging: OutlineSchema.merging) {
        try OutlineSchema.earlierVersions()
    }

    private static func build(
        version: Int, _ entities: [EntityDescription], merging: MergeDescription = MergeDescription(), migrations: [SchemaMigration] = [],
        earlier: () throws -> [ObjectModel] = { [] }
    ) -> ObjectModel {
        do {
            return try ObjectModel(
                version: version, entities: entities, merging: merging, migrations: migrations, earlierVersions: earlier())
        } catch {
            preconditionFailure("poddoc's built-in model is invalid: \(error)")
        }
    }
}
