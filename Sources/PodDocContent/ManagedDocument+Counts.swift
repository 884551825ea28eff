import OutlineInterchange
import Outliner
public import PodDocDocument
import PodDocStore
import PodSpecs

// MARK: - What a document holds

extension ManagedDocument {
    /// How many things the document holds, by name: `specs` for a pods document, `items` for
    /// an outline (its root is not counted), the objects of each entity by entity name for
    /// any other kind. Counts what is saved and in the root context, read on a private
    /// queue, off the main actor.
    ///
    /// - Throws: the store's error when it cannot be read.
    public func contentCounts() async throws -> [String: Int] {
        let reader = ObjectContext(.privateQueue, parent: rootContext, name: "counts")
        switch metadata.kind {
        case .pods:
            let specs = try await reader.perform { try SpecsQueries.count(in: $0) }
            return ["specs": specs]
        case .outline:
            let items = try await reader.perform { try $0.count(for: FetchRequest(OutlineSchema.entityName)) }
            return ["items": max(0, items - 1)]
        default:
            let entities = model.entities.map(\.name)
            return try await reader.perform { context in
                var counts: [String: Int] = [:]
                for entity in entities { counts[entity] = try context.count(for: FetchRequest(entity)) }
                return counts
            }
        }
    }
}
