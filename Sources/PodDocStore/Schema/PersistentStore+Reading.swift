internal import GRDB

// MARK: - Reading rows (on the root context's queue)

extension PersistentStore {
    /// Rows matching a query, in its order, limited and offset.
    func fetchRows(_ query: Query) throws -> [VersionedRow] {
        if case .oneOf(let field, let values)? = query.predicate, values.count > PersistentStore.longList,
            query.limit == nil, query.offset == 0
        {
            return try fetchRows(query, field: field, oneOfLongList: values)
        }
        var arguments: [StoreValue] = []
        let sql = "SELECT \(selectList(query.layout)) FROM \(query.layout.table)" + clauses(query, &arguments)
        return try readRows(sql, arguments, layout: query.layout)
    }

    /// Lists longer than this are not sent as one `IN (...)`: SQLite takes at most 32,766
    /// parameters, and each value costs an index probe.
    static let longList = 10_000

    /// `attribute IN (values)` for a long list: a single scan of the table when the list is
    /// large next to it (comparing text and blobs byte by byte, exactly as SQL does), else
    /// the list in chunks.
    private func fetchRows(_ query: Query, field: Int, oneOfLongList values: [StoreValue]) throws -> [VersionedRow] {
        let layout = query.layout
        let exactlyComparable = values.allSatisfy {
            switch $0 {
            case .text, .blob: return true
            default: return false
            }
        }
        var rows: [VersionedRow] = []
        if exactlyComparable, try tableSizeEstimate(layout) <= values.count * 2 {
            let wanted = Set(values)
            rows = try readRows("SELECT \(selectList(layout)) FROM \(layout.table) ORDER BY \"id\"", [], layout: layout)
                .filter { wanted.contains($0.row.values[field]) }
        } else {
            for start in stride(from: 0, to: values.count, by: PersistentStore.longList) {
                var chunk = query
                chunk.predicate = .oneOf(field, Array(values[start..<min(start + PersistentStore.longList, values.count)]))
                rows += try fetchRows(chunk)
            }
        }
        rows.sort(by: query.areInIncreasingOrder)
        return rows
    }

    /// The highest row id of a table: an upper bound of its row count, read in one probe.
    private func tableSizeEstimate(_ layout: EntityLayout) throws -> Int {
        try read("sizing \(layout.name)") { db in
            let statement = try RawStatement(db, "SELECT max(\"id\") FROM \(layout.table)")
            defer { statement.reset() }
            return try statement.step() ? Int(statement.int64(0)) : 0
        }
    }

    /// IDs of the rows matching a query, in its order.
    func fetchIDs(_ query: Query) throws -> [ObjectID] {
        try read("fetching \(query.layout.name) IDs") { db in try Self.fetchIDs(query, in: db, resolve: resolve) }
    }

    /// IDs of the rows matching a query, in its order, read through `db`.
    static func fetchIDs(_ query: Query, in db: Database, resolve: (ObjectID) -> ObjectID) throws -> [ObjectID] {
        var arguments: [StoreValue] = []
        let statement = try RawStatement(db, "SELECT \"id\" FROM \(query.layout.table)" + clauses(query, &arguments, resolve: resolve))
        defer { statement.reset() }
        statement.bind(arguments, startingAt: 1)
        var ids: [ObjectID] = []
        while try statement.step() {
            ids.append(ObjectID(entityName: query.layout.name, key: statement.int64(0)))
        }
        return ids
    }

    /// The number of rows matching a query (after its offset and limit).
    func count(_ query: Query) throws -> Int {
        try read("counting \(query.layout.name)") { db in try Self.count(query, in: db, resolve: resolve) }
    }

    /// The number of rows matching a query (after its offset and limit), read through `db`.
    static func count(_ query: Query, in db: Database, resolve: (ObjectID) -> ObjectID) throws -> Int {
        var arguments: [StoreValue] = []
        let statement = try RawStatement(
            db, "SELECT count(*) FROM \(query.layout.table)" + whereClause(query, &arguments, resolve: resolve))
        defer { statement.reset() }
        statement.bind(arguments, startingAt: 1)
        _ = try statement.step()
        let afterOffset = max(0, Int(statement.int64(0)) - query.offset)
        return query.limit.map { min($0, afterOffset) } ?? afterOffset
    }

    /// Row ids sent in one `IN (…)` when reading rows by id: few enough that SQLite's
    /// statement stays small (one index probe each), enough that a page of results is one query.
    static let idsPerQuery = 500

    /// From this many ids on, when they are most of the ids of their range, rows are read by
    /// walking the range rather than by probing each id.
    static let denseReadMinimum = 2_000

