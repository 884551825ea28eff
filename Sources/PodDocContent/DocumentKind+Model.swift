import OutlineInterchange
import Outliner
public import PodDocDocument
public import PodDocStore
import PodSpecs

// MARK: - The object model of each kind

extension DocumentKind {
    /// The object model a document of this kind holds: the pod specs entities for `pods`,
    /// the outline item entity for `outline`.
    public var objectModel: ObjectModel { ContentModels.model(for: self) }
}

/// The models, built once: both are fixed at compile time and valid (a test builds them).
enum ContentModels {
    static let pods: ObjectModel = build(version: PodSpecsSchema.version, PodSpecsSchema.entities, migrations: PodSpecsSchema.migrations) {
        try PodSpecsSchema.earlierVersions()
    }
    static let outline: ObjectModel = build(version: OutlineSchema.version, OutlineSchema.entities) {
        try OutlineSchema.earlierVersions()
    }

    static func model(for kind: DocumentKind) -> ObjectModel {
        switch kind {
        case .pods: pods
        case .outline: outline
        }
    }

    private static func build(
        version: Int, _ entities: [EntityDescription], migrations: [SchemaMigration] = [], earlier: () throws -> [ObjectModel] = { [] }
    ) -> ObjectModel {
        do {
            return try ObjectModel(version: version, entities: entities, migrations: migrations, earlierVersions: earlier())
        } catch {
            preconditionFailure("poddoc's built-in model is invalid: \(error)")
        }
    }
}
