import Foundation
internal import GRDB

// MARK: - Merging two copies of one store

/// An entity whose objects form ordered trees (an outline's items): a merge keeps each
/// sibling list numbered 0…n-1, never makes a cycle, and never leaves an object under a
/// parent that is gone.
public struct OrderedTree: Sendable, Hashable {
    /// The entity.
    public let entity: String
    /// The to-one relationship to the parent.
    public let parent: String
    /// The integer attribute holding the position among the siblings.
    public let order: String

    /// Describes an ordered tree.
    public init(entity: String, parent: ToOne, order: Attribute<Int>) {
        self.entity = entity
        self.parent = parent.name
        self.order = order.name
    }
}

/// An attribute that records when its object last changed (an item's `modified`): a merge
/// takes the later of the two copies' values, and a difference in it alone is no conflict.
public struct LatestValue: Sendable, Hashable {
    /// The entity.
    public let entity: String
    /// The date attribute.
    public let attribute: String

    /// Describes one.
    public init(entity: String, attribute: Attribute<Date>) {
        self.entity = entity
        self.attribute = attribute.name
    }
}

/// An object a merge moved on its own: it was under a parent the other copy deleted, and now
/// is under that parent's nearest surviving ancestor.
public struct MovedObject: Sendable, Hashable {
    /// The object.
    public let objectID: ObjectID
    /// Its new parent; nil for the top level (no ancestor was left).
    public let parent: ObjectID?
}

/// Which copy a merge prefers where both changed the same thing.
public enum MergeSide: String, Sendable, Hashable, CaseIterable {
    /// The copy merged into.
    case mine
    /// The copy merged from.
    case theirs
}

/// A change both copies made differently since their common save.
public struct CopyConflict: Sendable, Hashable {
    /// What clashed.
    public enum Kind: String, Sendable, Hashable {
        /// Both copies changed the properties, to different values.
        case bothChanged
        /// Mine changed the object; theirs deleted it.
        case changedHereDeletedThere
        /// Mine deleted the object; theirs changed it.
        case deletedHereChangedThere
        /// Each copy moved an item under the other (or under something the other moved):
        /// taking both would make a cycle.
        case movedIntoEachOther
    }

    /// What clashed.
    public let kind: Kind
    /// The object (in mine's IDs).
    public let objectID: ObjectID
    /// The properties concerned.
    public let properties: [String]
    /// Their values in mine (empty when mine deleted the object); references as row ids.
    public let mine: [StoreValue]
    /// Their values in theirs (empty when theirs deleted the object).
    public let theirs: [StoreValue]
}

/// A merge of one copy of a store into another (``plan(mine:theirs:trees:latest:preferring:choices:)``),
/// worked out from the two histories and applied with ``ObjectContext/apply(_:)`` as one
/// save.
///
/// The copies' common save is the newest state both reached: a save both histories hold, or
/// a merge both made of the same two saves with the same preference. Theirs' changes since
/// then go onto mine property by property: a property only theirs changed takes their value,
/// one both changed to different values is a conflict (as is an object changed on one side
/// and deleted on the other). Objects both inserted since get row ids that do not depend on
/// the direction of the merge (the copy that saved first keeps its ids, the other's objects
/// follow after both copies' highest ids), so merging A into B and B into A without conflicts
/// gives the same rows. A copy that holds the other already (merged it before, or is the one
/// it was copied from) changes nothing; one that the other holds takes the other's content.
public struct CopyMerge: Sendable {
    /// What the merge does.
    public enum Outcome: String, Sendable, Hashable {
        /// Mine holds theirs already: nothing to do.
        case upToDate
        /// Theirs holds mine: mine becomes theirs.
        case fastForward
        /// Both changed since their common save: theirs' changes go onto mine.
        case merged
    }

    /// What the merge does.
    public let outcome: Outcome
    /// The conflicts: with no preference, the merge is refused while there are any; with
    /// one, they were resolved its way.
    public let conflicts: [CopyConflict]
    /// The preference the conflicts were resolved with, if any.
    public let preference: MergeSide?
    /// The resolution of the conflicts of these objects, before ``preference``.
    public let choices: [ObjectID: MergeSide]
    /// Objects the merge moved on its own: their parent was deleted in the other copy.
    public let moved: [MovedObject]
    /// The common save, in mine's history and in theirs'.
    public let commonSave: (mine: Int, theirs: Int)
    /// The state the merge makes, for the history (see ``SaveNote/state``).
    public let state: SaveNote.State
    /// The objects to change, by entity and row id.
    let targets: [String: [Int64: PastState.Object]]

