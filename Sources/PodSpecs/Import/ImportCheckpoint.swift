import PodDocStore

/// The recorded progress of an import from one source, read from the store.
public struct ImportCheckpoint: Sendable, Hashable {
    /// The source (the service's page URL, a folder, a page file).
    public var source: String
    /// The last page whose specs are saved (-1: none).
    public var lastCompletedPage: Int
    /// The number of pages the source had at the last save.
    public var numberOfPages: Int
    /// Whether the import reached the last page.
    public var isComplete: Bool

    /// The page a resumed import starts at.
    public var nextPage: Int { lastCompletedPage + 1 }
}

extension ImportCheckpoint {
    private typealias C = PodSpecsSchema.ImportCheckpointEntity

    /// Reads the checkpoint of `source` in a context, if there is one.
    ///
    /// - Throws: ``PodSpecsError`` (`.store`) when the store cannot be read.
    public static func read(source: String, in context: ObjectContext) throws -> ImportCheckpoint? {
        do {
            guard let object = try context.fetchFirst(FetchRequest(C.name, where: C.source == source)) else { return nil }
            return ImportCheckpoint(
                source: source, lastCompletedPage: object[C.lastCompletedPage],
                numberOfPages: object[C.numberOfPages], isComplete: object[C.isComplete])
        } catch {
            throw PodSpecsError.wrapping(error, while: "read the import checkpoint of \(source)")
        }
    }

    /// Writes this checkpoint into a context (creating its object the first time).
    func write(in context: ObjectContext) throws {
        try context.findOrCreate(C.name, key: C.source, keys: [source]) { object, _, _ in
            object[C.lastCompletedPage] = lastCompletedPage
            object[C.numberOfPages] = numberOfPages
            object[C.isComplete] = isComplete
        }
    }
}
