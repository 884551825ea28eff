internal import GRDB

// MARK: - Full-text search

extension PersistentStore {
    /// Saved objects of `entityName` whose full-text attributes hold every word of `words`,
    /// best matches first (`SearchRanking`, with ``EntityDescription/fullTextWeights``), then
    /// oldest first.
    ///
    /// Words match in every script (``SearchText``): a Latin, Greek or Cyrillic word as a
    /// word or a word prefix, case and accents folded; a Chinese, Japanese or Korean word
    /// anywhere inside a run of such characters. The words are taken literally: FTS5
    /// operators and quotes in them have no effect.
    ///
    /// - Parameters:
    ///   - words: Free text, e.g. `json parser` or `简单`.
    ///   - entityName: An entity with ``EntityDescription/fullTextAttributes``.
    ///   - limit: At most this many results.
    /// - Returns: The objects' IDs, best match first; empty when `words` holds no word.
    /// - Throws: ``StoreError`` when the entity has no full-text index or the store cannot
    ///   be read.
    public func search(_ words: String, in entityName: String, limit: Int = 100) throws -> [ObjectID] {
        let layout = try fullTextLayout(entityName)
        guard let query = SearchText.matchExpression(for: words) else { return [] }
        let table = layout.fullTextTable
        let attributes = Array(zip(layout.fullTextFields.map { layout.attributes[$0].name }, layout.description.fullTextWeights))
        let rows = try unsafeRead { db in
            let indexed = Set(
                try String.fetchAll(db, sql: "SELECT name FROM pragma_table_info(?)", arguments: [layout.description.fullTextTable]))
            let weights = attributes.filter { indexed.contains($0.0) }.map { ", \($0.1)" }.joined()
            let found = try Int64.fetchAll(
                db,
                sql:
                    "SELECT rowid FROM \(table) WHERE \(table) MATCH ? ORDER BY \(SearchRanking.sqlFunction)(\(table)\(weights)), rowid LIMIT ?",
                arguments: [query, limit])
            let unindexed = attributes.filter { !indexed.contains($0.0) }
            guard !unindexed.isEmpty else { return found }
            // An index made before these attributes joined it, read without writing (the next
            // writable open makes it again): they are read from the rows, every word inside,
            // and their matches ranked by their weight.
            let terms = SearchText.terms(of: words).map(\.text)
            let condition = unindexed.map { name, _ -> String in
                let text: String = "lower(\(SearchText.sqlFunction)(\(SQL.quote(name))))"
                let each: [String] = terms.map { _ in "instr(" + text + ", ?) > 0" }
                return "(" + each.joined(separator: " AND ") + ")"
            }.joined(separator: " OR ")
            var arguments = StatementArguments()
            for _ in unindexed { for term in terms { _ = arguments.append(contentsOf: [term]) } }
            _ = arguments.append(contentsOf: [limit])
            let scanned = try Int64.fetchAll(
                db, sql: "SELECT \"id\" FROM \(layout.table) WHERE \(condition) ORDER BY \"id\" LIMIT ?", arguments: arguments)
            let indexedWeight = attributes.filter { indexed.contains($0.0) }.map(\.1).max() ?? 0
            let scannedFirst = (unindexed.map(\.1).max() ?? 0) > indexedWeight
            var seen: Set<Int64> = []
            return Array((scannedFirst ? scanned + found : found + scanned).filter { seen.insert($0).inserted }.prefix(limit))
        }
        return rows.map { ObjectID.permanent(entity: entityName, rowID: $0) }
    }

    /// Where the full-text indexes disagree with the rows they index, as sentences: a row
    /// missing from its index, an index entry for no row, or indexed text that is not the
    /// row's text in the index's form. Empty for a sound store, and for a store whose index
    /// is in an older form (the next writable open rebuilds it).
    ///
    /// - Throws: ``StoreError`` when the store cannot be read.
    public func fullTextProblems() throws -> [String] {
        try unsafeRead { db in
            let form = try String.fetchOne(db, sql: "SELECT value FROM _poddoc_store WHERE key = ?", arguments: [SearchText.formKey])
            guard form == SearchText.formVersion else { return [] }
            var problems: [String] = []
            for entity in model.entities where !entity.fullTextAttributes.isEmpty {
                let layout = model.layout(entity.name)
                let table = layout.table
                let index = layout.fullTextTable
                let unindexed =
                    try Int.fetchOne(db, sql: "SELECT count(*) FROM \(table) WHERE \"id\" NOT IN (SELECT \"rowid\" FROM \(index))") ?? 0
                let orphaned =
                    try Int.fetchOne(db, sql: "SELECT count(*) FROM \(index) WHERE \"rowid\" NOT IN (SELECT \"id\" FROM \(table))") ?? 0
                let differing = layout.fullTextFields.map { field -> String in
                    let column = SQL.quote(layout.attributes[field].name)
                    return "i.\(column) IS NOT \(SearchText.sqlFunction)(t.\(column))"
                }.joined(separator: " OR ")
                let stale =
                    try Int.fetchOne(
                        db, sql: "SELECT count(*) FROM \(table) t JOIN \(index) i ON i.\"rowid\" = t.\"id\" WHERE \(differing)") ?? 0
                if unindexed > 0 { problems.append("\(unindexed) \(entity.name) rows are missing from the search index.") }
                if orphaned > 0 { problems.append("The search index of \(entity.name) holds \(orphaned) rows that are not in the store.") }
                if stale > 0 { problems.append("The search index of \(entity.name) holds other text than \(stale) of its rows.") }
            }
            return problems
        }
    }

    private func fullTextLayout(_ entityName: String) throws -> EntityLayout {
        guard let entity = model.entity(named: entityName), !entity.fullTextAttributes.isEmpty else {
            throw StoreError(.invalidModel, "Entity '\(entityName)' has no full-text index to search.")
        }
        return model.layout(entityName)
    }
}