    /// How many objects the merge changes in mine.
    public var changedObjects: Int { targets.values.reduce(0) { $0 + $1.count } }

    /// Whether it can be applied: no conflicts, or a preference that resolved them.
    public var canApply: Bool { conflicts.allSatisfy { choices[$0.objectID] != nil || preference != nil } }
}

extension SaveNote {
    /// The identity of the state a save makes when another copy can reach the same state: a
    /// merge of two saves, which the other copy reaches by merging the same two the other
    /// way. `holds` names every save the state includes that the two copies may not share.
    public struct State: Sendable, Hashable {
        /// The state's identity.
        public var identity: String
        /// The identities of the saves it holds.
        public var holds: [String]

        /// Makes one.
        public init(identity: String, holds: [String]) {
            self.identity = identity
            self.holds = holds
        }
    }
}

// MARK: - Planning

extension CopyMerge {
    /// Works out the merge of `theirs` into `mine`, reading both stores (saved content only:
    /// save mine's edits first).
    ///
    /// - Parameters:
    ///   - mine: The store merged into.
    ///   - theirs: The store merged from: another copy of the same document.
    ///   - trees: The entities that form ordered trees.
    ///   - latest: The attributes that take the later value.
    ///   - preferring: How to resolve conflicts; nil lists them and changes nothing.
    ///   - choices: How to resolve the conflicts of these objects (a shell asks one by one);
    ///     before `preferring`.
    /// - Throws: ``StoreError``: `.notInHistory` when the histories share no save (the
    ///   common one was let go by the retention, or the copies are not of one document);
    ///   `.corrupt` when a history is damaged.
    public static func plan(
        mine: PersistentStore, theirs: PersistentStore, trees: [OrderedTree] = [], latest: [LatestValue] = [], preferring: MergeSide? = nil,
        choices: [ObjectID: MergeSide] = [:]
    ) throws -> CopyMerge {
        let mineLine = try HistoryLine(mine)
        let theirsLine = try HistoryLine(theirs)
        guard let theirsLatest = theirsLine.entries.last else {
            return CopyMerge(
                outcome: .upToDate, conflicts: [], preference: preferring, choices: choices, moved: [], commonSave: (mineLine.latest, 0),
                state: SaveNote.State(identity: "", holds: []), targets: [:])
        }
        if mineLine.reaches(theirsLatest.identity) {
            return CopyMerge(
                outcome: .upToDate, conflicts: [], preference: preferring, choices: choices, moved: [],
                commonSave: (mineLine.latest, theirsLatest.save), state: SaveNote.State(identity: theirsLatest.identity, holds: []),
                targets: [:])
        }
        let common = try commonSave(mineLine, theirsLine)
        let mineChanged = mineLine.entries.contains { $0.save > common.mine }
        guard theirsLine.entries.contains(where: { $0.save > common.theirs }) else {
            // Theirs did nothing since the common save.
            return CopyMerge(
                outcome: .upToDate, conflicts: [], preference: preferring, choices: choices, moved: [], commonSave: common,
                state: SaveNote.State(identity: theirsLatest.identity, holds: []), targets: [:])
        }
        var planner = try Planner(
            mine: mine, theirs: theirs, common: common, latest: (mineLine.latest, theirsLine.latest), trees: trees, latestValues: latest,
            preferring: preferring, choices: choices)
        if !mineChanged || (mineLine.entries.last.map { theirsLine.reaches($0.identity) } ?? true) {
            // Mine did nothing since the common save, or theirs holds everything mine did: mine
            // takes theirs' content (and ids), and is then at theirs' state.
            try planner.takeTheirs()
            let holds = Set(theirsLatest.holds + (mineLine.entries.last.map { [$0.identity] } ?? []))
            return CopyMerge(
                outcome: .fastForward, conflicts: [], preference: preferring, choices: choices, moved: [], commonSave: common,
                state: SaveNote.State(identity: theirsLatest.identity, holds: holds.sorted()), targets: planner.targets)
        }
        let mineFirst = mineLine.entries.first { $0.save > common.mine }
        let theirsFirst = theirsLine.entries.first { $0.save > common.theirs }
        let mineKeepsIDs = mineFirst.map { first in theirsFirst.map { first.precedes($0) } ?? true } ?? false
        try planner.merge(mineKeepsIDs: mineKeepsIDs)
        let mineIdentity = mineLine.entries.last?.identity ?? "0"
        let identities = [mineIdentity, theirsLatest.identity].sorted()
        // How the conflicts were resolved, as whose values won: the same when the other copy
        // merges this way the other way round.
        func winner(_ side: MergeSide?) -> String { side == .mine ? mineIdentity : side == .theirs ? theirsLatest.identity : "none" }
        let preferred =
            planner.conflicts.isEmpty
            ? "none"
            : planner.conflicts.map { "\($0.objectID.entityName)/\($0.objectID.rowID ?? 0)=\(winner(choices[$0.objectID] ?? preferring))" }
                .sorted().joined(separator: ",")
        let identity = "merge:" + HistoryLine.digest(identities.joined(separator: "+") + "|" + preferred)
        let holds = Set(identities + (mineLine.entries.last?.holds ?? []) + theirsLatest.holds)
        return CopyMerge(
            outcome: .merged, conflicts: planner.conflicts, preference: preferring, choices: choices, moved: planner.moved,
            commonSave: common,
            state: SaveNote.State(identity: identity, holds: holds.sorted()), targets: planner.targets)
    }

