import Foundation
internal import GRDB
import PodDocJSON

// MARK: - What objects held after an earlier save

/// What the objects that later saves changed held right after an earlier save: what a store
/// needs to go back to that save. Read with ``PersistentStore/pastState(after:)`` and applied
/// with ``ObjectContext/revert(to:)``.
///
/// It is made from the history alone, walking back from the newest save: an object a later
/// save inserted did not exist; a property a later save updated held that save's value
/// before; an object a later save deleted held the values recorded with the delete. Objects
/// no later save touched are not in it: they are as they were.
public struct PastState: Sendable {
    /// The origin a merge records for a value it makes its own without changing it (both copies
    /// set it alike): the merge's save, whose name is given only when it is recorded.
    static let thisSave = "."

    /// One object, as it was after the save.
    enum Object: Sendable {
        /// It did not exist.
        case absent
        /// It existed. `fields` holds the fields it held that later saves changed (by field
        /// index: attributes, then foreign keys); `whole` says that every field is there (it
        /// was deleted later, so nothing of it is left now).
        case present(fields: [Int: FieldValue], whole: Bool)
    }

    /// The save whose state this is.
    public let save: Int
    /// The newest save in the history: the current state's.
    public let latestSave: Int
    /// By entity, by row id.
    let objects: [String: [Int64: Object]]
    /// By entity, by row id, by field (-1: the object itself, inserted or deleted): the save
    /// (a ``SaveGraph`` name) that last changed it after save ``save``; filled in for a merge
    /// only.
    let stamps: [String: [Int64: [Int: String]]]
    /// By entity, by row id: every field an object held when a save after ``save`` last
    /// deleted it (the delete met first walking back); filled in for a merge only, which
    /// brings such an object back with its own values when a conflict keeps it.
    var held: [String: [Int64: [Int: FieldValue]]] = [:]
    /// By entity, by row id, for the objects saves after ``save`` inserted: the save (a
    /// ``SaveGraph`` name) that made the object, at the insert met first walking back (for a
    /// merge's insert, the maker it records): the maker of every value no later save changed;
    /// filled in for a merge only.
    var made: [String: [Int64: String]] = [:]

    /// How many objects differ from now (or may: a property may have been changed and
    /// changed back).
    public var objectCount: Int { objects.values.reduce(0) { $0 + $1.count } }
}

extension PersistentStore {
    /// What the objects changed after save `save` held right after it (see ``PastState``).
    ///
    /// - Parameter save: A save number ``history(limit:)`` lists (or one inside a run), or the
    ///   number just before the oldest one kept: the state before it.
    /// - Throws: ``StoreError``: `.notInHistory` when the history does not reach back that far
    ///   (saves let go by the retention, a save that recorded no values before), `.corrupt`
    ///   when an entry does not describe this store's model.
    public func pastState(after save: Int) throws -> PastState {
        try pastState(after: save, stampingWith: nil)
    }

