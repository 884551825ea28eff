/// A live fetch: the objects a request describes, kept up to date as the context changes
/// (its own edits, and saves merged from other contexts), reporting each change as
/// inserts, deletes, moves and updates with index paths. Core Data's
/// `NSFetchedResultsController`.
///
/// ```swift
/// let controller = ResultsController(
///     FetchRequest("Pod", sortBy: [FetchSort(Pod.name)]), context: main, sectionKey: "platform")
/// controller.onChange = { changes in table.apply(changes) }
/// try controller.performFetch()
/// ```
///
/// Use it on its context's queue only. Without a limit or offset, a change is applied
/// incrementally (only the changed objects are read); with one, the request runs again.
public final class ResultsController {
    /// The request, with the section key as its first sort.
    public let request: FetchRequest
    /// The attribute whose value groups objects into sections (nil: one section).
    public let sectionKey: String?
    /// The context watched.
    public let context: ObjectContext
    /// Called after each change, with what changed.
    public var onChange: ((ResultsChanges) -> Void)?

    private let query: Query
    private let sectionField: Int?
    private var entries: [VersionedRow] = []
    private var fetched = false

    /// Makes a controller; call ``performFetch()`` to load it.
    ///
    /// - Parameters:
    ///   - request: What to show. When `sectionKey` is set and the request does not sort on
    ///     it first, a sort on it is put first.
    ///   - context: The context to watch.
    ///   - sectionKey: An attribute to group the objects by.
    public init(_ request: FetchRequest, context: ObjectContext, sectionKey: String? = nil) {
        var request = request
        if let sectionKey, request.sortBy.first?.attribute != sectionKey {
            request.sortBy.insert(FetchSort(attribute: sectionKey), at: 0)
        }
        self.request = request
        self.sectionKey = sectionKey
        self.context = context
        let query = Query(request, model: context.model)
        self.query = query
        self.sectionField = sectionKey.map { query.layout.attributeIndex(of: $0) }
    }

    /// Runs the request and starts watching the context.
    ///
    /// - Throws: ``StoreError`` when the store cannot be read.
    public func performFetch() throws {
        context.preconditionOnQueue()
        entries = try context.viewRows(query)
        if !fetched {
            fetched = true
            context.addChangeObserver(self)
        }
    }

    // MARK: - Contents

    /// The sections, in order (one section with key `.null` when there is no section key;
    /// none when there are no objects).
    public var sections: [ResultsSection] {
        ResultsDiff.sections(entries.map(entry))
    }

    /// The IDs of all objects, in order.
    public var fetchedIDs: [ObjectID] { entries.map { context.resolve($0.id) } }

    /// The number of objects.
    public var count: Int { entries.count }

    /// The object at an index path.
    ///
    /// - Precondition: the index path is valid.
    public func object(at indexPath: ResultsIndexPath) -> ManagedObject {
        context.object(with: sections[indexPath.section].ids[indexPath.item])
    }

    private func entry(_ row: VersionedRow) -> ResultsDiff.Entry {
        ResultsDiff.Entry(id: context.resolve(row.id), section: sectionField.map { row.row.values[$0] } ?? .null)
    }
}

// MARK: - Following changes

extension ResultsController: ContextChangeObserver {
    func contextDidChange(_ change: ObjectsDidChange) {
        let entity = query.layout.name
        let touched = change.inserted.union(change.updated).union(change.deleted).filter { $0.entityName == entity }
        guard !touched.isEmpty || !change.renamed.isEmpty || change.invalidatedAll else { return }
        var old = entries
        for i in old.indices where old[i].id.isTemporary { old[i].id = context.resolve(old[i].id) }
        let new: [VersionedRow]
        do {
            if change.invalidatedAll || query.limit != nil || query.offset > 0 {
                new = try context.viewRows(query)
            } else {
                new = try incrementalUpdate(old, touched: touched)
            }
        } catch {
            // The store could not be read: keep the old contents; the next change retries.
            return
        }
        entries = new
        // An object counts as updated when the values the controller holds for it changed.
        let touchedNow = Set(touched.map(context.resolve))
        var before: [ObjectID: RowData] = [:]
        for row in old where touchedNow.contains(row.id) { before[row.id] = row.row }
        let updated = Set(new.lazy.filter { row in before[row.id].map { $0 != row.row } ?? false }.map(\.id))
        var changes = ResultsDiff.changes(from: old.map(entry), to: new.map(entry), updated: updated)
        changes.renamed = change.renamed.filter { $0.key.entityName == entity }
        if !changes.isEmpty { onChange?(changes) }
    }

    /// The new contents: the old ones without the touched objects, plus those touched
    /// objects that match now, each read once.
    private func incrementalUpdate(_ old: [VersionedRow], touched: Set<ObjectID>) throws -> [VersionedRow] {
        let resolvedTouched = Set(touched.map(context.resolve))
        let kept = old.filter { !resolvedTouched.contains($0.id) }
        var added = try context.viewRows(for: Array(resolvedTouched), entity: query.layout.name)
            .filter { query.matches($0.row, resolve: context.resolve) }
        added.sort(by: query.areInIncreasingOrder)
        return ObjectContext.merge(kept, added, by: query.areInIncreasingOrder)
    }
}