    /// The newest state both copies reached: mine's newest entry whose identity theirs holds
    /// too; save 0 (the state before either's first save) when both histories start at 1.
    private static func commonSave(_ mine: HistoryLine, _ theirs: HistoryLine) throws -> (mine: Int, theirs: Int) {
        let theirsSaves = Dictionary(theirs.entries.map { ($0.identity, $0.save) }, uniquingKeysWith: max)
        for entry in mine.entries.reversed() {
            if let save = theirsSaves[entry.identity] { return (entry.save, save) }
        }
        if mine.startsAtFirstSave && theirs.startsAtFirstSave { return (0, 0) }
        throw StoreError(
            .notInHistory,
            "The two copies share no save in the history they keep (the common one was let go, or they are not copies of one document), so they cannot be merged."
        )
    }
}

/// A store's history as a merge needs it: each entry's identity (equal in two copies for the
/// same save) and what it holds.
struct HistoryLine {
    struct Entry {
        let save: Int
        let firstSave: Int
        let time: Double
        let host: String
        let identity: String
        let holds: [String]

        /// Whether this entry was saved before `other` (by time, then host): the copy whose
        /// first save since the common one came first keeps its ids.
        func precedes(_ other: Entry) -> Bool {
            (time, host, identity) < (other.time, other.host, other.identity)
        }
    }
    /// Oldest first.
    let entries: [Entry]
    let startsAtFirstSave: Bool
    private let reachable: Set<String>

    var latest: Int { entries.last?.save ?? 0 }

    init(_ store: PersistentStore) throws {
        (entries, startsAtFirstSave) = try store.unsafeRead { db in
            guard try HistoryTable.exists(db) else { return ([], true) }
            try HistoryTable.checkColumns(db)
            var states: [Int: SaveNote.State] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT key, value FROM _poddoc_store WHERE key GLOB 'history.state.*'") {
                guard let key = row[0] as String?, let save = Int(key.dropFirst(HistoryTable.stateKeyPrefix.count)),
                    let value = row[1] as String?, let state = HistoryTable.decodeState(value)
                else {
                    throw StoreError(.corrupt, "The store's history holds a merge record it cannot read; the objects are not affected.")
                }
                states[save] = state
            }
            var entries: [Entry] = []
            for row in try Row.fetchAll(db, sql: "SELECT save, first_save, time, host FROM _poddoc_history ORDER BY save") {
                guard let save = row[0] as Int64?, let first = row[1] as Int64?, let time = row[2] as Double?, let host = row[3] as String?
                else { throw StoreError(.corrupt, "The store's history holds a value of the wrong type; the objects are not affected.") }
                let state = states[Int(save)]
                let identity = state?.identity ?? "\(save)/\(String(time.bitPattern, radix: 16))/\(host)"
                entries.append(
                    Entry(save: Int(save), firstSave: Int(first), time: time, host: host, identity: identity, holds: state?.holds ?? []))
            }
            return (entries, entries.first.map { $0.firstSave == 1 } ?? true)
        }
        reachable = Set(entries.flatMap { [$0.identity] + $0.holds })
    }

    /// Whether this copy's content includes the state `identity` names.
    func reaches(_ identity: String) -> Bool { reachable.contains(identity) }

    /// A 64-bit FNV-1a digest, as hex: a short, stable name for a merge's identity.
    static func digest(_ text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return String(hash, radix: 16)
    }
}