    /// ``pastState(after:)``, with the ``PastState/stamps`` a merge needs when given the
    /// store's save graph (read once by the merge).
    func pastState(after save: Int, stampingWith graph: SaveGraph?) throws -> PastState {
        let stamping = graph != nil
        return try unsafeRead { db in
            guard try HistoryTable.exists(db) else {
                throw StoreError(.notInHistory, "This store keeps no history yet, so it has no earlier saves to go back to.")
            }
            try HistoryTable.checkColumns(db)
            let bounds = try Row.fetchOne(db, sql: "SELECT min(first_save), max(save) FROM _poddoc_history")
            guard let oldest = bounds?[0] as Int64?, let latest = bounds?[1] as Int64? else {
                throw StoreError(.notInHistory, "This store's history is empty, so it has no earlier saves to go back to.")
            }
            guard save >= Int(oldest) - 1 && save <= Int(latest) else {
                throw StoreError(
                    .notInHistory,
                    "Save \(save) is not in this store's history, which goes from save \(oldest - 1) (before save \(oldest)) to save \(latest); `poddoc versions` lists them."
                )
            }
            var rewind = Rewind(model: model, names: try HistoryNames.read(db), stamping: stamping)
            var names: [Int: String] = [:]
            if let graph {
                names = Dictionary(graph.localSaves.map { ($0.save, $0.name) }, uniquingKeysWith: { _, last in last })
                rewind.takers = graph.takers
            }
            let statement = try RawStatement(db, "SELECT save, first_save, changes FROM _poddoc_history WHERE save > ? ORDER BY save DESC")
            statement.bind(.integer(Int64(save)), at: 1)
            defer { statement.reset() }
            var expected = latest
            while try statement.step() {
                guard case .integer(let last) = statement.value(0), case .integer(let first) = statement.value(1),
                    let changes = statement.utf8(2), first <= last
                else { throw Rewind.corrupt("an entry's save numbers or changes are of the wrong type") }
                guard last == expected else {
                    throw StoreError(
                        .notInHistory,
                        "The history lacks save \(expected) (damaged, or written by another program), so the store cannot go back to save \(save)."
                    )
                }
                expected = first - 1
                let lines = changes.split(separator: "\n", omittingEmptySubsequences: false)
                guard lines.count == Int(last - first + 1) else {
                    throw Rewind.corrupt("save \(last) records \(lines.count) saves for \(last - first + 1)")
                }
                // A save inside a run: the run's saves after it are undone, those up to it kept.
                for (offset, line) in lines.enumerated().reversed() where Int(first) + offset > save {
                    try rewind.undo(String(line), save: Int(first) + offset, name: names[Int(last)] ?? "save \(last)")
                }
            }
            rewind.flushTakingBack()
            var state = PastState(save: save, latestSave: Int(latest), objects: rewind.objects, stamps: rewind.stamps)
            state.held = rewind.held
            state.made = rewind.made
            return state
        }
    }
}

/// Walks the history back, save by save, keeping what each object held before.
private struct Rewind {
    let model: ObjectModel
    /// How names the history recorded before a migration read now.
    let names: HistoryNames
    let stamping: Bool
    var objects: [String: [Int64: PastState.Object]] = [:]
    var stamps: [String: [Int64: [Int: String]]] = [:]
    /// What each object held when it was last deleted (while stamping).
    var held: [String: [Int64: [Int: FieldValue]]] = [:]
    /// The save that made each object, for the objects inserted (while stamping).
    var made: [String: [Int64: String]] = [:]
    /// A merge taken back by a later save, by the save that took it back: the two cancel out,
    /// change by change, as if neither had been made (what else the later save changed is its
    /// own change).
    var takers: [Int: Int] = [:]
    /// The changes of saves that took merges back, kept until the merges they took back are
    /// met: by taking-back save, entity, id, field, the stamp.
    private var takingBack: [Int: [String: [Int64: [Int: String]]]] = [:]
    /// The save each stamp came from, while some save takes a merge back.
    private var stampSaves: [String: [Int64: [Int: Int]]] = [:]

    init(model: ObjectModel, names: HistoryNames, stamping: Bool) {
        self.model = model
        self.names = names
        self.stamping = stamping
    }

    /// The field a recorded property name is now: nil when a migration removed it.
    ///
    /// - Throws: ``StoreError`` (`.corrupt`) for a name neither the model nor a migration knows.
    private func field(_ recorded: String, of layout: EntityLayout, save: Int) throws -> Int? {
        let name = names.property(recorded, of: layout.name)
        if let index = (0..<layout.fieldCount).first(where: { layout.fieldName($0) == name }) { return index }
        guard names.isRetired(name, of: layout.name) else {
            throw Self.corrupt("save \(save) names a \(layout.name) property the model lacks")
        }
        return nil
    }

    static func corrupt(_ what: String) -> StoreError {
        StoreError(.corrupt, "The store's history is damaged or written by another program (\(what)); the objects are not affected.")
    }

    /// Takes one save's changes back (one line of `changes`, docs/FORMAT.md "History").
    /// The changes of the saves that took merges back that no change of those merges
    /// cancelled: changes of their own, newer than anything older saves stamped.
    mutating func flushTakingBack() {
        for (taker, byEntity) in takingBack {
            for (entity, objects) in byEntity {
                for (id, fields) in objects {
                    for (field, name) in fields where (stampSaves[entity]?[id]?[field]).map({ $0 < taker }) ?? true {
                        stamps[entity, default: [:]][id, default: [:]][field] = name
                    }
                }
            }
        }
        takingBack = [:]
    }

