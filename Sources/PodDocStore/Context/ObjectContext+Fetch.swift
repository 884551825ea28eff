#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// MARK: - Fetching

extension ObjectContext {
    /// Fetches the objects a request describes, this context's unsaved changes included.
    ///
    /// With a positive ``FetchRequest/batchSize`` only the IDs are read now; values are read
    /// a batch at a time as the results are used.
    ///
    /// - Throws: ``StoreError`` when the store cannot be read.
    public func fetch(_ request: FetchRequest) throws -> FetchedResults {
        preconditionOnQueue()
        let query = Query(request, model: model)
        if request.batchSize > 0 {
            return FetchedResults(context: self, ids: try viewIDs(query), batchSize: request.batchSize)
        }
        return FetchedResults(context: self, objects: try fetchObjects(query))
    }

    /// Fetches only the IDs of the objects a request describes.
    ///
    /// - Throws: ``StoreError`` when the store cannot be read.
    public func fetchIDs(_ request: FetchRequest) throws -> [ObjectID] {
        preconditionOnQueue()
        return try viewIDs(Query(request, model: model))
    }

    /// Counts the objects a request describes (honouring its limit and offset).
    ///
    /// - Throws: ``StoreError`` when the store cannot be read.
    public func count(for request: FetchRequest) throws -> Int {
        preconditionOnQueue()
        return try viewCount(Query(request, model: model))
    }

    /// The first object a request describes, or nil.
    ///
    /// - Throws: ``StoreError`` when the store cannot be read.
    public func fetchFirst(_ request: FetchRequest) throws -> ManagedObject? {
        var request = request
        request.limit = 1
        request.batchSize = 0
        return try fetch(request).first
    }

    // MARK: - Internals

    /// Rows as this context sees them, registered as objects.
    func fetchObjects(_ query: Query) throws -> [ManagedObject] {
        try viewRows(query).map(register)
    }

    /// The registered object for a row, refreshing an unchanged object's values.
    func register(_ row: VersionedRow) -> ManagedObject {
        let object = self.object(with: row.id)
        if object.state == .clean {
            object.snapshot = row.row
            object.snapshotVersion = row.version
        }
        return object
    }

    /// The rows matching `query` as this context sees them: the parent's, overlaid with this
    /// context's own unsaved changes.
    func viewRows(_ query: Query) throws -> [VersionedRow] {
        try readingConsistently { try overlaidRows(query) }
    }

    private func overlaidRows(_ query: Query) throws -> [VersionedRow] {
        let localCount = changes.count(in: query.layout)
        guard localCount > 0 else { return try sourceRows(query) }
        var parentQuery = query
        parentQuery.offset = 0
        parentQuery.limit = query.limit.map { $0 + query.offset + localCount }
        var rows = try sourceRows(parentQuery)
        rows.removeAll { changes[$0.id] != nil }

        var extra: [VersionedRow] = []
        func consider(_ id: ObjectID) {
            guard let object = changes[id], object.state != .deleted, let row = object.current else { return }
            if query.matches(row, resolve: resolve) {
                extra.append(VersionedRow(id: id, row: row, version: object.snapshotVersion))
            }
        }
        if let lookup = query.predicate?.refLookup {
            var seen = Set<ObjectID>()
            let index = changes.referrers(entity: query.layout.name, foreignKey: lookup.foreignKey)
            for destination in lookup.ids {
                for id in index[resolve(destination)] ?? [] where seen.insert(id).inserted { consider(id) }
                if destination != resolve(destination) {
                    for id in index[destination] ?? [] where seen.insert(id).inserted { consider(id) }
                }
            }
        } else {
            for object in changedObjects(in: query.layout) { consider(object.objectID) }
        }
        guard !extra.isEmpty else { return query.page(rows) }
        extra.sort(by: query.areInIncreasingOrder)
        return query.page(ObjectContext.merge(rows, extra, by: query.areInIncreasingOrder))
    }

    func viewIDs(_ query: Query) throws -> [ObjectID] {
        try readingConsistently { try overlaidIDs(query) }
    }