// MARK: - The planner

/// Works out a merge's target values, entity by entity, in mine's row ids.
private struct Planner {
    let mine: PersistentStore
    let theirs: PersistentStore
    let model: ObjectModel
    let trees: [String: OrderedTree]
    private let preferring: MergeSide?
    private let choices: [ObjectID: MergeSide]
    /// What mine's and theirs' saves since the common one changed, with the values before.
    let pastMine: [String: [Int64: PastState.Object]]
    let pastTheirs: [String: [Int64: PastState.Object]]
    var targets: [String: [Int64: PastState.Object]] = [:]
    var conflicts: [CopyConflict] = []
    var moved: [MovedObject] = []
    /// By entity, the fields that take the later value.
    let latest: [String: Set<Int>]

    init(
        mine: PersistentStore, theirs: PersistentStore, common: (mine: Int, theirs: Int), latest: (mine: Int, theirs: Int),
        trees: [OrderedTree], latestValues: [LatestValue],
        preferring: MergeSide?, choices: [ObjectID: MergeSide]
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
        func past(_ store: PersistentStore, _ save: Int, latest: Int) throws -> [String: [Int64: PastState.Object]] {
            save >= latest ? [:] : try store.pastState(after: save).objects
        }
        pastMine = try past(mine, common.mine, latest: latest.mine)
        pastTheirs = try past(theirs, common.theirs, latest: latest.theirs)
    }

    /// Current rows of `ids` in `store`, by row id.
    private func rows(_ store: PersistentStore, _ layout: EntityLayout, _ ids: [Int64]) throws -> [Int64: RowData] {
        let found = try store.rows(for: ids.map { .permanent(entity: layout.name, rowID: $0) }, entity: layout)
        return Dictionary(found.map { ($0.id.rowID!, $0.row) }, uniquingKeysWith: { first, _ in first })
    }

    private var entities: [String] { Set(pastMine.keys).union(pastTheirs.keys).sorted() }

    /// Mine becomes theirs wherever either changed anything since the common save.
    mutating func takeTheirs() throws {
        for entity in entities {
            let layout = model.layout(entity)
            let ids = Set((pastMine[entity] ?? [:]).keys).union((pastTheirs[entity] ?? [:]).keys).sorted()
            let mineRows = try rows(mine, layout, ids)
            let theirsRows = try rows(theirs, layout, ids)
            for id in ids {
                switch (mineRows[id], theirsRows[id]) {
                case (nil, nil): continue
                case (_?, nil): targets[entity, default: [:]][id] = .absent
                case (let m, let t?):
                    guard m.map({ !Self.same($0, t, layout) }) ?? true else { continue }
                    targets[entity, default: [:]][id] = .present(fields: Self.fields(of: t, layout, translate: { $0 }), whole: true)
                }
            }
        }
    }