    mutating func undo(_ line: String, save: Int, name: String) throws {
        var bytes = Array(line.utf8)
        let value: JSONValue
        do {
            value = try bytes.withUnsafeMutableBufferPointer { buffer in
                var scanner = JSONScanner(UnsafeBufferPointer(buffer))
                let value = try scanner.parseValue()
                guard scanner.isAtEnd() else { throw Self.corrupt("text after save \(save)'s changes") }
                return value
            }
        } catch let error as StoreError {
            throw error
        } catch {
            throw Self.corrupt("save \(save)'s changes are not JSON")
        }
        guard case .object(let entities) = value else { throw Self.corrupt("save \(save)'s changes are not an object") }
        for (recorded, changes) in entities {
            let entity = names.entity(recorded)
            guard model.entity(named: entity) != nil else {
                if names.isRetired(entity: entity) { continue }
                throw Self.corrupt("save \(save) names an entity '\(recorded)' the model lacks")
            }
            guard case .object(let members) = changes else { throw Self.corrupt("save \(save)'s \(entity) changes are not an object") }
            try undo(entity, members, save: save, name: name)
        }
    }

    private mutating func undo(_ entity: String, _ members: [(key: String, value: JSONValue)], save: Int, name: String) throws {
        let layout = model.layout(entity)
        func member(_ key: String) -> JSONValue? { members.first { $0.key == key }?.value }
        var objects = self.objects[entity] ?? [:]
        defer { self.objects[entity] = objects }
        var stamps = self.stamps[entity] ?? [:]
        defer { if stamping { self.stamps[entity] = stamps } }
        // Where a merge's values came from; any other save's are its own.
        var origins: [Int64: [Int: String]] = [:]
        if stamping, let recorded = member("origins") {
            guard case .object(let byName) = recorded else { throw Self.corrupt("save \(save)'s \(entity) origins are not an object") }
            for (origin, properties) in byName {
                guard case .object(let list) = properties else { throw Self.corrupt("save \(save)'s \(entity) origins are not an object") }
                for (property, ranges) in list {
                    let field: Int
                    if property == "*" {
                        field = -1
                    } else if let index = try self.field(property, of: layout, save: save) {
                        field = index
                    } else {
                        continue
                    }
                    for id in try Self.ids(ranges, save: save) {
                        origins[id, default: [:]][field] = origin == PastState.thisSave ? name : origin
                    }
                }
            }
        }
        /// The newest change wins: the walk goes from the newest save back.
        let taker = takers.values.contains(save)
        let takenBy = takers[save]
        var takingBack = self.takingBack
        defer { if stamping { self.takingBack = takingBack } }
        var stampSaves = self.stampSaves
        defer { if stamping { self.stampSaves = stampSaves } }
        /// Records this save as the maker of `field` of `id` (or the origin a merge noted);
        /// for an object it `made`, a field with no origin of its own has the object's.
        func stamp(_ id: Int64, _ field: Int, made: Bool = false) {
            guard stamping else { return }
            if taker {
                // Kept until the merge it took back is met (older saves come later).
                if takingBack[save]?[entity]?[id]?[field] == nil {
                    takingBack[save, default: [:]][entity, default: [:]][id, default: [:]][field] = name
                }
                return
            }
            if let takenBy, takingBack[takenBy]?[entity]?[id]?[field] != nil {
                // The merge's change and its taking back cancel out.
                takingBack[takenBy]?[entity]?[id]?[field] = nil
                return
            }
            guard stamps[id]?[field] == nil else { return }
            stamps[id, default: [:]][field] = origins[id]?[field] ?? (made ? origins[id]?[-1] : nil) ?? name
            if !takers.isEmpty { stampSaves[entity, default: [:]][id, default: [:]][field] = save }
        }

        // The objects this save made or deleted, and the fields it updated: the values it
        // recorded as unchanged may have origins alone.
        var wholly: Set<Int64> = []
        var touched: [Int64: FieldSet] = [:]
        // Deleted: it held every recorded value.
        if let deleted = member("deleted") {
            let ids = try Self.ids(deleted, save: save)
            guard case .object(let rows)? = member("deletedRows") else {
                throw StoreError(
                    .notInHistory,
                    "Save \(save) deleted \(entity) objects without recording their values (they gave way to an object with the same unique value), so the store cannot go back before it."
                )
            }
            let (fields, values) = try rowsOf(.object(rows), layout, count: ids.count, save: save)
            // Fields a migration added since: the objects come back with the default.
            let added = Set(0..<layout.fieldCount).subtracting(fields)
            guard added.allSatisfy({ names.isAdded(layout.fieldName($0), of: layout.name) }) else {
                throw Self.corrupt("save \(save)'s deleted \(entity) rows lack fields")
            }
            wholly.formUnion(ids)
            for (offset, id) in ids.enumerated() {
                var whole: [Int: FieldValue] = [:]
                for field in added { whole[field] = layout.defaultRow[field: field] }
                for (column, field) in fields.enumerated() { whole[field] = values[offset][column] }
                objects[id] = .present(fields: whole, whole: true)
                stamp(id, -1)
                if stamping && held[entity]?[id] == nil { held[entity, default: [:]][id] = whole }
            }
        }
        // Updated: the properties held the values before.
        if let updated = member("updated") {
            guard case .array(let groups) = updated else { throw Self.corrupt("save \(save)'s \(entity) updates are not a list") }
            for group in groups {
                guard case .object(let parts) = group, let idsValue = parts.first(where: { $0.key == "ids" })?.value else {
                    throw Self.corrupt("save \(save)'s \(entity) update group is not an object with ids")
                }
                let ids = try Self.ids(idsValue, save: save)
                guard parts.contains(where: { $0.key == "before" }) else {
                    throw StoreError(
                        .notInHistory,
                        "Save \(save) updated \(entity) objects without recording their values before, so the store cannot go back before it."
                    )
                }
                let (fields, values) = try rowsOf(.object(parts), layout, count: ids.count, save: save, valuesKey: "before")
                for (offset, id) in ids.enumerated() {
                    var known: [Int: FieldValue]
                    var whole = false
                    switch objects[id] {
                    case nil: known = [:]
                    case .present(let fields, let isWhole)?: (known, whole) = (fields, isWhole)
                    case .absent?: throw Self.corrupt("save \(save) updated \(entity) \(id), which a later save inserted")
                    }
                    for (column, field) in fields.enumerated() {
                        known[field] = values[offset][column]
                        stamp(id, field)
                        touched[id, default: FieldSet()].insert(field)
                    }
                    objects[id] = .present(fields: known, whole: whole)
                }
            }
        }
        // Inserted: it did not exist.
        if let inserted = member("inserted") {
            for id in try Self.ids(inserted, save: save) {
                wholly.insert(id)
                objects[id] = .absent
                stamp(id, -1)
                if stamping && made[entity]?[id] == nil { made[entity, default: [:]][id] = origins[id]?[-1] ?? name }
                // Every value of an object made is the making's (an object made again, by a
                // revert or an undone delete, holds values newer than any before its delete);
                // a merge's new object may hold values of later saves than its own. A save that
                // takes a merge back puts the object back with the makers it had.
                if taker {
                    for field in (origins[id] ?? [:]).keys where field >= 0 { stamp(id, field) }
                } else {
                    for field in 0..<layout.fieldCount { stamp(id, field, made: true) }
                }
            }
        }
        // Objects a merge kept against the other copy's delete: their being there is its own.
        if let kept = member("kept") {
            for id in try Self.ids(kept, save: save) where !wholly.contains(id) { stamp(id, -1) }
        }
        // Values a merge did not change but whose maker it records (a value both copies held,
        // made by a save of the other's newer than this copy's own).
        for (id, fields) in origins where !wholly.contains(id) {
            for field in fields.keys where field == -1 || touched[id]?.contains(field) != true { stamp(id, field) }
        }
    }

