import Foundation
internal import GRDB

// MARK: - The planner

/// Works out a merge's target values, entity by entity, in row ids (the same in every copy).
struct MergePlanner {
    let mine: PersistentStore
    let theirs: PersistentStore
    let model: ObjectModel
    let trees: [String: OrderedTree]
    let preferring: MergeSide?
    let choices: [ObjectID: MergeSide]
    /// What mine's and theirs' saves since their newest save the other holds changed, with
    /// the values before.
    let pastMine: [String: [Int64: PastState.Object]]
    let pastTheirs: [String: [Int64: PastState.Object]]
    /// What each copy's objects held when it last deleted them since the shared save.
    let heldMine: [String: [Int64: [Int: FieldValue]]]
    let heldTheirs: [String: [Int64: [Int: FieldValue]]]
    /// The save that made each object each copy inserted since the shared save.
    let madeMine: [String: [Int64: String]]
    let madeTheirs: [String: [Int64: String]]
    /// The shared save's name: the maker that stands for every value older than it.
    let sharedSave: String?
    /// The changes each copy made that the other has not seen: by entity, row id, field (-1:
    /// the object itself), the save that made it.
    let mineNew: [String: [Int64: [Int: String]]]
    let theirsNew: [String: [Int64: [Int: String]]]
    /// Every change of each copy since the shared save, seen by the other or not.
    let mineAll: [String: [Int64: [Int: String]]]
    let theirsAll: [String: [Int64: [Int: String]]]
    /// Whether every object of both copies is compared (nothing tells what each changed): an
    /// id both hold is then one object, never two that took one id.
    let comparesEverything: Bool
    let mineGraph: SaveGraph
    let theirsGraph: SaveGraph
    var targets: [String: [Int64: PastState.Object]] = [:]
    var conflicts: [CopyConflict] = []
    var moved: [MovedObject] = []
    /// Where the values taken from theirs came from, for the history.
    var origins: [String: [String: [String: [Int64]]]] = [:]
    /// The objects kept against theirs' delete, for the history.
    var kept: [String: [Int64]] = [:]
    /// By entity, the fields that take the later value.
    let latest: [String: Set<Int>]

    /// A planner from what each copy changed since the shared save (`pastMine`, `pastTheirs`),
    /// or, given `everything`, from stamps standing for every object of each copy.
    init(
        mine: PersistentStore, theirs: PersistentStore, pastMine: PastState?, pastTheirs: PastState?, mineGraph: SaveGraph,
        theirsGraph: SaveGraph, trees: [OrderedTree], latestValues: [LatestValue], preferring: MergeSide?, choices: [ObjectID: MergeSide],
        sharedSave: String? = nil, everything: (mine: [String: [Int64: [Int: String]]], theirs: [String: [Int64: [Int: String]]])? = nil
    ) throws {
        self.mine = mine
        self.theirs = theirs
        model = mine.model
        self.trees = Dictionary(trees.map { ($0.entity, $0) }, uniquingKeysWith: { first, _ in first })
        self.preferring = preferring
        self.choices = choices
        let model = mine.model
        self.latest = Dictionary(
            latestValues.map { ($0.entity, Set([model.layout($0.entity).attributeIndex(of: $0.attribute)])) },
            uniquingKeysWith: { $0.union($1) })
        self.pastMine = pastMine?.objects ?? [:]
        self.pastTheirs = pastTheirs?.objects ?? [:]
        heldMine = pastMine?.held ?? [:]
        heldTheirs = pastTheirs?.held ?? [:]
        madeMine = pastMine?.made ?? [:]
        madeTheirs = pastTheirs?.made ?? [:]
        self.sharedSave = sharedSave
        func unseen(_ stamps: [String: [Int64: [Int: String]]], by graph: SaveGraph) -> [String: [Int64: [Int: String]]] {
            var result: [String: [Int64: [Int: String]]] = [:]
            for (entity, objects) in stamps {
                var kept: [Int64: [Int: String]] = [:]
                kept.reserveCapacity(objects.count)
                for (id, fields) in objects {
                    // (Most often every change of an object is unseen: kept as it is.)
                    if fields.values.allSatisfy({ !graph.contains($0) }) {
                        kept[id] = fields
                        continue
                    }
                    let fresh = fields.filter { !graph.contains($0.value) }
                    if !fresh.isEmpty { kept[id] = fresh }
                }
                if !kept.isEmpty { result[entity] = kept }
            }
            return result
        }
        mineAll = everything?.mine ?? pastMine?.stamps ?? [:]
        theirsAll = everything?.theirs ?? pastTheirs?.stamps ?? [:]
        mineNew = unseen(mineAll, by: theirsGraph)
        theirsNew = unseen(theirsAll, by: mineGraph)
        self.mineGraph = mineGraph
        self.theirsGraph = theirsGraph
        comparesEverything = everything != nil
    }

