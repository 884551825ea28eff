import Foundation
internal import GRDB

// MARK: - Merging two copies of one store

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
    /// For a delete against a change: the items the changing copy put under the object (made
    /// there or moved there) that the deleting copy had not seen.
    public var placedUnder: [ObjectID] = []
}

/// A merge of one copy of a store into another (``plan(mine:theirs:trees:latest:preferring:choices:twoWay:base:)``),
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
    /// What the merge's save records beside its changes (pass it in the save's ``SaveNote``).
    public let record: SaveNote.MergeRecord
    /// The objects to change, by entity and row id.
    let targets: [String: [Int64: PastState.Object]]

    /// How many objects the merge changes in mine.
    public var changedObjects: Int { targets.values.reduce(0) { $0 + $1.count } }

    /// Whether it can be applied: no conflicts, or a preference that resolved them.
    public var canApply: Bool { conflicts.allSatisfy { choices[$0.objectID] != nil || preference != nil } }
}

/// A merge's record as a store written before the save graph kept it (`history.state.<save>`):
/// the name both copies gave the merged state, and the saves it held. Read to make the graph
/// of such a store.
extension SaveNote {
    struct State: Sendable, Hashable {
        var identity: String
        var holds: [String]
    }
}

// MARK: - Planning

extension CopyMerge {
    /// Whether `mine` holds everything `theirs` saved (theirs' newest save is in mine's save
    /// graph): merging theirs would change nothing. Reads the two graphs only.
    public static func holdsEverything(of theirs: PersistentStore, in mine: PersistentStore) throws -> Bool {
        guard let head = try theirs.saveGraph().head else { return true }
        return try mine.saveGraph().contains(head)
    }