    /// `{"properties": [...], "<valuesKey>": [[...], ...]}` as field indexes and one row of
    /// field values per id.
    private func rowsOf(
        _ value: JSONValue, _ layout: EntityLayout, count: Int, save: Int, valuesKey: String = "values"
    ) throws -> ([Int], [[FieldValue]]) {
        guard case .object(let parts) = value, case .array(let names)? = parts.first(where: { $0.key == "properties" })?.value,
            case .array(let rows)? = parts.first(where: { $0.key == valuesKey })?.value, rows.count == count
        else { throw Self.corrupt("save \(save)'s \(layout.name) values do not match its ids") }
        // A property a migration removed is left out, with its values.
        var recorded: [Int?] = []
        for name in names {
            guard case .string(let name) = name else { throw Self.corrupt("save \(save) names a \(layout.name) property by no name") }
            recorded.append(try field(name, of: layout, save: save))
        }
        let values = try rows.map { row -> [FieldValue] in
            guard case .array(let items) = row, items.count == recorded.count else {
                throw Self.corrupt("save \(save)'s \(layout.name) rows are not \(recorded.count) values each")
            }
            return try zip(recorded, items).compactMap { field, item in
                try field.map { try fieldValue(item, field: $0, layout: layout, save: save) }
            }
        }
        return (recorded.compactMap { $0 }, values)
    }