    private func overlaidIDs(_ query: Query) throws -> [ObjectID] {
        if !hasChanges(in: query.layout) {
            switch parent {
            case .store(let store): return try store.fetchIDs(query)
            case .context(let parent): return try parent.performAndWait { try $0.viewIDs(query) }
            }
        }
        return try overlaidRows(query).map(\.id)
    }

    func viewCount(_ query: Query) throws -> Int {
        if !hasChanges(in: query.layout) {
            switch parent {
            case .store(let store): return try store.count(query)
            case .context(let parent): return try parent.performAndWait { try $0.viewCount(query) }
            }
        }
        // The parent's matching IDs (no row: an index answers them) less the ones changed
        // here, and this context's own changed objects that match.
        return try readingConsistently {
            var whole = query
            whole.offset = 0
            whole.limit = nil
            let saved: [ObjectID]
            switch parent {
            case .store(let store): saved = try store.fetchIDs(whole)
            case .context(let parent): saved = try parent.performAndWait { try $0.viewIDs(whole) }
            }
            var total = saved.count { changes[$0] == nil }
            for object in changedObjects(in: query.layout) where object.state != .deleted {
                if let row = object.current, query.matches(row, resolve: resolve) { total += 1 }
            }
            return max(0, min(total - query.offset, query.limit ?? .max))
        }
    }

    /// The rows of these objects as this context sees them; missing ones do not exist.
    func viewRows(for ids: [ObjectID], entity: String) throws -> [VersionedRow] {
        try readingConsistently { try overlaidRows(for: ids, entity: entity) }
    }

    private func overlaidRows(for ids: [ObjectID], entity: String) throws -> [VersionedRow] {
        var rows: [VersionedRow] = []
        var missing: [ObjectID] = []
        for id in ids {
            let id = resolve(id)
            if let object = changes[id] {
                if object.state != .deleted, let current = object.current {
                    rows.append(VersionedRow(id: id, row: current, version: object.snapshotVersion))
                }
            } else {
                missing.append(id)
            }
        }
        if !missing.isEmpty { rows += try sourceRows(for: missing, entity: entity) }
        return rows
    }

    /// The parent's view of `query`.
    func sourceRows(_ query: Query) throws -> [VersionedRow] {
        switch parent {
        case .store(let store): return try store.fetchRows(query)
        case .context(let parent): return try parent.performAndWait { try $0.viewRows(query) }
        }
    }

    /// The parent's rows for these objects.
    func sourceRows(for ids: [ObjectID], entity: String) throws -> [VersionedRow] {
        switch parent {
        case .store(let store): return try store.rows(for: ids, entity: model.layout(entity))
        case .context(let parent): return try parent.performAndWait { try $0.viewRows(for: ids, entity: entity) }
        }
    }

    /// Runs a read that overlays this context's changes on its parent's answer so that both
    /// use the same IDs: a root save finishing on its queue meanwhile can make IDs permanent
    /// in the parent's answer while this context still holds the temporary ones, so the read
    /// starts with this context's objects renamed, and runs again if any ID became
    /// permanent while it ran (rare: only when a root save ends during the read).
    func readingConsistently<T>(_ read: () throws -> T) throws -> T {
        guard case .context = parent else { return try read() }
        while true {
            let generation = store.aliasGeneration.load(ordering: .acquiring)
            // Odd: a root save is filling in permanent keys right now (microseconds).
            guard generation & 1 == 0 else {
                sched_yield()
                continue
            }
            if generation != appliedAliasGeneration { adoptPermanentIDs() }
            let result = try read()
            if store.aliasGeneration.load(ordering: .acquiring) == generation { return result }
        }
    }

    static func merge(_ a: [VersionedRow], _ b: [VersionedRow], by less: (VersionedRow, VersionedRow) -> Bool) -> [VersionedRow] {
        var result: [VersionedRow] = []
        result.reserveCapacity(a.count + b.count)
        var i = 0
        var j = 0
        while i < a.count, j < b.count {
            if less(b[j], a[i]) {
                result.append(b[j])
                j += 1
            } else {
                result.append(a[i])
                i += 1
            }
        }
        result.append(contentsOf: a[i...])
        result.append(contentsOf: b[j...])
        return result
    }
}
