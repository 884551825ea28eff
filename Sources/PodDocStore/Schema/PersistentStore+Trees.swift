internal import GRDB

// MARK: - Walking trees with recursive queries (on the root context's queue)

extension PersistentStore {
    /// Every row below `roots` through the self-referential foreign key `fk`, with the row it
    /// points at, parents before children: one recursive query, however deep the tree.
    ///
    /// The roots travel as one JSON array, so any number of them fits in one statement.
    /// `UNION` (not `UNION ALL`) drops repeats, so nested roots and even a damaged, cyclic
    /// table end the query.
    func descendantLinks(of roots: [ObjectID], layout: EntityLayout, foreignKey fk: Int) throws -> [ObjectLink] {
        let keys = roots.compactMap { resolve($0).rowID }
        guard !keys.isEmpty else { return [] }
        let column = SQL.quote(layout.foreignKeys[fk].name)
        let sql = """
            WITH RECURSIVE below(id, parent) AS (
                SELECT "id", \(column) FROM \(layout.table) WHERE \(column) IN (SELECT value FROM json_each(?))
                UNION
                SELECT t."id", t.\(column) FROM \(layout.table) t JOIN below ON t.\(column) = below.id
            )
            SELECT id, parent FROM below
            """
        return try links(sql, .text("[" + keys.map(String.init).joined(separator: ",") + "]"), layout: layout, fk: fk)
    }

    /// The row of `id` and every row above it through `fk`, nearest first: the object's own
    /// link, its destination's link, and so on up to a row whose key is NULL (or points at a
    /// missing row). Empty when the row does not exist.
    func ancestorLinks(of id: ObjectID, layout: EntityLayout, foreignKey fk: Int) throws -> [ObjectLink] {
        guard let key = resolve(id).rowID else { return [] }
        let column = SQL.quote(layout.foreignKeys[fk].name)
        let sql = """
            WITH RECURSIVE above(id, parent) AS (
                SELECT "id", \(column) FROM \(layout.table) WHERE "id" = ?
                UNION
                SELECT t."id", t.\(column) FROM \(layout.table) t JOIN above ON t."id" = above.parent
            )
            SELECT id, parent FROM above
            """
        return try links(sql, .integer(key), layout: layout, fk: fk)
    }

    private func links(_ sql: String, _ argument: StoreValue, layout: EntityLayout, fk: Int) throws -> [ObjectLink] {
        let destination = layout.foreignKeys[fk].destination
        do {
            return try database.inDatabase { db in
                let statement = try RawStatement(db, sql)
                statement.bind(argument, at: 1)
                var links: [ObjectLink] = []
                while try statement.step() {
                    let parent = statement.isNull(1) ? nil : ObjectID(entityName: destination, key: statement.int64(1))
                    links.append(ObjectLink(object: ObjectID(entityName: layout.name, key: statement.int64(0)), destination: parent))
                }
                return links
            }
        } catch {
            throw StoreError.sqlite(error, while: "walking the '\(layout.name)' tree")
        }
    }
}

// MARK: - Streaming a saved tree

extension PersistentStore {
    /// The page cache of a walk, in KiB.
    static let walkCacheKiB = 4096

    /// Sets the connection's page cache to `kib` KiB for work that reads or writes each
    /// page once (a walk, a hash of every row, a save of a long value); the cache a big save
    /// wants (64 MiB) would only hold pages that work is done with. Call what it returns to
    /// put the cache back.
    static func shrinkPageCache(_ db: Database, toKiB kib: Int) throws -> () -> Void {
        let cacheSize = try Int.fetchOne(db, sql: "PRAGMA cache_size") ?? -2000
        try db.execute(sql: "PRAGMA cache_size = -\(kib)")
        return { try? db.execute(sql: "PRAGMA cache_size = \(cacheSize)") }
    }