    /// A recorded value, of the field's kind: an attribute's store value, or a to-one
    /// relationship's destination (by row id).
    private func fieldValue(_ value: JSONValue, field: Int, layout: EntityLayout, save: Int) throws -> FieldValue {
        if field >= layout.attributes.count {
            let destination = layout.foreignKeys[field - layout.attributes.count].destination
            switch value {
            case .null: return .ref(nil)
            case .number(let text):
                guard let row = Int64(text), row > 0 else { throw Self.corrupt("save \(save) holds a reference that is not a row id") }
                return .ref(.permanent(entity: destination, rowID: row))
            default: throw Self.corrupt("save \(save) holds a reference that is not a row id")
            }
        }
        guard let stored = Self.storeValue(value) else {
            throw Self.corrupt("save \(save) holds a \(value.kindName) where a value belongs")
        }
        return .value(stored)
    }

    /// A value written by ``HistoryRecorder/appendJSON(_:to:)``.
    static func storeValue(_ value: JSONValue) -> StoreValue? {
        switch value {
        case .null: return .null
        case .string(let text): return .text(text)
        case .number(let text):
            if !text.contains(where: { $0 == "." || $0 == "e" || $0 == "E" }), let integer = Int64(text) { return .integer(integer) }
            return Double(text).map(StoreValue.real)
        case .object(let members) where members.count == 1:
            switch (members[0].key, members[0].value) {
            case ("real", .string(let text)):
                switch text {
                case "inf": return .real(.infinity)
                case "-inf": return .real(-.infinity)
                case "nan": return .real(.nan)
                default: return nil
                }
            case ("blob", .string(let base64)): return Data(base64Encoded: base64).map(StoreValue.blob)
            default: return nil
            }
        default: return nil
        }
    }

    /// `"1-3,7"` as `[1, 2, 3, 7]`, checked to be increasing. (Read byte by byte: a save of
    /// 100,000 objects lists as many numbers.)
    static func ids(_ value: JSONValue, save: Int) throws -> [Int64] {
        guard case .string(let text) = value else { throw corrupt("save \(save)'s ids are not a string") }
        func notRanges() -> StoreError { corrupt("save \(save)'s ids '\(text.prefix(40))' are not increasing ranges") }
        var ids: [Int64] = []
        var utf8 = text.utf8.makeIterator()
        var byte = utf8.next()
        /// The number at `byte`, and the byte after it.
        func number() throws -> Int64 {
            var value: Int64 = 0
            var digits = 0
            while let digit = byte, digit >= UInt8(ascii: "0"), digit <= UInt8(ascii: "9") {
                guard digits < 18 else { throw notRanges() }
                value = value * 10 + Int64(digit - UInt8(ascii: "0"))
                digits += 1
                byte = utf8.next()
            }
            guard digits > 0 else { throw notRanges() }
            return value
        }
        while byte != nil {
            let low = try number()
            var high = low
            if byte == UInt8(ascii: "-") {
                byte = utf8.next()
                high = try number()
            }
            guard low > 0, ids.last.map({ $0 < low }) ?? true, high >= low, high - low < 100_000_000 else { throw notRanges() }
            if high == low { ids.append(low) } else { ids.append(contentsOf: low...high) }
            guard let separator = byte else { break }
            guard separator == UInt8(ascii: ","), let next = utf8.next() else { throw notRanges() }
            byte = next
        }
        return ids
    }
}