    /// Works out the merge of `theirs` into `mine`, reading both stores (saved content only:
    /// save mine's edits first).
    ///
    /// The two save graphs say what each copy has seen of the other: each copy's newest save
    /// the other holds is where its changes start, and a change the other copy has seen
    /// (made before that save, or taken in by a merge both copies made) is settled. Theirs'
    /// changes mine has not seen go onto mine property by property; a property both changed
    /// without seeing the other's change, to different values, is a conflict.
    ///
    /// - Parameters:
    ///   - mine: The store merged into.
    ///   - theirs: The store merged from: another copy of the same document.
    ///   - trees: The entities that form ordered trees.
    ///   - latest: The attributes that take the later value.
    ///   - preferring: How to resolve conflicts; nil lists them and changes nothing.
    ///   - choices: How to resolve the conflicts of these objects (a shell asks one by one);
    ///     before `preferring`.
    ///   - twoWay: When the histories share no save in reach, compare every object and make
    ///     every difference a conflict.
    ///   - base: When the histories share no save in reach, a copy of the state the two
    ///     parted from (git's merge base): what each changed is what differs from it.
    /// - Throws: ``StoreError``: `.notInHistory` when the histories share no save in reach
    ///   and neither `twoWay` nor `base` is given (the common save was let go by the
    ///   retention, or the copies are not of one document); `.corrupt` when a history is
    ///   damaged.
    public static func plan(
        mine: PersistentStore, theirs: PersistentStore, trees: [OrderedTree] = [], latest: [LatestValue] = [], preferring: MergeSide? = nil,
        choices: [ObjectID: MergeSide] = [:], twoWay: Bool = false, base: PersistentStore? = nil
    ) throws -> CopyMerge {
        let mineGraph = try mine.saveGraph()
        let theirsGraph = try theirs.saveGraph()
        let mineLatest = mineGraph.localSaves.last?.save ?? 0
        let theirsLatest = theirsGraph.localSaves.last?.save ?? 0
        func nothing(_ common: (mine: Int, theirs: Int)) -> CopyMerge {
            CopyMerge(
                outcome: .upToDate, conflicts: [], preference: preferring, choices: choices, moved: [], commonSave: common,
                record: SaveNote.MergeRecord(theirsHead: nil, takesTheirState: false, graph: [], origins: [:]), targets: [:])
        }
        guard let theirsHead = theirsGraph.head, !mineGraph.contains(theirsHead) else {
            return nothing((mineLatest, theirsLatest))
        }
        // Each copy's changes are read from the newest save both histories hold (the same
        // state in both), so that everything that differs is among them.
        let fromStart = mineGraph.startsAtFirstSave && theirsGraph.startsAtFirstSave
        let shared = mineGraph.newestSharedSave(with: theirsGraph) ?? (fromStart ? (0, 0) : nil)
        var pasts: (mine: PastState?, theirs: PastState?)?
        if let shared {
            do {
                pasts = (
                    try past(mine, after: shared.mine, latest: mineLatest, graph: mineGraph),
                    try past(theirs, after: shared.theirs, latest: theirsLatest, graph: theirsGraph)
                )
            } catch let error as StoreError where error.code == .notInHistory {
                pasts = nil  // the values of the shared save were let go
            }
        }
        let common = (mine: shared?.mine ?? 0, theirs: shared?.theirs ?? 0)
        let imported = theirsGraph.nodes.filter { !mineGraph.contains($0.name) }
        let takesTheirs = mineGraph.head.map(theirsGraph.contains) ?? true
        if pasts == nil, !takesTheirs, let base {
            // No shared save in reach, but a copy of the state the two parted from: what each
            // changed is what differs from it.
            pasts = (
                try PastState(current: mine, base: base, name: mineGraph.head ?? ""),
                try PastState(current: theirs, base: base, name: theirsHead)
            )
        }
        var planner: Planner
        if let pasts {
            planner = try Planner(
                mine: mine, theirs: theirs, pastMine: pasts.mine, pastTheirs: pasts.theirs, mineGraph: mineGraph, theirsGraph: theirsGraph,
                trees: trees, latestValues: latest, preferring: preferring, choices: choices,
                sharedSave: shared.flatMap { shared in mineGraph.localSaves.last { $0.save == shared.mine }?.name })
        } else if takesTheirs || twoWay {
            // Nothing tells what each changed: every object of both is compared, and (two
            // ways) every difference is a conflict.
            planner = try Planner(
                comparingEverythingOf: mine, theirs, mineName: mineGraph.head ?? "", theirsName: theirsHead, mineGraph: mineGraph,
                theirsGraph: theirsGraph, trees: trees, latestValues: latest, preferring: preferring, choices: choices)
        } else {
            let reason =
                shared == nil
                ? "the two copies share no save in the history they keep (or they are not copies of one document)"
                : "the newest save both copies hold is older than the history one of them keeps (its values were let go)"
            throw StoreError(
                .notInHistory,
                "Cannot merge exactly: \(reason). Merge with --two-way: every difference between the copies is then a conflict, resolved with --prefer mine or --prefer theirs (or one by one in the shell)."
            )
        }
        if takesTheirs {
            // Theirs has seen everything mine holds: mine becomes theirs, and is then at
            // theirs' newest save.
            try planner.takeTheirs()
            return CopyMerge(
                outcome: .fastForward, conflicts: [], preference: preferring, choices: choices, moved: [], commonSave: common,
                record: SaveNote.MergeRecord(theirsHead: theirsHead, takesTheirState: true, graph: imported, origins: planner.origins),
                targets: planner.targets)
        }
        try planner.merge()
        return CopyMerge(
            outcome: .merged, conflicts: planner.conflicts, preference: preferring, choices: choices, moved: planner.moved,
            commonSave: common,
            record: SaveNote.MergeRecord(
                theirsHead: theirsHead, takesTheirState: false, graph: imported, origins: planner.origins, kept: planner.kept),
            targets: planner.targets)
    }

    /// What `store`'s saves after `save` changed, with the values before and the saves that
    /// made each change; nothing when `save` is its newest.
    private static func past(_ store: PersistentStore, after save: Int, latest: Int, graph: SaveGraph) throws -> PastState? {
        save >= latest ? nil : try store.pastState(after: save, stampingWith: graph)
    }
}

// MARK: - The planner