    /// The rows of these objects (missing ones do not exist), ``idsPerQuery`` ids per query.
    func rows(for ids: [ObjectID], entity layout: EntityLayout) throws -> [VersionedRow] {
        let keys = ids.compactMap { resolve($0).rowID }
        guard !keys.isEmpty else { return [] }
        return try read("reading \(layout.name)") { db in try Self.rows(withRowIDs: keys, layout: layout, in: db) }
    }

    /// The rows with these row ids (in no particular order; missing ones do not exist), read
    /// through `db`, ``idsPerQuery`` ids per query.
    static func rows(withRowIDs keys: [Int64], layout: EntityLayout, in db: Database) throws -> [VersionedRow] {
        var rows: [VersionedRow] = []
        rows.reserveCapacity(keys.count)
        let sorted = keys.sorted()
        if sorted.count >= denseReadMinimum, let low = sorted.first, let high = sorted.last, (high - low) / 2 < Int64(sorted.count) {
            // Most rows of a range: one walk along the table in id order beats an index probe
            // a row (a row not asked for is skipped by its id, its values not read).
            let statement = try RawStatement(
                db, "SELECT \(selectList(layout)) FROM \(layout.table) WHERE \"id\" BETWEEN ? AND ? ORDER BY \"id\"")
            statement.bind([.integer(low), .integer(high)], startingAt: 1)
            var next = 0
            while try statement.step() {
                let id = statement.int64(0)
                while next < sorted.count && sorted[next] < id { next += 1 }
                guard next < sorted.count else { break }
                if sorted[next] == id { rows.append(PersistentStore.versionedRow(statement, layout: layout)) }
            }
            return rows
        }
        for start in stride(from: 0, to: keys.count, by: idsPerQuery) {
            let chunk = keys[start..<min(start + idsPerQuery, keys.count)]
            let sql =
                "SELECT \(selectList(layout)) FROM \(layout.table) WHERE \"id\" IN (\(Array(repeating: "?", count: chunk.count).joined(separator: ",")))"
            rows += try readRows(db, sql, chunk.map { .integer($0) }, layout: layout)
        }
        return rows
    }

    /// Some columns of these objects' saved rows (``ObjectContext/values(of:reading:presenceOf:)``),
    /// in the order of `ids`; nil where no row exists. ``idsPerQuery`` ids per query.
    ///
    /// A presence is read as `typeof(column) != 'null'`, which SQLite answers from the
    /// record's header: a long value is not read for it (`IS NOT NULL` would read it).
    func partialValues(of ids: [ObjectID], layout: EntityLayout, read: PartialRead) throws -> [PartialValues?] {
        let keys = ids.map { resolve($0).rowID }
        let wanted = keys.compactMap { $0 }
        guard !wanted.isEmpty else { return keys.map { _ in nil } }
        let columns =
            read.attributes.map { SQL.quote(layout.attributes[$0].name) } + read.foreignKeys.map { SQL.quote(layout.foreignKeys[$0].name) }
            + read.presence.map { "typeof(\(SQL.quote(layout.attributes[$0].name))) != 'null'" }
        let destinations = read.foreignKeys.map { layout.foreignKeys[$0].destination }
        // A column stored after a text or blob one not asked for lies past that value in the
        // record: SQLite reaches it through the value's overflow pages, which a long value
        // would fill the page cache with. Such a read gets a walk's small cache.
        let firstLong = layout.attributes.firstIndex { $0.type.sqlType == "TEXT" || $0.type.sqlType == "BLOB" }
        let lastRead = read.foreignKeys.isEmpty ? read.attributes.max() : layout.attributes.count
        let passesLongValues = firstLong.map { first in lastRead.map { $0 > first } ?? false } ?? false
        var found: [Int64: PartialValues] = [:]
        try self.read("reading \(layout.name)") { db in
            let restore = passesLongValues ? try Self.shrinkPageCache(db, toKiB: Self.walkCacheKiB) : nil
            defer { restore?() }
            for start in stride(from: 0, to: wanted.count, by: Self.idsPerQuery) {
                let chunk = wanted[start..<min(start + Self.idsPerQuery, wanted.count)]
                let statement = try RawStatement(
                    db,
                    "SELECT \"id\", \(columns.joined(separator: ", ")) FROM \(layout.table) WHERE \"id\" IN (\(Array(repeating: "?", count: chunk.count).joined(separator: ",")))"
                )
                statement.bind(chunk.map { .integer($0) }, startingAt: 1)
                while try statement.step() {
                    var column: Int32 = 1
                    var values: [StoreValue] = []
                    for _ in read.attributes {
                        values.append(statement.value(column))
                        column += 1
                    }
                    var refs: [ObjectID?] = []
                    for destination in destinations {
                        refs.append(statement.isNull(column) ? nil : ObjectID(entityName: destination, key: statement.int64(column)))
                        column += 1
                    }
                    var present: [Bool] = []
                    for _ in read.presence {
                        present.append(statement.int64(column) != 0)
                        column += 1
                    }
                    found[statement.int64(0)] = PartialValues(values: values, destinations: refs, present: present)
                }
            }
        }
        return keys.map { $0.flatMap { found[$0] } }
    }

