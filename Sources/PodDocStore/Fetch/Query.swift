/// A fetch request resolved against an entity's layout: field numbers instead of names.
struct Query: Sendable {
    let layout: EntityLayout
    var predicate: CompiledPredicate?
    let sorts: [CompiledSort]
    var limit: Int?
    var offset: Int

    init(layout: EntityLayout, predicate: CompiledPredicate?, sorts: [CompiledSort], limit: Int?, offset: Int) {
        self.layout = layout
        self.predicate = predicate
        self.sorts = sorts
        self.limit = limit
        self.offset = offset
    }

    init(_ request: FetchRequest, model: ObjectModel) {
        let layout = model.layout(request.entityName)
        self.layout = layout
        let predicate = CompiledPredicate(request.predicate, layout: layout)
        if case .constant(true) = predicate { self.predicate = nil } else { self.predicate = predicate }
        self.sorts = request.sortBy.map { CompiledSort($0, layout: layout) }
        self.limit = request.limit
        self.offset = request.offset
    }

    /// Whether `row` matches the predicate (unknown counts as no, as in SQL).
    func matches(_ row: RowData, resolve: (ObjectID) -> ObjectID) -> Bool {
        guard let predicate else { return true }
        return predicate.evaluate(row, resolve: resolve) == true
    }

    /// The total order of results: the sort keys, then the object ID.
    func areInIncreasingOrder(_ a: VersionedRow, _ b: VersionedRow) -> Bool {
        for sort in sorts {
            var c = StoreValue.compare(a.row.values[sort.field], b.row.values[sort.field], collation: sort.collation)
            if !sort.ascending { c = -c }
            if c != 0 { return c < 0 }
        }
        return a.id < b.id
    }

    /// Applies offset and limit to rows already in order.
    func page<T>(_ rows: [T]) -> [T] {
        let start = min(offset, rows.count)
        let end = limit.map { min(start + $0, rows.count) } ?? rows.count
        return start == 0 && end == rows.count ? rows : Array(rows[start..<end])
    }
}

/// A sort key resolved to a field number.
struct CompiledSort: Sendable, Hashable {
    let field: Int
    let ascending: Bool
    let collation: Collation

    init(_ sort: FetchSort, layout: EntityLayout) {
        field = layout.attributeIndex(of: sort.attribute)
        ascending = sort.ascending
        collation = sort.collation
    }
}
