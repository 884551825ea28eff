import Foundation
internal import GRDB

extension MergePlanner {
    /// After the merge: every object under a parent that exists (an object whose parent is
    /// gone goes where that parent was, keeping its order key, and is noted), and no cycle
    /// (reported as a conflict). Sibling lists need no renumbering: each object's order key
    /// was merged as a value (``SiblingOrder``).
    mutating func keepTree(_ entity: String, _ tree: OrderedTree) throws {
        // This entity's targets, kept apart while the tree is worked on (one dictionary, not two
        // lookups a step), and put back at the end.
        var local = targets.removeValue(forKey: entity) ?? [:]
        defer { targets[entity] = local.isEmpty ? nil : local }
        let layout = model.layout(entity)
        let parentField = layout.attributes.count + layout.foreignKeyIndex[tree.parent]!
        let orderField = layout.attributeIndex(of: tree.order)
        let table = layout.table
        let parentColumn = SQL.quote(tree.parent)
        let orderColumn = SQL.quote(tree.order)

        // The merged parent of an object: its target's, else mine's.
        var mineRows: [Int64: (parent: Int64?, order: Int)] = [:]
        func mineRow(_ id: Int64) throws -> (parent: Int64?, order: Int)? {
            if let known = mineRows[id] { return known }
            let found = try mine.unsafeRead { db in
                try Row.fetchOne(db, sql: "SELECT \(parentColumn), \(orderColumn) FROM \(table) WHERE id = ?", arguments: [id])
            }
            guard let row = found else { return nil }
            let known = (parent: row[0] as Int64?, order: Int(row[1] as Int64? ?? 0))
            mineRows[id] = known
            return known
        }
        func mineParent(_ id: Int64) throws -> Int64?? { try mineRow(id).map { $0.parent } }
        /// Reads the rows of many objects at once (one read, ``PersistentStore/idsPerQuery`` ids a query).
        func preload(_ ids: [Int64]) throws {
            let missing = ids.filter { mineRows[$0] == nil }
            guard !missing.isEmpty else { return }
            try mine.unsafeRead { db in
                for start in stride(from: 0, to: missing.count, by: PersistentStore.idsPerQuery) {
                    let chunk = missing[start..<min(start + PersistentStore.idsPerQuery, missing.count)]
                    let list = chunk.map(String.init).joined(separator: ",")
                    for row in try Row.fetchAll(db, sql: "SELECT id, \(parentColumn), \(orderColumn) FROM \(table) WHERE id IN (\(list))") {
                        mineRows[row[0] as Int64] = (parent: row[1] as Int64?, order: Int(row[2] as Int64? ?? 0))
                    }
                }
            }
        }
        func exists(_ id: Int64) throws -> Bool {
            switch local[id] {
            case .absent?: return false
            case .present?: return true
            case nil: return try mineParent(id) != nil
            }
        }
        func parent(_ id: Int64) throws -> Int64? {
            if case .present(let fields, _)? = local[id], let value = fields[parentField] {
                if case .ref(let ref) = value { return ref?.rowID }
            }
            return try mineParent(id) ?? nil
        }
        /// Gives `id`'s target `value` for `field`, or nothing to write when mine already holds it.
        func set(_ id: Int64, _ field: Int, to value: FieldValue, minesAlike: ((parent: Int64?, order: Int)) -> Bool) throws {
            var fields: [Int: FieldValue] = [:]
            var whole = false
            if case .present(let known, let isWhole)? = local[id] { (fields, whole) = (known, isWhole) }
            if !whole, let row = try mineRow(id), minesAlike(row) {
                fields[field] = nil  // mine's own value: nothing to write
            } else {
                fields[field] = value
            }
            local[id] = fields.isEmpty && !whole ? nil : .present(fields: fields, whole: whole)
        }
        func setParent(_ id: Int64, _ parent: Int64?) throws {
            try set(id, parentField, to: .ref(parent.map { .permanent(entity: entity, rowID: $0) }), minesAlike: { $0.parent == parent })
        }
        func setOrder(_ id: Int64, _ order: Int) throws {
            try set(id, orderField, to: .value(.integer(Int64(order))), minesAlike: { $0.order == order })
        }
        // Where a deleted object was: its parent as each copy last held it (now, or when it
        // deleted it), merged as a value is: the one copy's that moved it; the greater id when
        // both did; else the one both hold (the shared save's when neither holds it). The same
        // whatever order copies merge in.
        func formerParent(_ id: Int64) throws -> Int64? {
            func rowID(_ value: FieldValue?) -> Int64?? {
                if case .ref(let ref)? = value { return .some(ref?.rowID) }
                return nil
            }
            let mineHeld: Int64?? = try mineRow(id).map { $0.parent } ?? rowID(heldMine[entity]?[id]?[parentField])
            let theirsHeld: Int64?? =
                try rowID(Self.rows(theirs, layout, [id])[id].map { $0[field: parentField] })
                ?? rowID(heldTheirs[entity]?[id]?[parentField])
            let mineMoved = mineNew[entity]?[id]?[parentField] != nil
            let theirsMoved = theirsNew[entity]?[id]?[parentField] != nil
            if mineMoved, theirsMoved, let mine = mineHeld, let theirs = theirsHeld {
                let greater = Swift.max(mine ?? 0, theirs ?? 0)
                return greater == 0 ? nil : greater
            }
            if mineMoved, !theirsMoved, let mine = mineHeld { return mine }
            if theirsMoved, !mineMoved, let theirs = theirsHeld { return theirs }
            if let held = theirsHeld ?? mineHeld { return held }
            for past in [pastTheirs[entity]?[id], pastMine[entity]?[id]] {
                if case .present(let fields, _)? = past, let value = rowID(fields[parentField]) { return value }
            }
            return nil
        }

        // Only an object the merge places (a new parent, or made whole) can be left without a
        // parent or close a cycle: every other one keeps mine's parent, and mine's tree has
        // neither. (A cycle holds at least one placed object, so walking up from each finds it.)
        var touched = Set(
            local.compactMap { id, target -> Int64? in
                guard case .present(let fields, let whole) = target, whole || fields[parentField] != nil else { return nil }
                return id
            })
        // Children (in mine) of the objects that go may be left without a parent too.
        let gone = local.compactMap { id, target -> Int64? in
            if case .absent = target { return id }
            return nil
        }
        try mine.unsafeRead { db in
            for id in gone {
                touched.formUnion(try Int64.fetchAll(db, sql: "SELECT id FROM \(table) WHERE \(parentColumn) = ?", arguments: [id]))
            }
        }
        try preload(Array(touched))
        // Orphans: under the nearest surviving ancestor of the parent that is gone.
        for id in touched.sorted() where try exists(id) {
            guard let place = try parent(id), !(try exists(place)) else { continue }
            var seen: Set<Int64> = []
            var found: Int64? = place
            while let node = found, !(try exists(node)) {
                guard seen.insert(node).inserted else {
                    found = nil
                    break
                }
                found = try formerParent(node)
            }
            // No ancestor left: the top level.
            try setParent(id, found)
            self.moved.append(
                MovedObject(objectID: .permanent(entity: entity, rowID: id), parent: found.map { .permanent(entity: entity, rowID: $0) }))
        }
        // Cycles: each copy moved an item under the other's. A conflict; resolved by giving
        // the items on a cycle the preferred copy's places until none is left (the preferred
        // copy's own tree has none).
        var first = true
        while true {
            var cycle: Set<Int64> = []
            for id in touched.sorted() where try exists(id) && !cycle.contains(id) {
                var path: [Int64] = [id]
                var seen: Set<Int64> = [id]
                var current = try parent(id)
                while let node = current {
                    if node == id {
                        cycle.formUnion(path)
                        break
                    }
                    guard seen.insert(node).inserted else { break }  // a cycle elsewhere: found from its own items
                    path.append(node)
                    current = try parent(node)
                }
            }
            let onCycle = cycle.sorted()
            guard !onCycle.isEmpty else { break }
            if first {
                for id in onCycle {
                    let theirsParent = try Self.rows(theirs, layout, [id])[id].flatMap { row -> Int64? in
                        if case .ref(let ref) = row[field: parentField] { return ref?.rowID }
                        return nil
                    }
                    conflicts.append(
                        CopyConflict(
                            kind: .movedIntoEachOther, objectID: .permanent(entity: entity, rowID: id), properties: [tree.parent],
                            mine: [(try mineParent(id) ?? nil).map(StoreValue.integer) ?? .null],
                            theirs: [theirsParent.map(StoreValue.integer) ?? .null]))
                }
                first = false
            }
            guard canApply else { return }
            var switched = false
            for id in onCycle {
                let place: (parent: Int64?, order: Int)?
                if side(entity, id) == .mine {
                    place = try mineRow(id)
                } else {
                    place = try Self.rows(theirs, layout, [id])[id].map { row in
                        var parent: Int64?
                        if case .ref(let ref) = row[field: parentField] { parent = ref?.rowID }
                        var order = 0
                        if case .value(.integer(let value)) = row[field: orderField] { order = Int(value) }
                        return (parent, order)
                    }
                }
                guard let place, try parent(id) != place.parent else { continue }
                try setParent(id, place.parent)
                try setOrder(id, place.order)
                switched = true
            }
            guard switched else { break }
        }
        guard canApply else { return }

    }
}