    /// Theirs' changes onto mine, three ways.
    mutating func merge(mineKeepsIDs: Bool) throws {
        // Objects inserted since the common save, by each copy, in mine's and theirs' ids.
        var mineRowsByEntity: [String: [Int64: RowData]] = [:]
        var theirsRowsByEntity: [String: [Int64: RowData]] = [:]
        var mineMap: [String: [Int64: Int64]] = [:]
        var theirsMap: [String: [Int64: Int64]] = [:]
        var paired: [String: [(mine: Int64, theirs: Int64)]] = [:]
        for entity in entities {
            let layout = model.layout(entity)
            let m = pastMine[entity] ?? [:]
            let t = pastTheirs[entity] ?? [:]
            let ids = Set(m.keys).union(t.keys).sorted()
            let mineRows = try rows(mine, layout, ids)
            let theirsRows = try rows(theirs, layout, ids)
            mineRowsByEntity[entity] = mineRows
            theirsRowsByEntity[entity] = theirsRows
            var mineInserted: [Int64] = []
            var theirsInserted: [Int64] = []
            for id in ids {
                let insertedByMine = Self.isAbsent(m[id])
                let insertedByTheirs = Self.isAbsent(t[id])
                // Both copies had the common state: one cannot have had an object the other did not.
                if (insertedByMine && t[id] != nil && !insertedByTheirs) || (insertedByTheirs && m[id] != nil && !insertedByMine) {
                    throw StoreError(
                        .corrupt,
                        "The two copies' histories disagree about \(entity) \(id) at their common save; one of them was damaged or edited by another program."
                    )
                }
                if insertedByMine && mineRows[id] != nil { mineInserted.append(id) }
                if insertedByTheirs && theirsRows[id] != nil { theirsInserted.append(id) }
            }
            // Objects both copies inserted with the same unique value (a spec imported on both)
            // are one object: it keeps the id of the copy that keeps its ids.
            let uniqueFields = layout.attributes.indices.filter { layout.attributes[$0].isUnique }
            if !uniqueFields.isEmpty && !mineInserted.isEmpty && !theirsInserted.isEmpty {
                var mineByValue: [Int: [StoreValue: Int64]] = [:]
                for id in mineInserted {
                    for field in uniqueFields {
                        if case .value(let value) = mineRows[id]![field: field], !value.isNull {
                            mineByValue[field, default: [:]][value] = id
                        }
                    }
                }
                var pairs: [(mine: Int64, theirs: Int64)] = []
                for id in theirsInserted {
                    let match = uniqueFields.lazy.compactMap { field -> Int64? in
                        guard case .value(let value) = theirsRows[id]![field: field] else { return nil }
                        return mineByValue[field]?[value]
                    }.first
                    if let match, !pairs.contains(where: { $0.mine == match }) { pairs.append((match, id)) }
                }
                if !pairs.isEmpty {
                    let pairedMine = Set(pairs.map(\.mine))
                    let pairedTheirs = Set(pairs.map(\.theirs))
                    mineInserted.removeAll { pairedMine.contains($0) }
                    theirsInserted.removeAll { pairedTheirs.contains($0) }
                    for pair in pairs {
                        if mineKeepsIDs {
                            if pair.theirs != pair.mine { theirsMap[entity, default: [:]][pair.theirs] = pair.mine }
                        } else {
                            if pair.mine != pair.theirs { mineMap[entity, default: [:]][pair.mine] = pair.theirs }
                            targets[entity, default: [:]][pair.mine] = .absent  // takes theirs' id below
                        }
                    }
                    paired[entity] = pairs
                }
            }
            let next = max(
                try mine.unsafeRead { try RowIDSequence.last($0, layout) }, try theirs.unsafeRead { try RowIDSequence.last($0, layout) })
            // The copy that saved first keeps its ids; the other's objects follow after both copies' ids.
            for (offset, id) in (mineKeepsIDs ? theirsInserted : mineInserted).enumerated() {
                if mineKeepsIDs {
                    theirsMap[entity, default: [:]][id] = next + 1 + Int64(offset)
                } else {
                    mineMap[entity, default: [:]][id] = next + 1 + Int64(offset)
                }
            }
            if !mineKeepsIDs {
                for id in mineInserted { targets[entity, default: [:]][id] = .absent }  // renumbered below
            }
            _ = theirsInserted
        }
        func translator(_ map: [String: [Int64: Int64]]) -> (FieldValue) -> FieldValue {
            { value in
                guard case .ref(let ref?) = value, let row = ref.rowID, let mapped = map[ref.entityName]?[row] else { return value }
                return .ref(.permanent(entity: ref.entityName, rowID: mapped))
            }
        }
        let fromMine = translator(mineMap)
        let fromTheirs = translator(theirsMap)

        var orders: [String: [Int64: (value: Int, changedParent: Bool)]] = [:]
        for entity in entities {
            let layout = model.layout(entity)
            let tree = trees[entity]
            let orderField = tree.map { layout.attributeIndex(of: $0.order) }
            let parentField = tree.map { layout.attributes.count + layout.foreignKeyIndex[$0.parent]! }
            let m = pastMine[entity] ?? [:]
            let t = pastTheirs[entity] ?? [:]
            let mineRows = mineRowsByEntity[entity]!
            let theirsRows = theirsRowsByEntity[entity]!
            let pairs = paired[entity] ?? []
            let pairedMine = Set(pairs.map(\.mine))
            let pairedTheirs = Set(pairs.map(\.theirs))
            let later = self.latest[entity] ?? []
            // One object inserted by both: no common value, so any difference is a conflict.
            for pair in pairs {
                let mineRow = mineRows[pair.mine]!
                let theirsRow = theirsRows[pair.theirs]!
                let final = mineKeepsIDs ? pair.mine : pair.theirs
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
                    if mv != tv && field != orderField { clashes.append(field) }
                    chosen[field] = mv != tv && side(entity, final) == .theirs ? tv : mv
                }
                if !clashes.isEmpty {
                    conflicts.append(
                        conflict(
                            .bothChanged, .permanent(entity: entity, rowID: final), layout, clashes, mine: mineRow, theirs: theirsRow))
                }
                if mineKeepsIDs {
                    let changed = chosen.filter { $0.value != mineRow[field: $0.key] }
                    if !changed.isEmpty { targets[entity, default: [:]][pair.mine] = .present(fields: changed, whole: false) }
                } else {
                    targets[entity, default: [:]][pair.theirs] = .present(fields: chosen, whole: true)
                }
            }
            for id in Set(m.keys).union(t.keys).sorted() {
                let insertedByMine = Self.isAbsent(m[id])
                let insertedByTheirs = Self.isAbsent(t[id])
                if insertedByMine || insertedByTheirs {
                    // New objects: theirs' come over; mine's stay (under their new ids).
                    if insertedByTheirs, let row = theirsRows[id], !pairedTheirs.contains(id) {
                        let final = theirsMap[entity]?[id] ?? id
                        targets[entity, default: [:]][final] = .present(
                            fields: Self.fields(of: row, layout, translate: fromTheirs), whole: true)
                        if let orderField, case .value(.integer(let order)) = row[field: orderField] {
                            orders[entity, default: [:]][final] = (Int(order), true)
                        }
                    }
                    if insertedByMine, let row = mineRows[id], !pairedMine.contains(id), let final = mineMap[entity]?[id] {
                        targets[entity, default: [:]][final] = .present(
                            fields: Self.fields(of: row, layout, translate: fromMine), whole: true)
                        if let orderField, case .value(.integer(let order)) = row[field: orderField] {
                            orders[entity, default: [:]][final] = (Int(order), true)
                        }
                    }
                    continue
                }
                // An object of the common state.
                func base(_ field: Int) -> FieldValue? {
                    if case .present(let fields, _)? = t[id], let value = fields[field] { return value }
                    if case .present(let fields, _)? = m[id], let value = fields[field] { return value }
                    return theirsRows[id].map { $0[field: field] } ?? mineRows[id].map { $0[field: field] }
                }
                let objectID = ObjectID.permanent(entity: entity, rowID: id)
                let ordinary = (0..<layout.fieldCount).filter { $0 != orderField && !later.contains($0) }
                switch (mineRows[id], theirsRows[id]) {
                case (nil, nil):
                    continue
                case (let mineRow?, nil):
                    // Theirs deleted it: unless mine changed it since, it goes.
                    let changed = ordinary.filter { field in m[id] != nil && fromMine(mineRow[field: field]) != base(field) }
                    if changed.isEmpty || side(entity, id) == .theirs {
                        targets[entity, default: [:]][id] = .absent
                    } else {
                        // Kept: its references to mine's new objects follow them to their ids.
                        var result: [Int: FieldValue] = [:]
                        for field in 0..<layout.fieldCount where fromMine(mineRow[field: field]) != mineRow[field: field] {
                            result[field] = fromMine(mineRow[field: field])
                        }
                        if !result.isEmpty { targets[entity, default: [:]][id] = .present(fields: result, whole: false) }
                    }
                    if !changed.isEmpty {
                        conflicts.append(conflict(.changedHereDeletedThere, objectID, layout, changed, mine: mineRow, theirs: nil))
                    }
                case (nil, let theirsRow?):
                    // Mine deleted it: unless theirs changed it since, it stays gone.
                    let changed = ordinary.filter { field in t[id] != nil && fromTheirs(theirsRow[field: field]) != base(field) }
                    guard !changed.isEmpty else { continue }
                    conflicts.append(conflict(.deletedHereChangedThere, objectID, layout, changed, mine: nil, theirs: theirsRow))
                    if side(entity, id) == .theirs {
                        targets[entity, default: [:]][id] = .present(
                            fields: Self.fields(of: theirsRow, layout, translate: fromTheirs), whole: true)
                        if let orderField, case .value(.integer(let order)) = theirsRow[field: orderField] {
                            orders[entity, default: [:]][id] = (Int(order), true)
                        }
                    }
                case (let mineRow?, let theirsRow?):
                    var result: [Int: FieldValue] = [:]
                    var clashes: [Int] = []
                    // Where the object's place (parent and position) comes from.
                    enum Place { case both, mine, theirs, neither }
                    var place = Place.neither
                    for field in ordinary {
                        let b = base(field)
                        let mv = fromMine(mineRow[field: field])
                        let tv = fromTheirs(theirsRow[field: field])
                        var chosen = mv
                        if tv != b && mv != tv {
                            if mv == b {
                                chosen = tv
                            } else {
                                clashes.append(field)
                                if side(entity, id) == .theirs { chosen = tv }
                            }
                        }
                        if field == parentField {
                            place =
                                mv != b && tv != b && mv == tv
                                ? .both : chosen == mv && mv != b ? .mine : chosen == tv && tv != b ? .theirs : .neither
                        }
                        if chosen != mineRow[field: field] { result[field] = chosen }
                    }
                    for field in later.sorted() {
                        let mv = mineRow[field: field]
                        let tv = theirsRow[field: field]
                        if case .value(let m) = mv, case .value(let t) = tv, Self.isLater(t, than: m) { result[field] = tv }
                    }
                    if !clashes.isEmpty {
                        conflicts.append(conflict(.bothChanged, objectID, layout, clashes, mine: mineRow, theirs: theirsRow))
                    }
                    if let orderField, case .value(.integer(let mo)) = mineRow[field: orderField],
                        case .value(.integer(let to)) = theirsRow[field: orderField]
                    {
                        let bo: Int64
                        if case .value(.integer(let value))? = base(orderField) { bo = value } else { bo = mo }
                        let order: Int64
                        switch place {
                        case .both: order = min(mo, to)  // moved to the same parent by both
                        case .mine: order = mo
                        case .theirs: order = to
                        case .neither: order = to == bo ? mo : mo == bo ? to : mo == to ? mo : bo + (mo - bo) + (to - bo)
                        }
                        orders[entity, default: [:]][id] = (Int(order), place != .neither)
                        // A new place among the same siblings: the list is numbered again below.
                        if order != mo { result[orderField] = .value(.integer(order)) }
                    }
                    if !result.isEmpty { targets[entity, default: [:]][id] = .present(fields: result, whole: false) }
                }
            }
        }
        guard canApply else { return }
        for (entity, tree) in trees { try keepTree(entity, tree, orders: orders[entity] ?? [:]) }
    }

    private var canApply: Bool { conflicts.allSatisfy { choices[$0.objectID] != nil || preferring != nil } }

    /// How a conflict on this object is resolved: its choice, else the preference.
    private func side(_ entity: String, _ id: Int64) -> MergeSide? {
        choices[.permanent(entity: entity, rowID: id)] ?? preferring
    }

    // MARK: Ordered trees

    /// After the merge: every object under a parent that exists (an object whose parent is
    /// gone goes where that parent was, and is noted), no cycle (reported as a conflict), and
    /// every sibling list touched numbered 0…n-1 by merged position, then id.
    private mutating func keepTree(_ entity: String, _ tree: OrderedTree, orders: [Int64: (value: Int, changedParent: Bool)]) throws {
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
        func setParent(_ id: Int64, _ parent: Int64?) throws {
            var fields: [Int: FieldValue] = [:]
            var whole = false
            if case .present(let known, let isWhole)? = local[id] { (fields, whole) = (known, isWhole) }
            if !whole, let row = try mineRow(id), row.parent == parent {
                fields[parentField] = nil  // mine's own place: nothing to write
            } else {
                fields[parentField] = .ref(parent.map { .permanent(entity: entity, rowID: $0) })
            }
            local[id] = fields.isEmpty && !whole ? nil : .present(fields: fields, whole: whole)
        }
        // Where a deleted object was: its parent in either copy's past or present.
        func formerParent(_ id: Int64) throws -> Int64? {
            for past in [pastTheirs[entity]?[id], pastMine[entity]?[id]] {
                if case .present(let fields, _)? = past, case .ref(let ref)? = fields[parentField] { return ref?.rowID }
            }
            let theirsRow = try rows(theirs, layout, [id])[id]
            if case .ref(let ref)? = theirsRow?[field: parentField] { return ref?.rowID }
            return try mineParent(id) ?? nil
        }

        var touched = Set(local.keys)
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
        var orders = orders
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
                    let theirsParent = try rows(theirs, layout, [id])[id].flatMap { row -> Int64? in
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
                    place = try rows(theirs, layout, [id])[id].map { row in
                        var parent: Int64?
                        if case .ref(let ref) = row[field: parentField] { parent = ref?.rowID }
                        var order = 0
                        if case .value(.integer(let value)) = row[field: orderField] { order = Int(value) }
                        return (parent, order)
                    }
                }
                guard let place, try parent(id) != place.parent else { continue }
                try setParent(id, place.parent)
                orders[id] = (place.order, true)
                switched = true
            }
            guard switched else { break }
        }
        guard canApply else { return }

        // Sibling lists: every parent an object left or joined.
        var parents: Set<Int64?> = []
        var joining: [Int64?: [Int64]] = [:]  // the targets under each parent after the merge
        for id in local.keys {
            parents.insert(try mineParent(id) ?? nil)
            guard try exists(id) else { continue }
            let merged = try parent(id)
            parents.insert(merged)
            joining[merged, default: []].append(id)
        }
        for parentID in parents where try parentID.map(exists) ?? true {
            let current = try mine.unsafeRead { db in
                try Row.fetchAll(db, sql: "SELECT id, \(orderColumn) FROM \(table) WHERE \(parentColumn) IS ?", arguments: [parentID])
                    .map { ($0[0] as Int64, $0[1] as Int64) }
            }
            for (id, order) in current where mineRows[id] == nil { mineRows[id] = (parent: parentID, order: Int(order)) }
            var members: [Int64: Int] = [:]
            for (id, order) in current where try exists(id) && (try parent(id)) == parentID {
                members[id] = orders[id]?.value ?? Int(order)
            }
            for id in joining[parentID] ?? [] {
                let stored = try mineRow(id)?.order
                members[id] = orders[id]?.value ?? members[id] ?? stored ?? Int.max
            }
            let sorted = members.sorted { ($0.value, $0.key) < ($1.value, $1.key) }
            let stored = Dictionary(current, uniquingKeysWith: { first, _ in first })
            for (position, member) in sorted.enumerated() {
                let value = FieldValue.value(.integer(Int64(position)))
                var fields: [Int: FieldValue] = [:]
                var whole = false
                if case .present(let known, let isWhole)? = local[member.key] { (fields, whole) = (known, isWhole) }
                if !whole && fields[orderField] == nil && stored[member.key] == Int64(position) { continue }
                fields[orderField] = value
                local[member.key] = .present(fields: fields, whole: whole)
            }
        }
    }

    // MARK: Helpers

    /// Whether `value` sorts after `other` (dates are reals or integers).
    private static func isLater(_ value: StoreValue, than other: StoreValue) -> Bool {
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

    private static func isAbsent(_ object: PastState.Object?) -> Bool {
        if case .absent? = object { return true }
        return false
    }

    private static func fields(of row: RowData, _ layout: EntityLayout, translate: (FieldValue) -> FieldValue) -> [Int: FieldValue] {
        var fields: [Int: FieldValue] = [:]
        for field in 0..<layout.fieldCount { fields[field] = translate(row[field: field]) }
        return fields
    }

    private static func same(_ a: RowData, _ b: RowData, _ layout: EntityLayout) -> Bool {
        (0..<layout.fieldCount).allSatisfy { a[field: $0] == b[field: $0] }
    }

    private func conflict(
        _ kind: CopyConflict.Kind, _ id: ObjectID, _ layout: EntityLayout, _ fields: [Int], mine: RowData?, theirs: RowData?
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
        return CopyConflict(kind: kind, objectID: id, properties: fields.map(layout.fieldName), mine: values(mine), theirs: values(theirs))
    }
}