    /// A planner that knows nothing of what each copy changed: every object of either copy
    /// counts as made by each copy's newest save (`mineName`, `theirsName`), unseen by the
    /// other, so every difference is a conflict and the objects that differ are all there is
    /// to take when mine takes theirs.
    init(
        comparingEverythingOf mine: PersistentStore, _ theirs: PersistentStore, mineName: String, theirsName: String, mineGraph: SaveGraph,
        theirsGraph: SaveGraph, trees: [OrderedTree], latestValues: [LatestValue], preferring: MergeSide?, choices: [ObjectID: MergeSide]
    ) throws {
        var mineStamps: [String: [Int64: [Int: String]]] = [:]
        var theirsStamps: [String: [Int64: [Int: String]]] = [:]
        for entity in mine.model.entities.map(\.name) {
            let table = mine.model.layout(entity).table
            let ids = Set(try mine.unsafeRead { try Int64.fetchAll($0, sql: "SELECT id FROM \(table)") })
                .union(try theirs.unsafeRead { try Int64.fetchAll($0, sql: "SELECT id FROM \(table)") })
            guard !ids.isEmpty else { continue }
            mineStamps[entity] = Dictionary(uniqueKeysWithValues: ids.map { ($0, [-1: mineName]) })
            theirsStamps[entity] = Dictionary(uniqueKeysWithValues: ids.map { ($0, [-1: theirsName]) })
        }
        try self.init(
            mine: mine, theirs: theirs, pastMine: nil, pastTheirs: nil, mineGraph: mineGraph, theirsGraph: theirsGraph, trees: trees,
            latestValues: latestValues, preferring: preferring, choices: choices, everything: (mineStamps, theirsStamps))
    }

    /// How many objects' rows a merge holds at once, of each copy: it works through the
    /// objects either copy changed a slice at a time, so that its memory does not grow with
    /// the size of the change.
    /// (A task-local value, so that a test can make the slices small.)
    @TaskLocal static var rowsAtOnce = 8_192

    /// Current rows of `ids` in `store`, by row id.
    static func rows(_ store: PersistentStore, _ layout: EntityLayout, _ ids: [Int64]) throws -> [Int64: RowData] {
        let found = try store.rows(for: ids.map { .permanent(entity: layout.name, rowID: $0) }, entity: layout)
        return Dictionary(found.map { ($0.id.rowID!, $0.row) }, uniquingKeysWith: { first, _ in first })
    }

    /// Notes that `field` of object `id` (-1: the object) took theirs' value, made by `origin`.
    mutating func took(_ entity: String, _ id: Int64, _ field: Int, from origin: String?, _ layout: EntityLayout) {
        guard let origin else { return }
        origins[entity, default: [:]][origin, default: [:]][field < 0 ? "*" : layout.fieldName(field), default: []].append(id)
    }

    /// The save that made a copy's value of `field` of `id`, as far as the histories tell:
    /// the save that last changed it since the shared save; else the one that made the object
    /// since; else (the value is older) the shared save, which stands for every older maker.
    func maker(mine isMine: Bool, _ entity: String, _ id: Int64, _ field: Int) -> String? {
        let (all, past, made) = isMine ? (mineAll, pastMine, madeMine) : (theirsAll, pastTheirs, madeTheirs)
        if let own = all[entity]?[id]?[field] { return own }
        return Self.isAbsent(past[entity]?[id]) ? made[entity]?[id] ?? all[entity]?[id]?[-1] : sharedSave
    }

    /// The save that made theirs' value of `field` of `id` (-1: the object), when it was
    /// made after the shared save.
    func theirsOrigin(_ entity: String, _ id: Int64, _ field: Int) -> String? {
        Self.origin(theirsAll[entity]?[id] ?? [:], field)
    }

    /// The save that made a value, from its object's stamps: the field's own, else the
    /// object's.
    static func origin(_ stamps: [Int: String], _ field: Int) -> String? { stamps[field] ?? stamps[-1] }

