import GRDB

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
