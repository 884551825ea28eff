/// An ``ObjectPredicate`` resolved to field numbers, ready to run as SQL or in memory.
indirect enum CompiledPredicate: Sendable {
    case constant(Bool)
    case compare(Int, ObjectPredicate.ComparisonOperator, StoreValue, Collation)
    case isNull(Int)
    case oneOf(Int, [StoreValue])
    case text(Int, ObjectPredicate.TextMatch, String, caseInsensitive: Bool)
    /// Foreign key number `fk` equals the ID (nil: is NULL).
    case refersTo(Int, ObjectID?)
    case refersToAny(Int, [ObjectID])
    case and([CompiledPredicate])
    case or([CompiledPredicate])
    case not(CompiledPredicate)

    init(_ predicate: ObjectPredicate, layout: EntityLayout) {
        switch predicate {
        case .all: self = .constant(true)
        case .none: self = .constant(false)
        case .compare(let name, let op, let value, let collation):
            self = value.isNull ? .constant(false) : .compare(layout.attributeIndex(of: name), op, value, collation)
        case .isNull(let name): self = .isNull(layout.attributeIndex(of: name))
        case .oneOf(let name, let values): self = .oneOf(layout.attributeIndex(of: name), values)
        case .text(let name, let match, let pattern, let ci):
            self = .text(layout.attributeIndex(of: name), match, pattern, caseInsensitive: ci)
        case .refersTo(let name, let id): self = .refersTo(CompiledPredicate.foreignKey(name, layout), id)
        case .refersToAny(let name, let ids): self = .refersToAny(CompiledPredicate.foreignKey(name, layout), ids)
        case .and(let ps): self = .and(ps.map { CompiledPredicate($0, layout: layout) })
        case .or(let ps): self = .or(ps.map { CompiledPredicate($0, layout: layout) })
        case .not(let p): self = .not(CompiledPredicate(p, layout: layout))
        }
    }

    private static func foreignKey(_ name: String, _ layout: EntityLayout) -> Int {
        guard case .foreignKey(let fk) = layout.relationship(named: name).storage else {
            preconditionFailure("'\(layout.name).\(name)' holds no foreign key; write the predicate on the other side")
        }
        return fk
    }
}

// MARK: - In-memory evaluation (SQL's three-valued logic)

extension CompiledPredicate {
    /// true, false, or nil for SQL's "unknown".
    func evaluate(_ row: RowData, resolve: (ObjectID) -> ObjectID) -> Bool? {
        switch self {
        case .constant(let b):
            return b
        case .compare(let field, let op, let value, let collation):
            let v = row.values[field]
            if v.isNull { return nil }
            let c = StoreValue.compare(v, value, collation: collation)
            switch op {
            case .equal: return c == 0
            case .notEqual: return c != 0
            case .less: return c < 0
            case .lessOrEqual: return c <= 0
            case .greater: return c > 0
            case .greaterOrEqual: return c >= 0
            }
        case .isNull(let field):
            return row.values[field].isNull
        case .oneOf(let field, let values):
            if values.isEmpty { return false }
            let v = row.values[field]
            if v.isNull { return nil }
            if values.contains(where: { StoreValue.sqlEquals(v, $0) }) { return true }
            return values.contains(where: \.isNull) ? nil : false
        case .text(let field, let match, let pattern, let ci):
            guard case .text(let text) = row.values[field] else { return row.values[field].isNull ? nil : false }
            return TextMatcher.matches(text, match, pattern, caseInsensitive: ci)
        case .refersTo(let fk, let id):
            let ref = row.refs[fk].map(resolve)
            guard let id else { return ref == nil }
            guard let ref else { return nil }
            return ref == resolve(id)
        case .refersToAny(let fk, let ids):
            if ids.isEmpty { return false }
            guard let ref = row.refs[fk].map(resolve) else { return nil }
            return ids.contains { resolve($0) == ref }
        case .and(let ps):
            var unknown = false
            for p in ps {
                switch p.evaluate(row, resolve: resolve) {
                case false?: return false
                case nil: unknown = true
                case true?: break
                }
            }
            return unknown ? nil : true
        case .or(let ps):
            var unknown = false
            for p in ps {
                switch p.evaluate(row, resolve: resolve) {
                case true?: return true
                case nil: unknown = true
                case false?: break
                }
            }
            return unknown ? nil : false
        case .not(let p):
            return p.evaluate(row, resolve: resolve).map { !$0 }
        }
    }

    /// For predicates of the form `fk == id` / `fk IN ids` (possibly inside an AND): the
    /// foreign key and destinations, so candidates can come from an index.
    var refLookup: (foreignKey: Int, ids: [ObjectID])? {
        switch self {
        case .refersTo(let fk, let id?): return (fk, [id])
        case .refersToAny(let fk, let ids): return (fk, ids)
        case .and(let ps): return ps.lazy.compactMap(\.refLookup).first
        default: return nil
        }
    }
}