    // MARK: - SQL text

    /// The columns ``versionedRow(_:layout:)`` reads: id, version, attributes, foreign keys.
    /// With `attributes`, the attributes at other field numbers are read as NULL.
    static func selectList(_ layout: EntityLayout, reading attributes: Set<Int>? = nil) -> String {
        let values = layout.attributes.indices.map { field in
            attributes.map { $0.contains(field) } ?? true ? SQL.quote(layout.attributes[field].name) : "NULL"
        }
        return (["\"id\"", "\"_version\""] + values + layout.foreignKeys.map { SQL.quote($0.name) }).joined(separator: ", ")
    }

    func selectList(_ layout: EntityLayout) -> String { Self.selectList(layout) }

    private func clauses(_ query: Query, _ arguments: inout [StoreValue]) -> String {
        Self.clauses(query, &arguments, resolve: resolve)
    }

    /// ` WHERE …` for the query's predicate (empty when it has none), its arguments appended.
    static func whereClause(_ query: Query, _ arguments: inout [StoreValue], resolve: (ObjectID) -> ObjectID) -> String {
        guard let predicate = query.predicate else { return "" }
        return " WHERE " + predicate.sql(query.layout, &arguments, resolve: resolve)
    }

    /// ` WHERE … ORDER BY … LIMIT … OFFSET …` for a query, its arguments appended.
    static func clauses(_ query: Query, _ arguments: inout [StoreValue], resolve: (ObjectID) -> ObjectID) -> String {
        var sql = whereClause(query, &arguments, resolve: resolve)
        let order =
            query.sorts.map { sort in
                return "\(sort.collation.sql(SQL.quote(query.layout.attributes[sort.field].name))) \(sort.ascending ? "ASC" : "DESC")"
            } + ["\"id\""]
        sql += " ORDER BY " + order.joined(separator: ", ")
        if query.limit != nil || query.offset > 0 {
            sql += " LIMIT \(query.limit ?? -1) OFFSET \(query.offset)"
        }
        return sql
    }

    // MARK: - Running reads

    func readRows(_ sql: String, _ arguments: [StoreValue], layout: EntityLayout) throws -> [VersionedRow] {
        try read("reading \(layout.name)") { db in try Self.readRows(db, sql, arguments, layout: layout) }
    }

    static func readRows(_ db: Database, _ sql: String, _ arguments: [StoreValue], layout: EntityLayout) throws -> [VersionedRow] {
        let statement = try RawStatement(db, sql)
        statement.bind(arguments, startingAt: 1)
        var rows: [VersionedRow] = []
        while try statement.step() { rows.append(PersistentStore.versionedRow(statement, layout: layout)) }
        return rows
    }

    /// A text or blob at least this long gives back the page cache its reading filled (see
    /// `RawStatement.value(_:)`), and a save that touches one writes with a small cache.
    static let longValueBytes = 1 << 20

    /// Reads the current row of `statement` laid out as `selectList(layout)`.
    static func versionedRow(_ statement: RawStatement, layout: EntityLayout) -> VersionedRow {
        let attributeCount = layout.attributes.count
        var values: [StoreValue] = []
        values.reserveCapacity(attributeCount)
        for i in 0..<attributeCount { values.append(statement.value(Int32(2 + i))) }
        var refs: [ObjectID?] = []
        refs.reserveCapacity(layout.foreignKeys.count)
        for (i, fk) in layout.foreignKeys.enumerated() {
            let column = Int32(2 + attributeCount + i)
            refs.append(statement.isNull(column) ? nil : ObjectID(entityName: fk.destination, key: statement.int64(column)))
        }
        return VersionedRow(
            id: ObjectID(entityName: layout.name, key: statement.int64(0)),
            row: RowData(values: values, refs: refs), version: statement.int64(1))
    }

    private func read<T>(_ action: String, _ body: (Database) throws -> T) throws -> T {
        do {
            return try database.inDatabase(body)
        } catch {
            throw StoreError.sqlite(error, while: action)
        }
    }
}