/// Works out a merge's target values, entity by entity, in row ids (the same in every copy).
private struct Planner {
    let mine: PersistentStore
    let theirs: PersistentStore
    let model: ObjectModel
    let trees: [String: OrderedTree]
    private let preferring: MergeSide?
    private let choices: [ObjectID: MergeSide]
    /// What mine's and theirs' saves since their newest save the other holds changed, with
    /// the values before.
    let pastMine: [String: [Int64: PastState.Object]]
    let pastTheirs: [String: [Int64: PastState.Object]]
    /// What each copy's objects held when it last deleted them since the shared save.
    let heldMine: [String: [Int64: [Int: FieldValue]]]
    let heldTheirs: [String: [Int64: [Int: FieldValue]]]
    /// The save that made each object each copy inserted since the shared save.
    private let madeMine: [String: [Int64: String]]
    private let madeTheirs: [String: [Int64: String]]
    /// The shared save's name: the maker that stands for every value older than it.
    private let sharedSave: String?
    /// The changes each copy made that the other has not seen: by entity, row id, field (-1:
    /// the object itself), the save that made it.
    private let mineNew: [String: [Int64: [Int: String]]]
    private let theirsNew: [String: [Int64: [Int: String]]]
    /// Every change of each copy since the shared save, seen by the other or not.
    private let mineAll: [String: [Int64: [Int: String]]]
    private let theirsAll: [String: [Int64: [Int: String]]]
    /// Whether every object of both copies is compared (nothing tells what each changed): an
    /// id both hold is then one object, never two that took one id.
    private let comparesEverything: Bool
    private let mineGraph: SaveGraph
    private let theirsGraph: SaveGraph
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
                for (id, fields) in objects {
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

    /// Current rows of `ids` in `store`, by row id.
    private func rows(_ store: PersistentStore, _ layout: EntityLayout, _ ids: [Int64]) throws -> [Int64: RowData] {
        let found = try store.rows(for: ids.map { .permanent(entity: layout.name, rowID: $0) }, entity: layout)
        return Dictionary(found.map { ($0.id.rowID!, $0.row) }, uniquingKeysWith: { first, _ in first })
    }

    /// Notes that `field` of object `id` (-1: the object) took theirs' value, made by `origin`.
    private mutating func took(_ entity: String, _ id: Int64, _ field: Int, from origin: String?, _ layout: EntityLayout) {
        guard let origin else { return }
        origins[entity, default: [:]][origin, default: [:]][field < 0 ? "*" : layout.fieldName(field), default: []].append(id)
    }

    /// The save that made a copy's value of `field` of `id`, as far as the histories tell:
    /// the save that last changed it since the shared save; else the one that made the object
    /// since; else (the value is older) the shared save, which stands for every older maker.
    private func maker(mine isMine: Bool, _ entity: String, _ id: Int64, _ field: Int) -> String? {
        let (all, past, made) = isMine ? (mineAll, pastMine, madeMine) : (theirsAll, pastTheirs, madeTheirs)
        if let own = all[entity]?[id]?[field] { return own }
        return Self.isAbsent(past[entity]?[id]) ? made[entity]?[id] ?? all[entity]?[id]?[-1] : sharedSave
    }

    /// The save that made theirs' value of `field` of `id` (-1: the object), when it was
    /// made after the shared save.
    private func theirsOrigin(_ entity: String, _ id: Int64, _ field: Int) -> String? {
        let stamps = theirsAll[entity]?[id]
        return stamps?[field] ?? stamps?[-1]
    }

    /// Mine becomes theirs wherever either changed anything since their newest shared saves.
    mutating func takeTheirs() throws {
        // (Theirs' stamps name objects whose values did not change too: one kept against a
        // delete keeps the maker of its keeping.)
        for entity in Set(pastMine.keys).union(pastTheirs.keys).union(theirsAll.keys).sorted() {
            let layout = model.layout(entity)
            let ids = Set((pastMine[entity] ?? [:]).keys).union((pastTheirs[entity] ?? [:]).keys)
                .union((theirsAll[entity] ?? [:]).keys).sorted()
            let mineRows = try rows(mine, layout, ids)
            let theirsRows = try rows(theirs, layout, ids)
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
            let ids = Set((mineAll[entity] ?? [:]).keys).union((theirsAll[entity] ?? [:]).keys).sorted()
            let mineRows = try rows(mine, layout, ids)
            var theirsRows = try rows(theirs, layout, ids)

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
                let mineFound = try mineRows[pair.mine] ?? rows(mine, layout, [pair.mine])[pair.mine]
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

            for id in ids where !pairedTheirs.contains(id) && !pairedMine.contains(id) {
                let ms = mineStamps[id] ?? [:]
                let ts = theirsStamps[id] ?? [:]
                let objectID = ObjectID.permanent(entity: entity, rowID: id)
                // Theirs' new object under an id mine gave too: it comes over under a new id.
                if let renamed = theirsMap[id], let row = theirsRows[id] {
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
                let theirsMadeIt = ts[-1] != nil && (comparesEverything || Self.isAbsent(pastTheirs[entity]?[id]))
                let mineMadeIt = ms[-1] != nil && (comparesEverything || Self.isAbsent(pastMine[entity]?[id]))
                func theirsChanged(_ field: Int) -> Bool { ts[field] != nil || (theirsMadeIt && theirsAll[entity]?[id]?[field] == nil) }
                func mineChanged(_ field: Int) -> Bool { ms[field] != nil || (mineMadeIt && mineAll[entity]?[id]?[field] == nil) }
                // What the object held at the shared save, when either copy changed it since.
                func base(_ field: Int) -> FieldValue? { pastValue(pastTheirs, id, field) ?? pastValue(pastMine, id, field) }
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
                            if chosen == tv { took(entity, id, field, from: theirsOrigin(entity, id, field), layout) }
                        }
                    }
                    for field in later.sorted() {
                        let mv = mineRow[field: field]
                        let tv = theirsRow[field: field]
                        if case .value(let m) = mv, case .value(let t) = tv, Self.isLater(t, than: m) {
                            result[field] = tv
                            took(entity, id, field, from: theirsOrigin(entity, id, field), layout)
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
                            took(entity, id, orderField, from: theirsOrigin(entity, id, orderField), layout)
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
                        || (Self.isAbsent(pastTheirs[entity]?[id]) && theirsAll[entity]?[id]?[-1].map(mineGraph.contains) == true)
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
                        took(entity, id, -1, from: mineAll[entity]?[id]?[-1] ?? ts[-1] ?? ts.values.first, layout)
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
                    for (field, origin) in theirsAll[entity]?[id] ?? [:] where field >= 0 { took(entity, id, field, from: origin, layout) }
                case (let mineRow?, nil):
                    // Theirs deleted it, or (when mine made or brought it back since) had it and
                    // let it go: unless mine changed it since, it goes. An object brought back
                    // whose maker (the delete) and every value theirs has seen, theirs let go
                    // too, as mine does theirs' (it deleted it again).
                    let theirsDeleted =
                        ts[-1] != nil
                        || (Self.isAbsent(pastMine[entity]?[id]) && mineAll[entity]?[id]?[-1].map(theirsGraph.contains) == true)
                        || (mineAll[entity]?[id]?[-1] != nil && ms.keys.allSatisfy { $0 == orderField })
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
        guard canApply else { return }
        for (entity, tree) in trees { try keepTree(entity, tree) }
    }

    /// Whether a past object existed at the shared save.
    private static func existed(_ object: PastState.Object?) -> Bool {
        if case .present? = object { return true }
        return false
    }

    /// A field's value in a past object, if it records one.
    private static func value(_ object: PastState.Object, _ field: Int) -> FieldValue? {
        if case .present(let fields, _) = object { return fields[field] }
        return nil
    }

    private var canApply: Bool { conflicts.allSatisfy { choices[$0.objectID] != nil || preferring != nil } }

    /// How a conflict on this object is resolved: its choice, else the preference.
    private func side(_ entity: String, _ id: Int64) -> MergeSide? {
        choices[.permanent(entity: entity, rowID: id)] ?? preferring
    }

    // MARK: Ordered trees

    /// After the merge: every object under a parent that exists (an object whose parent is
    /// gone goes where that parent was, keeping its order key, and is noted), and no cycle
    /// (reported as a conflict). Sibling lists need no renumbering: each object's order key
    /// was merged as a value (``SiblingOrder``).
    private mutating func keepTree(_ entity: String, _ tree: OrderedTree) throws {
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
                try rowID(rows(theirs, layout, [id])[id].map { $0[field: parentField] }) ?? rowID(heldTheirs[entity]?[id]?[parentField])
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
                try setOrder(id, place.order)
                switched = true
            }
            guard switched else { break }
        }
        guard canApply else { return }

    }

    // MARK: Helpers

    /// An order key, for comparing two copies' keys (a missing one sorts first).
    private static func orderKey(_ value: FieldValue) -> Int64 {
        if case .value(.integer(let key)) = value { return key }
        return .min
    }

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
