/// The result of a fetch: a random-access collection of objects.
///
/// When the request had a ``FetchRequest/batchSize``, only the IDs are held; values are read
/// from the parent one batch at a time as elements are used, and only the two most recent
/// batches stay loaded, so a million-row result never sits in memory at once.
/// Use the results on their context's queue only.
public struct FetchedResults: RandomAccessCollection {
    /// The IDs of the results, in order.
    public let ids: [ObjectID]
    private let context: ObjectContext
    private let batchSize: Int
    private let storage: Storage

    private final class Storage {
        var objects: [ManagedObject]?
        var batches: [(index: Int, objects: [ManagedObject])] = []
        init(objects: [ManagedObject]?) { self.objects = objects }
    }

    init(context: ObjectContext, objects: [ManagedObject]) {
        self.context = context
        self.ids = objects.map(\.objectID)
        self.batchSize = 0
        self.storage = Storage(objects: objects)
    }

    init(context: ObjectContext, ids: [ObjectID], batchSize: Int) {
        self.context = context
        self.ids = ids
        self.batchSize = batchSize
        self.storage = Storage(objects: nil)
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { ids.count }

    /// The object at `position`, its values loaded with the rest of its batch.
    public subscript(position: Int) -> ManagedObject {
        if let objects = storage.objects { return objects[position] }
        let batchIndex = position / batchSize
        if let batch = storage.batches.first(where: { $0.index == batchIndex }) {
            return batch.objects[position - batchIndex * batchSize]
        }
        let range = (batchIndex * batchSize)..<Swift.min(ids.count, (batchIndex + 1) * batchSize)
        let objects = ids[range].map { context.object(with: $0) }
        do {
            try context.prefetch(objects)
        } catch {
            preconditionFailure("could not load a batch of \(ids[range.lowerBound].entityName) objects: \(error)")
        }
        storage.batches.append((batchIndex, objects))
        if storage.batches.count > 2 { storage.batches.removeFirst() }
        return objects[position - range.lowerBound]
    }
}