// MARK: - SQL

extension CompiledPredicate {
    /// The predicate as an SQL expression over `layout`'s table, appending its arguments.
    func sql(_ layout: EntityLayout, _ arguments: inout [StoreValue], resolve: (ObjectID) -> ObjectID) -> String {
        func column(_ field: Int) -> String { SQL.quote(layout.attributes[field].name) }
        func fkColumn(_ fk: Int) -> String { SQL.quote(layout.foreignKeys[fk].name) }
        func rowID(_ id: ObjectID) -> Int64 { resolve(id).rowID ?? 0 }  // 0 matches no row
        switch self {
        case .constant(let b):
            return b ? "1" : "0"
        case .compare(let field, let op, let value, let collation):
            if collation == .folded, case .text(let text) = value {
                // The value folded here, so the comparison reads the folded index.
                arguments.append(.text(TextFolding.fold(text)))
                return "\(collation.sql(column(field))) \(op.rawValue) ?"
            }
            arguments.append(value)
            return "\(column(field)) \(op.rawValue) \(collation.sql("?"))"
        case .isNull(let field):
            return "\(column(field)) IS NULL"
        case .oneOf(let field, let values):
            arguments.append(contentsOf: values)
            return "\(column(field)) IN (\(Array(repeating: "?", count: values.count).joined(separator: ",")))"
        case .text(let field, let match, let pattern, let ci):
            if ci {
                // Folded both sides, as in memory; a prefix reads a range of the folded index
                // when the attribute has one (the GLOB then only confirms).
                let folded = TextFolding.fold(pattern)
                let expression = "\(TextFolding.sqlFunction)(\(column(field)))"
                arguments.append(.text(TextMatcher.globPattern(match, folded)))
                guard match == .prefix else { return "\(expression) GLOB ?" }
                arguments.append(.text(folded))
                arguments.append(.text(TextFolding.upperBound(ofPrefix: folded)))
                return "(\(expression) GLOB ? AND \(expression) >= ? AND \(expression) < ?)"
            }
            arguments.append(.text(TextMatcher.globPattern(match, pattern)))
            return "\(column(field)) GLOB ?"
        case .refersTo(let fk, let id):
            guard let id else { return "\(fkColumn(fk)) IS NULL" }
            arguments.append(.integer(rowID(id)))
            return "\(fkColumn(fk)) = ?"
        case .refersToAny(let fk, let ids):
            arguments.append(contentsOf: ids.map { .integer(rowID($0)) })
            return "\(fkColumn(fk)) IN (\(Array(repeating: "?", count: ids.count).joined(separator: ",")))"
        case .and(let ps):
            if ps.isEmpty { return "1" }
            return "(" + ps.map { $0.sql(layout, &arguments, resolve: resolve) }.joined(separator: " AND ") + ")"
        case .or(let ps):
            if ps.isEmpty { return "0" }
            return "(" + ps.map { $0.sql(layout, &arguments, resolve: resolve) }.joined(separator: " OR ") + ")"
        case .not(let p):
            return "NOT (" + p.sql(layout, &arguments, resolve: resolve) + ")"
        }
    }
}

// MARK: - Text matching, identical in SQL and in memory

enum TextMatcher {
    static func matches(_ text: String, _ match: ObjectPredicate.TextMatch, _ pattern: String, caseInsensitive: Bool) -> Bool {
        let t = Array((caseInsensitive ? TextFolding.fold(text) : text).utf8)
        let p = Array((caseInsensitive ? TextFolding.fold(pattern) : pattern).utf8)
        switch match {
        case .prefix: return t.starts(with: p)
        case .suffix: return t.count >= p.count && t[(t.count - p.count)...].elementsEqual(p)
        case .contains:
            if p.isEmpty { return true }
            guard t.count >= p.count else { return false }
            for start in 0...(t.count - p.count) where t[start] == p[0] {
                if t[start..<(start + p.count)].elementsEqual(p) { return true }
            }
            return false
        }
    }

    /// A GLOB pattern (case-sensitive) matching `pattern` literally.
    static func globPattern(_ match: ObjectPredicate.TextMatch, _ pattern: String) -> String {
        var escaped = ""
        for c in pattern {
            switch c {
            case "*": escaped += "[*]"
            case "?": escaped += "[?]"
            case "[": escaped += "[[]"
            default: escaped.append(c)
            }
        }
        switch match {
        case .prefix: return escaped + "*"
        case .suffix: return "*" + escaped
        case .contains: return "*" + escaped + "*"
        }
    }
}
