import Foundation
internal import GRDB

extension MergePlanner {
    /// Theirs' changes mine has not seen onto mine, property by property.
    mutating func merge() throws {
        for entity in Set(mineAll.keys).union(theirsAll.keys).sorted() {
            let layout = model.layout(entity)
            let tree = trees[entity]
            let orderField = tree.map { layout.attributeIndex(of: $0.order) }
            let parentField = tree.map { layout.attributes.count + layout.foreignKeyIndex[$0.parent]! }
            let later = self.latest[entity] ?? []
            let ordinary = (0..<layout.fieldCount).filter { $0 != orderField && !later.contains($0) }
            let mineStamps = mineNew[entity] ?? [:]
            let theirsStamps = theirsNew[entity] ?? [:]
            let mineAllHere = mineAll[entity] ?? [:]
            let theirsAllHere = theirsAll[entity] ?? [:]
            let pastMineHere = pastMine[entity] ?? [:]
            let pastTheirsHere = pastTheirs[entity] ?? [:]
            let ids = Set(mineAllHere.keys).union(theirsAllHere.keys).sorted()
            let theirs = self.theirs
            // The rows of the objects either copy made or placed since, read first: a new object
            // may be one the other copy made too, and one placed under an object the other
            // copy deleted meets that delete. The rest are read a slice at a time below.
            func places(_ stamps: [Int: String]?) -> Bool {
                guard let stamps else { return false }
                return stamps[-1] != nil || parentField.map { stamps[$0] != nil } == true
            }
            let placing = ids.filter { places(mineStamps[$0]) || places(theirsStamps[$0]) }
            let (mineRows, theirsRows) = try bothAtOnce(
                { try Self.rows(mine, layout, placing) }, { try Self.rows(theirs, layout, placing) })

            // Theirs' new objects that mine holds under another id already: one object made
            // on both (the same unique value), kept under the smaller id; or an id both gave
            // (copies made before ids had ranges of their own), theirs' taking a new one.
            var theirsMap: [Int64: Int64] = [:]
            var mineMap: [Int64: Int64] = [:]
            var pairs: [(mine: Int64, theirs: Int64)] = []
            let uniqueFields = layout.attributes.indices.filter { layout.attributes[$0].isUnique }
            let theirsInserted = ids.filter { theirsStamps[$0]?[-1] != nil && theirsRows[$0] != nil }
            if !uniqueFields.isEmpty && !theirsInserted.isEmpty {
                try mine.unsafeRead { db in
                    for id in theirsInserted where mineRows[id] == nil {
                        for field in uniqueFields {
                            guard case .value(let value) = theirsRows[id]![field: field], !value.isNull else { continue }
                            let lookup = try RawStatement(
                                db, "SELECT id FROM \(layout.table) WHERE \(SQL.quote(layout.fieldName(field))) = ?")
                            lookup.bind(value, at: 1)
                            let other = try lookup.step() ? lookup.int64(0) : nil
                            lookup.reset()
                            // Only an object mine made that theirs has not seen: any other, theirs
                            // deleted before making its own.
                            guard let other, other != id, mineStamps[other]?[-1] != nil, !pairs.contains(where: { $0.mine == other }) else {
                                continue
                            }
                            pairs.append((other, id))
                            break
                        }
                    }
                }
            }
            var collided: [Int64] = []
            for id in theirsInserted where !comparesEverything {
                // An id both gave: two objects unless both hold the same values, or the object
                // was there when the copies parted (both put it back). Only saves made before
                // replicas had ids of their own can have given one id twice: since, an id is
                // one object wherever it is (both copies brought it back).
                guard let mineMaker = mineStamps[id]?[-1], let theirsMaker = theirsStamps[id]?[-1],
                    !SaveGraph.isReplicaSave(mineMaker), !SaveGraph.isReplicaSave(theirsMaker)
                else { continue }
                guard Self.isAbsent(pastMine[entity]?[id]) && Self.isAbsent(pastTheirs[entity]?[id]) else { continue }
                if let m = mineRows[id], let t = theirsRows[id], !Self.same(m, t, layout) { collided.append(id) }
            }
            if !collided.isEmpty {
                var next = try mine.unsafeRead { db in try RowIDSequence.last(db, layout, replica: try Replica.recorded(db)) }
                for id in collided {
                    next += 1
                    theirsMap[id] = next
                }
            }
            for pair in pairs {
                if pair.mine < pair.theirs { theirsMap[pair.theirs] = pair.mine } else { mineMap[pair.mine] = pair.theirs }
            }
            func translate(_ map: [Int64: Int64]) -> (FieldValue) -> FieldValue {
                { value in
                    guard case .ref(let ref?) = value, ref.entityName == entity, let row = ref.rowID, let mapped = map[row] else {
                        return value
                    }
                    return .ref(.permanent(entity: entity, rowID: mapped))
                }
            }
            let fromTheirs = translate(theirsMap)
            let fromMine = translate(mineMap)
            let pairedTheirs = Set(pairs.map(\.theirs))
            let pairedMine = Set(pairs.map(\.mine))

            func side(_ id: Int64) -> MergeSide? { self.side(entity, id) }
            func pastValue(_ past: [String: [Int64: PastState.Object]], _ id: Int64, _ field: Int) -> FieldValue? {
                if case .present(let fields, _)? = past[entity]?[id] { return fields[field] }
                return nil
            }

            // One object made on both copies: no common value, so any difference is a conflict.
            for pair in pairs {
                let mineFound = try mineRows[pair.mine] ?? Self.rows(mine, layout, [pair.mine])[pair.mine]
                guard let mineRow = mineFound, let theirsRow = theirsRows[pair.theirs] else { continue }
                let final = min(pair.mine, pair.theirs)
                var chosen: [Int: FieldValue] = [:]
                var clashes: [Int] = []
                for field in 0..<layout.fieldCount {
                    let mv = fromMine(mineRow[field: field])
                    let tv = fromTheirs(theirsRow[field: field])
                    if later.contains(field) {
                        if case .value(let m) = mv, case .value(let t) = tv, Self.isLater(t, than: m) {
                            chosen[field] = tv
                        } else {
                            chosen[field] = mv
                        }
                        continue
                    }
                    if field == orderField {
                        chosen[field] = Self.orderKey(tv) > Self.orderKey(mv) ? tv : mv
                        continue
                    }
                    if mv != tv { clashes.append(field) }
                    chosen[field] = mv != tv && side(final) == .theirs ? tv : mv
                }
                if !clashes.isEmpty {
                    conflicts.append(
                        conflict(.bothChanged, .permanent(entity: entity, rowID: final), layout, clashes, mine: mineRow, theirs: theirsRow))
                }
                if final == pair.mine {
                    let changed = chosen.filter { $0.value != mineRow[field: $0.key] }
                    if !changed.isEmpty { targets[entity, default: [:]][pair.mine] = .present(fields: changed, whole: false) }
                } else {
                    targets[entity, default: [:]][pair.mine] = .absent
                    targets[entity, default: [:]][pair.theirs] = .present(fields: chosen, whole: true)
                    took(entity, pair.theirs, -1, from: theirsOrigin(entity, pair.theirs, -1), layout)
                }
            }
            // Mine's objects that point at an object that took theirs' id follow it.
            if !mineMap.isEmpty {
                for layoutName in model.entities.map(\.name) {
                    let other = model.layout(layoutName)
                    for (index, key) in other.foreignKeys.enumerated() where key.destination == entity {
                        let field = other.attributes.count + index
                        for (old, new) in mineMap {
                            let referring = try mine.unsafeRead { db in
                                try Int64.fetchAll(
                                    db, sql: "SELECT id FROM \(other.table) WHERE \(SQL.quote(key.name)) = ?", arguments: [old])
                            }
                            for id in referring where !Self.isAbsent(targets[layoutName]?[id]) {
                                var fields: [Int: FieldValue] = [:]
                                var whole = false
                                if case .present(let known, let isWhole)? = targets[layoutName]?[id] { (fields, whole) = (known, isWhole) }
                                fields[field] = .ref(.permanent(entity: entity, rowID: new))
                                targets[layoutName, default: [:]][id] = .present(fields: fields, whole: whole)
                            }
                        }
                    }
                }
            }

            /// The items a copy put under each object since the shared save (made there or
            /// moved there) that the other copy has not seen: a delete in the other copy did
            /// not know of them, so it meets them as a change.
            func placedUnder(
                _ rows: [Int64: RowData], _ stamps: [Int64: [Int: String]], _ all: [Int64: [Int: String]]?,
                _ past: [String: [Int64: PastState.Object]], _ translate: (FieldValue) -> FieldValue
            ) -> [Int64: [Int64]] {
                guard let parentField, !comparesEverything else { return [:] }
                var result: [Int64: [Int64]] = [:]
                for (child, fields) in stamps {
                    guard let row = rows[child] else { continue }
                    let made = fields[-1] != nil && Self.isAbsent(past[entity]?[child]) && all?[child]?[parentField] == nil
                    guard fields[parentField] != nil || made else { continue }
                    let placed = translate(row[field: parentField])
                    guard case .ref(let ref?) = placed, let parent = ref.rowID,
                        placed != pastValue(pastTheirs, child, parentField) ?? pastValue(pastMine, child, parentField)
                    else { continue }
                    result[parent, default: []].append(child)
                }
                return result.mapValues { $0.sorted() }
            }
            let minePlacedUnder = placedUnder(mineRows, mineStamps, mineAll[entity], pastMine, fromMine)
            let theirsPlacedUnder = placedUnder(theirsRows, theirsStamps, theirsAll[entity], pastTheirs, fromTheirs)

            for start in stride(from: 0, to: ids.count, by: Self.rowsAtOnce) {
                let slice = Array(ids[start..<min(start + Self.rowsAtOnce, ids.count)])
                // (Freed here, slice by slice: handed to another thread, they would pile up
                // while both cores read the next slices.)
                var (mineRows, theirsRows) = try bothAtOnce(
                    { try Self.rows(mine, layout, slice) }, { try Self.rows(theirs, layout, slice) })
                for id in slice where pairs.isEmpty || (!pairedTheirs.contains(id) && !pairedMine.contains(id)) {
                    let ms = mineStamps[id] ?? [:]
                    let ts = theirsStamps[id] ?? [:]
                    let ma = mineAllHere[id] ?? [:]
                    let ta = theirsAllHere[id] ?? [:]
                    let pm = pastMineHere[id]
                    let pt = pastTheirsHere[id]
                    let objectID = ObjectID.permanent(entity: entity, rowID: id)
                    // Theirs' new object under an id mine gave too: it comes over under a new id.
                    if !theirsMap.isEmpty, let renamed = theirsMap[id], let row = theirsRows[id] {
                        targets[entity, default: [:]][renamed] = .present(
                            fields: Self.fields(of: row, layout, translate: fromTheirs), whole: true)
                        took(entity, renamed, -1, from: ts[-1], layout)
                        theirsRows[id] = nil
                        continue
                    }
                    // An object made since the shared save is new in every field; one brought back
                    // (deleted and put back since) holds what its fields' own saves made.
                    // (An object whose maker alone a save records existed before; comparing
                    // everything, every object counts as made.)
                    // (A field whose own maker a save records holds that maker's value: an object
                    // brought back keeps its values' makers, which the other copy may have seen.)
                    let theirsMadeIt = ts[-1] != nil && (comparesEverything || Self.isAbsent(pt))
                    let mineMadeIt = ms[-1] != nil && (comparesEverything || Self.isAbsent(pm))
                    let theirsChangedFields = Self.changedFields(ts, ta, made: theirsMadeIt, layout)
                    let mineChangedFields = Self.changedFields(ms, ma, made: mineMadeIt, layout)
                    func theirsChanged(_ field: Int) -> Bool { theirsChangedFields.contains(field) }
                    func mineChanged(_ field: Int) -> Bool { mineChangedFields.contains(field) }
                    /// Mine's and theirs' values, property by property: the fields that change in
                    /// mine (noting where theirs' came from) and those both changed.
                    func combine(_ mineRow: RowData, _ theirsRow: RowData) -> (result: [Int: FieldValue], clashes: [Int]) {
                        var result: [Int: FieldValue] = [:]
                        var clashes: [Int] = []
                        enum Place { case both, mine, theirs, neither }
                        var place = Place.neither
                        for field in ordinary {
                            let mv = fromMine(mineRow[field: field])
                            let tv = fromTheirs(theirsRow[field: field])
                            // A change is a save that set the value unseen by the other copy (one
                            // made back too: taken as none, the outcome would depend on the order
                            // copies merge in); over a value mine made that theirs has seen,
                            // theirs' is the newer one whatever it holds.
                            let tc = theirsChanged(field)
                            let mc = mineChanged(field)
                            var chosen = mv
                            if tc && mv != tv {
                                if !mc {
                                    chosen = tv
                                } else {
                                    clashes.append(field)
                                    if side(id) == .theirs { chosen = tv }
                                }
                            } else if tc && mc {
                                // Both set it alike, unseen by each other: the value is this merge's,
                                // newer than both, so a copy that has seen only one of the two meets
                                // the other as a change it has not seen.
                                took(entity, id, field, from: PastState.thisSave, layout)
                            }
                            if field == parentField {
                                place = mc && tc && mv == tv ? .both : chosen == mv && mc ? .mine : chosen == tv && tc ? .theirs : .neither
                            }
                            if chosen != mineRow[field: field] {
                                result[field] = chosen
                                if chosen == tv { took(entity, id, field, from: Self.origin(ta, field), layout) }
                            }
                        }
                        for field in later.sorted() {
                            let mv = mineRow[field: field]
                            let tv = theirsRow[field: field]
                            if case .value(let m) = mv, case .value(let t) = tv, Self.isLater(t, than: m) {
                                result[field] = tv
                                took(entity, id, field, from: Self.origin(ta, field), layout)
                            }
                        }
                        if let orderField {
                            // The order key goes with the place: the key of the side whose move of
                            // the object to another parent the merge took; else the key of the side
                            // that changed it; else (both did) the greater one, which is the same
                            // whatever order copies merge in.
                            let mv = mineRow[field: orderField]
                            let tv = theirsRow[field: orderField]
                            let tc = theirsChanged(orderField)
                            let mc = mineChanged(orderField)
                            var chosen = mv
                            switch place {
                            case .mine: chosen = mv
                            case .theirs: chosen = tv
                            case .both, .neither:
                                if tc && mv != tv && (!mc || Self.orderKey(tv) > Self.orderKey(mv)) { chosen = tv }
                                if tc && mc && mv == tv { took(entity, id, orderField, from: PastState.thisSave, layout) }
                            }
                            if chosen != mv {
                                result[orderField] = chosen
                                took(entity, id, orderField, from: Self.origin(ta, orderField), layout)
                            }
                        }
                        return (result, clashes)
                    }
                    switch (mineRows[id], theirsRows[id]) {
                    case (nil, nil):
                        continue
                    case (nil, let theirsRow?):
                        // Mine deleted it (after the shared save, or, when theirs made or brought
                        // it back since, had it and let it go in a copy it took in): unless theirs
                        // changed it since, it stays gone.
                        let mineDeleted =
                            ms[-1] != nil
                            || (Self.isAbsent(pt) && ta[-1].map(mineGraph.contains) == true)
                        if mineDeleted {
                            let changed = ordinary.filter(theirsChanged)
                            // Theirs brought it back or kept it against a delete since, or put items
                            // under it: a change too.
                            let placed = theirsPlacedUnder[id] ?? []
                            guard !changed.isEmpty || ts[-1] != nil || !placed.isEmpty else { continue }
                            conflicts.append(
                                conflict(.deletedHereChangedThere, objectID, layout, changed, mine: nil, theirs: theirsRow, placed: placed))
                            guard side(id) == .theirs else { continue }
                            // Brought back by the conflict's choice: what mine held when it deleted
                            // it, with theirs' changes over it (theirs' where both changed), each
                            // value with its maker. The object is the one the delete took away: a
                            // copy that has seen the delete and every value deletes it again.
                            let held = heldMine[entity]?[id]
                            var heldRow = theirsRow
                            for (field, value) in held ?? [:] { heldRow[field: field] = value }
                            let (result, _) = combine(heldRow, theirsRow)
                            var fields = Self.fields(of: heldRow, layout, translate: held == nil ? fromTheirs : fromMine)
                            fields.merge(result) { _, chosen in chosen }
                            targets[entity, default: [:]][id] = .present(fields: fields, whole: true)
                            took(entity, id, -1, from: ma[-1] ?? ts[-1] ?? ts.values.first, layout)
                            // Every value's maker, the object's being no maker of its values.
                            for field in 0..<layout.fieldCount where result[field] == nil {
                                took(entity, id, field, from: maker(mine: held != nil, entity, id, field), layout)
                            }
                            continue
                        }
                        guard !ts.isEmpty else { continue }
                        // Theirs' object, new to mine (or brought back by the conflict's choice).
                        targets[entity, default: [:]][id] = .present(
                            fields: Self.fields(of: theirsRow, layout, translate: fromTheirs), whole: true)
                        took(entity, id, -1, from: ts[-1] ?? ts.values.first, layout)
                        for (field, origin) in theirsAll[entity]?[id] ?? [:] where field >= 0 {
                            took(entity, id, field, from: origin, layout)
                        }
                    case (let mineRow?, nil):
                        // Theirs deleted it, or (when mine made or brought it back since) had it and
                        // let it go: unless mine changed it since, it goes. An object brought back
                        // whose maker (the delete) and every value theirs has seen, theirs let go
                        // too, as mine does theirs' (it deleted it again).
                        let theirsDeleted =
                            ts[-1] != nil
                            || (Self.isAbsent(pm) && ma[-1].map(theirsGraph.contains) == true)
                            || (ma[-1] != nil && ms.keys.allSatisfy { $0 == orderField })
                        guard theirsDeleted else { continue }  // mine's new object
                        let changed = ordinary.filter(mineChanged)
                        // Mine brought it back or kept it against a delete since, or put items under
                        // it: a change too.
                        let remade = ms[-1] != nil
                        let placed = minePlacedUnder[id] ?? []
                        let contested = !changed.isEmpty || remade || !placed.isEmpty
                        if !contested || side(id) == .theirs {
                            targets[entity, default: [:]][id] = .absent
                            took(entity, id, -1, from: ts[-1], layout)
                        }
                        if contested {
                            conflicts.append(
                                conflict(.changedHereDeletedThere, objectID, layout, changed, mine: mineRow, theirs: nil, placed: placed))
                            if side(id) == .mine {
                                kept[entity, default: []].append(id)
                                // Kept by the conflict's choice: with the changes theirs made to it
                                // before deleting it (mine's where both changed); the keeping is
                                // the object's, every value keeping its maker.
                                var result: [Int: FieldValue] = [:]
                                if let held = heldTheirs[entity]?[id] {
                                    var heldRow = mineRow
                                    for (field, value) in held { heldRow[field: field] = value }
                                    result = combine(mineRow, heldRow).result
                                    if !result.isEmpty { targets[entity, default: [:]][id] = .present(fields: result, whole: false) }
                                }
                                for field in 0..<layout.fieldCount where result[field] == nil {
                                    took(entity, id, field, from: maker(mine: true, entity, id, field), layout)
                                }
                            }
                        }
                    case (let mineRow?, let theirsRow?):
                        let (result, clashes) = combine(mineRow, theirsRow)
                        if !clashes.isEmpty {
                            conflicts.append(conflict(.bothChanged, objectID, layout, clashes, mine: mineRow, theirs: theirsRow))
                        }
                        if !result.isEmpty { targets[entity, default: [:]][id] = .present(fields: result, whole: false) }
                        // Theirs made it again (brought it back) unseen, over a making mine's has
                        // seen: the object's maker is theirs', as if mine had taken theirs' line.
                        if let remade = ts[-1], ms[-1] == nil { took(entity, id, -1, from: remade, layout) }
                    }
                }
            }
        }
        guard canApply else { return }
        for (entity, tree) in trees { try keepTree(entity, tree) }
    }
}