    /// Walks the saved rows below `root` through the self-referential to-one `relationship`,
    /// depth first (a parent before its children, siblings by `siblingOrder`, then by key),
    /// handing each to `body` with its depth (1 for `root`'s children) and the values of
    /// `attributes`, in that order.
    ///
    /// One recursive query, read row by row: memory holds the IDs waiting their turn (the
    /// later siblings of the rows on the current path) and the values of one row, never the
    /// whole tree, so an export of any size can stream, and a long value is held once. It reads what the store holds: changes not yet saved by a root
    /// context are not seen. A damaged, cyclic table ends the walk at a depth of the table's
    /// row count.
    ///
    /// ```swift
    /// try store.walkSavedTree(below: rootID, following: Item.parent, siblingOrder: Item.order,
    ///                         reading: [Item.title]) { depth, values in print(depth, values[0]) }
    /// ```
    ///
    /// - Precondition: `relationship` leads from its entity to itself, and `siblingOrder` and
    ///   `attributes` belong to that entity.
    /// - Throws: ``StoreError`` when the store cannot be read, or what `body` throws.
    public func walkSavedTree(
        below root: ObjectID, following relationship: ToOne, siblingOrder: Attribute<Int>, reading attributes: [any EntityMember],
        _ body: (_ depth: Int, _ values: [StoreValue]) throws -> Void
    ) throws {
        let layout = model.layout(relationship.relationship.destination)
        guard case .foreignKey(let fk) = layout.relationship(named: relationship.name).storage,
            layout.relationship(named: relationship.name).destination == layout.name
        else {
            preconditionFailure("'\(relationship.name)' is not a to-one relationship of '\(layout.name)' to itself")
        }
        guard let key = resolve(root).rowID else { return }
        let parent = SQL.quote(layout.foreignKeys[fk].name)
        let order = SQL.quote(layout.attributes[layout.attributeIndex(of: siblingOrder.name)].name)
        let columns = attributes.map { SQL.quote(layout.attributes[layout.attributeIndex(of: $0.name)].name) }
        // Ordered by depth (deepest first), then sibling order: SQLite's queue then hands out
        // a row's children before its next sibling, which is a depth-first walk. The queue
        // carries IDs only; each row's values are read on their own once its turn comes, and
        // let go before the next: a value SQLite held in the queue, in the result row and in
        // the record it was read from would cost three copies of a long note.
        let sql = """
            WITH RECURSIVE walk(id, depth, sibling) AS (
                SELECT ?, 0, 0
                UNION ALL
                SELECT t."id", walk.depth + 1, t.\(order)
                FROM \(layout.table) t JOIN walk ON t.\(parent) = walk.id
                WHERE walk.depth < (SELECT count(*) FROM \(layout.table))
                ORDER BY 2 DESC, 3, 1
            )
            SELECT depth, id FROM walk WHERE depth > 0
            """
        let valuesSQL = "SELECT \(columns.isEmpty ? "NULL" : columns.joined(separator: ", ")) FROM \(layout.table) WHERE \"id\" = ?"
        var failure: (any Error)?
        do {
            try database.read { db in
                // The walk reads each page once: a cache the size of a big save's would only
                // hold pages it is done with (64 MiB of them on a large store).
                let restore = try Self.shrinkPageCache(db, toKiB: Self.walkCacheKiB)
                defer { restore() }
                let statement = try RawStatement(db, sql)
                let row = try RawStatement(db, valuesSQL)
                statement.bind(.integer(key), at: 1)
                while try statement.step() {
                    row.bind(.integer(statement.int64(1)), at: 1)
                    guard try row.step() else {
                        row.reset()
                        continue
                    }
                    let values = (0..<Int32(columns.count)).map { row.value($0) }
                    row.reset()
                    do {
                        try body(Int(statement.int64(0)), values)
                    } catch {
                        failure = error
                        return
                    }
                }
            }
        } catch {
            throw StoreError.sqlite(error, while: "walking the '\(layout.name)' tree")
        }
        if let failure { throw failure }
    }
}