    /// Mine becomes theirs wherever either changed anything since their newest shared saves.
    mutating func takeTheirs() throws {
        // (Theirs' stamps name objects whose values did not change too: one kept against a
        // delete keeps the maker of its keeping.)
        for entity in Set(pastMine.keys).union(pastTheirs.keys).union(theirsAll.keys).sorted() {
            let layout = model.layout(entity)
            let ids = Set((pastMine[entity] ?? [:]).keys).union((pastTheirs[entity] ?? [:]).keys)
                .union((theirsAll[entity] ?? [:]).keys).sorted()
            let mineRows = try Self.rows(mine, layout, ids)
            let theirsRows = try Self.rows(theirs, layout, ids)
            for id in ids {
                switch (mineRows[id], theirsRows[id]) {
                case (nil, nil):
                    // Made and deleted (or brought back and deleted) since: the delete is
                    // theirs', which a copy that made it again has not seen.
                    if let origin = theirsAll[entity]?[id]?[-1], mineAll[entity]?[id]?[-1] != origin {
                        took(entity, id, -1, from: origin, layout)
                    }
                case (_?, nil):
                    targets[entity, default: [:]][id] = .absent
                    took(entity, id, -1, from: theirsOrigin(entity, id, -1), layout)
                case (let m, let t?):
                    // Every value comes with its maker, changed or not: a value both hold that
                    // theirs made since the shared save is theirs' making (mine has taken a
                    // line that overwrote and restored it), newer than mine's.
                    // So does the object itself: one theirs brought back keeps the maker of its
                    // coming back.
                    for field in -1..<layout.fieldCount {
                        guard let origin = theirsOrigin(entity, id, field) else { continue }
                        let differs = field >= 0 && m.map({ $0[field: field] != t[field: field] }) ?? true
                        if m == nil || differs || mineAll[entity]?[id]?[field] != origin {
                            took(entity, id, field, from: origin, layout)
                        }
                    }
                    guard m.map({ !Self.same($0, t, layout) }) ?? true else { continue }
                    targets[entity, default: [:]][id] = .present(fields: Self.fields(of: t, layout, translate: { $0 }), whole: true)
                }
            }
        }
    }

    /// The fields a copy changed unseen by the other: those its unseen saves set (`own`), and,
    /// for an object it made since the shared save (`made`), every field no later save of
    /// its own set (`all`: each of its changes since, seen or not), the making's.
    static func changedFields(_ own: [Int: String], _ all: [Int: String], made: Bool, _ layout: EntityLayout) -> FieldSet {
        var fields = FieldSet()
        for field in own.keys where field >= 0 { fields.insert(field) }
        if made {
            for field in 0..<layout.fieldCount where all[field] == nil { fields.insert(field) }
        }
        return fields
    }

    /// Whether a past object existed at the shared save.
    static func existed(_ object: PastState.Object?) -> Bool {
        if case .present? = object { return true }
        return false
    }

    /// A field's value in a past object, if it records one.
    static func value(_ object: PastState.Object, _ field: Int) -> FieldValue? {
        if case .present(let fields, _) = object { return fields[field] }
        return nil
    }

    var canApply: Bool { conflicts.allSatisfy { choices[$0.objectID] != nil || preferring != nil } }

    /// How a conflict on this object is resolved: its choice, else the preference.
    func side(_ entity: String, _ id: Int64) -> MergeSide? {
        choices[.permanent(entity: entity, rowID: id)] ?? preferring
    }

    // MARK: Helpers

    /// An order key, for comparing two copies' keys (a missing one sorts first).
    static func orderKey(_ value: FieldValue) -> Int64 {
        if case .value(.integer(let key)) = value { return key }
        return .min
    }

    /// Whether `value` sorts after `other` (dates are reals or integers).
    static func isLater(_ value: StoreValue, than other: StoreValue) -> Bool {
        func number(_ value: StoreValue) -> Double? {
            switch value {
            case .real(let v): return v
            case .integer(let v): return Double(v)
            default: return nil
            }
        }
        guard let a = number(value) else { return false }
        return number(other).map { a > $0 } ?? true
    }

    static func isAbsent(_ object: PastState.Object?) -> Bool {
        if case .absent? = object { return true }
        return false
    }

    static func fields(of row: RowData, _ layout: EntityLayout, translate: (FieldValue) -> FieldValue) -> [Int: FieldValue] {
        var fields: [Int: FieldValue] = [:]
        for field in 0..<layout.fieldCount { fields[field] = translate(row[field: field]) }
        return fields
    }

    static func same(_ a: RowData, _ b: RowData, _ layout: EntityLayout) -> Bool {
        (0..<layout.fieldCount).allSatisfy { a[field: $0] == b[field: $0] }
    }

    func conflict(
        _ kind: CopyConflict.Kind, _ id: ObjectID, _ layout: EntityLayout, _ fields: [Int], mine: RowData?, theirs: RowData?,
        placed: [Int64] = []
    ) -> CopyConflict {
        func values(_ row: RowData?) -> [StoreValue] {
            guard let row else { return [] }
            return fields.map { field in
                switch row[field: field] {
                case .value(let value): return value
                case .ref(let ref): return ref?.rowID.map(StoreValue.integer) ?? .null
                }
            }
        }
        return CopyConflict(
            kind: kind, objectID: id, properties: fields.map(layout.fieldName), mine: values(mine), theirs: values(theirs),
            placedUnder: placed.map { .permanent(entity: id.entityName, rowID: $0) })
    }
}
