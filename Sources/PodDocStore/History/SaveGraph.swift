import Foundation
internal import GRDB
import PodDocJSON

// MARK: - The save graph

/// Every save a store's content includes, by name, with its parents: the skeleton of the
/// store's history, kept forever (a few bytes a save) even when the retention lets the
/// values of old saves go.
///
/// A save made here is named `<replica>.<sequence>` and has the save before it as parent; a
/// merge has the other copy's newest save as a second parent, and brings the other copy's
/// graph in. A save recorded before the graph existed keeps the name two copies gave it
/// alike (`<save>/<time>/<host>`). So one copy has seen a save of another exactly when the
/// name is in its graph (docs/FORMAT.md, "Save graph").
struct SaveGraph: Sendable {
    /// One save: its name and parents.
    struct Node: Sendable, Hashable {
        let name: String
        let parents: [String]
        /// The merges this save took back, each with the save it stands for instead.
        var takesBack: [Taking] = []
    }

    /// A merge a save took back (an undo of it, a revert to a save before it), and the save
    /// before it in the line of the copy that took it back: below the taking save, the merge
    /// stands for that save, not for what it brought.
    struct Taking: Sendable, Hashable {
        let taken: String
        /// Nil in a graph written before takings named it: the save before the merge in this
        /// store's own line, where the merge is one of its own.
        let instead: String?
    }

    /// Every save, by name: its parents.
    private(set) var parents: [String: [String]]
    /// The saves the store's content includes: every save reached from the head, except the
    /// merges a later save took back (and what only they brought).
    private let reachable: Set<String>
    /// The store's own merges a later save took back.
    private let takenBack: Set<String>
    /// This store's own history rows' saves, by save number (the run's last save for a run).
    private(set) var localSaves: [(save: Int, name: String)]
    /// The newest save: the state the store holds.
    let head: String?
    /// Whether the store's history reaches back to its first save.
    let startsAtFirstSave: Bool

    /// Whether this store's content includes the save `name`.
    func contains(_ name: String) -> Bool { reachable.contains(name) }

    init(
        parents: [String: [String]], localSaves: [(save: Int, name: String)], head: String?, startsAtFirstSave: Bool,
        takesBack: [String: [Taking]] = [:]
    ) {
        self.parents = parents
        self.localSaves = localSaves
        self.head = head
        self.startsAtFirstSave = startsAtFirstSave
        let previous = Dictionary(zip(localSaves.dropFirst().map(\.name), localSaves.map(\.name)), uniquingKeysWith: { first, _ in first })
        var takings: [String: [Taking]] = [:]
        for (name, list) in takesBack {
            takings[name] = list.map { Taking(taken: $0.taken, instead: $0.instead ?? previous[$0.taken]) }
        }
        self.takings = takings
        let local = Set(localSaves.map(\.name))
        takenBack = Set(takings.filter { local.contains($0.key) }.values.joined().map(\.taken))
        takesBackBySave = Dictionary(
            localSaves.compactMap { save, name in takings[name].map { (save, $0.map(\.taken)) } }, uniquingKeysWith: { first, _ in first })
        reachable = Self.reach(from: head, parents: parents, takings: takings)
    }

    /// The saves reached from `head` along the parents. Below a save that took merges back
    /// (in this store's line or in a copy's it merged), each of them stands for the save
    /// before it in the line of the copy that took it back, not for what it brought; reached
    /// along another way (a copy that went on from it), it is a save like any other.
    private static func reach(from head: String?, parents: [String: [String]], takings: [String: [Taking]]) -> Set<String> {
        var reached: Set<String> = []
        // Below no taking (the usual case), a save is visited once; below takings, once for
        // each set of them.
        var visited: Set<String> = []
        var visitedBelowTakings: Set<String> = []
        var stack: [(name: String, instead: [String: String])] = head.map { [($0, [:])] } ?? []
        while let (name, instead) = stack.popLast() {
            if !instead.isEmpty {
                let key = name + "\u{0}" + instead.keys.sorted().joined(separator: "\u{0}")
                guard visitedBelowTakings.insert(key).inserted else { continue }
                if let taken = instead.index(forKey: name) {
                    // (The first save of a line stands for nothing before it.)
                    if !instead[taken].value.isEmpty { stack.append((instead[taken].value, instead)) }
                    continue
                }
                reached.insert(name)
            } else {
                guard visited.insert(name).inserted else { continue }
                reached.insert(name)
            }
            var below = instead
            for taking in takings[name] ?? [] { below[taking.taken] = taking.instead ?? "" }
            for parent in parents[name] ?? [] { stack.append((parent, below)) }
        }
        return reached
    }

    /// Every save's takings back, by the taking save's name.
    private let takings: [String: [Taking]]

    /// By local save: the names of the merges it took back.
    let takesBackBySave: [Int: [String]]

    /// The local saves taken back, by the local save that took each back.
    var takers: [Int: Int] {
        var result: [Int: Int] = [:]
        let saves = Dictionary(localSaves.map { ($0.name, $0.save) }, uniquingKeysWith: max)
        for (taker, names) in takesBackBySave {
            for name in names { if let save = saves[name] { result[save] = taker } }
        }
        return result
    }

    /// The name of local save `save`'s row.
    func name(ofSave save: Int) -> String? { localSaves.first { $0.save == save }?.name }

    /// The newest local save whose name `other` holds: what both copies share for certain.
    func newestLocalSave(heldBy other: SaveGraph) -> Int? {
        localSaves.last { other.contains($0.name) }?.save
    }

    /// The newest save both stores' histories hold as their own (a save one made and the
    /// other took whole, or one made before they parted): the same state in both, by its
    /// number in this store and in `other`.
    func newestSharedSave(with other: SaveGraph) -> (mine: Int, theirs: Int)? {
        let theirs = Dictionary(
            other.localSaves.filter { !other.takenBack.contains($0.name) }.map { ($0.name, $0.save) }, uniquingKeysWith: max)
        for (save, name) in localSaves.reversed() where !takenBack.contains(name) {
            if let found = theirs[name] { return (save, found) }
        }
        return nil
    }

    /// Every node, for another copy to take in.
    var nodes: [Node] {
        parents.map { Node(name: $0.key, parents: $0.value, takesBack: takings[$0.key] ?? []) }.sorted { $0.name < $1.name }
    }

    static let createSQL = """
        CREATE TABLE IF NOT EXISTS _poddoc_graph (node TEXT PRIMARY KEY NOT NULL, parents TEXT NOT NULL, save INTEGER UNIQUE, \
        merge INTEGER NOT NULL DEFAULT 0, takes_back TEXT NOT NULL DEFAULT '[]')
        """
    static let headKey = "graph.head"

    static func exists(_ db: Database) throws -> Bool {
        try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = '_poddoc_graph')") ?? false
    }

    /// Reads the graph; a store written before the graph existed gets the one its history
    /// implies (what ``prepare(_:)`` writes at its next save).
    static func read(_ db: Database) throws -> SaveGraph {
        let history = try legacyNodes(db)
        guard try exists(db) else {
            return SaveGraph(
                parents: Dictionary(history.nodes.map { ($0.name, $0.parents) }, uniquingKeysWith: { first, _ in first }),
                localSaves: history.local, head: history.local.last?.name, startsAtFirstSave: history.startsAtFirstSave)
        }
        var parents: [String: [String]] = [:]
        var local: [(save: Int, name: String)] = []
        var takesBack: [String: [Taking]] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT node, parents, save, takes_back FROM _poddoc_graph") {
            guard let name = row[0] as String?, let list = row[1] as String?, let decoded = decodeParents(list),
                let back = (row[3] as String?).flatMap(decodeTakings)
            else {
                throw StoreError(.corrupt, "The store's save graph holds a row it cannot read; the objects are not affected.")
            }
            parents[name] = decoded
            if let save = row[2] as Int64? { local.append((Int(save), name)) }
            if !back.isEmpty { takesBack[name] = back }
        }
        local.sort { $0.save < $1.save }
        let head = try String.fetchOne(db, sql: "SELECT value FROM _poddoc_store WHERE key = ?", arguments: [headKey])
        if let head, parents[head] == nil {
            throw StoreError(.corrupt, "The store's save graph does not hold its newest save; the objects are not affected.")
        }
        return SaveGraph(
            parents: parents, localSaves: local, head: head ?? local.last?.name, startsAtFirstSave: history.startsAtFirstSave,
            takesBack: takesBack)
    }

    /// The graph a history written before the graph existed implies: each row a save named as
    /// both copies named it, after the row before it; a merge's row after the saves it held.
    private static func legacyNodes(_ db: Database) throws -> (nodes: [Node], local: [(save: Int, name: String)], startsAtFirstSave: Bool) {
        guard try HistoryTable.exists(db) else { return ([], [], true) }
        try HistoryTable.checkColumns(db)
        let first = try Int64.fetchOne(db, sql: "SELECT min(first_save) FROM _poddoc_history")
        let starts = first.map { $0 == 1 } ?? true
        guard !(try exists(db)) else { return ([], [], starts) }
        var states: [Int: SaveNote.State] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT key, value FROM _poddoc_store WHERE key GLOB 'history.state.*'") {
            guard let key = row[0] as String?, let save = Int(key.dropFirst(HistoryTable.stateKeyPrefix.count)),
                let value = row[1] as String?, let state = HistoryTable.decodeState(value)
            else {
                throw StoreError(.corrupt, "The store's history holds a merge record it cannot read; the objects are not affected.")
            }
            states[save] = state
        }
        var nodes: [Node] = []
        var local: [(save: Int, name: String)] = []
        var previous: String?
        var seen: Set<String> = []
        for row in try Row.fetchAll(db, sql: "SELECT save, time, host FROM _poddoc_history ORDER BY save") {
            guard let save = row[0] as Int64?, let time = row[1] as Double?, let host = row[2] as String? else {
                throw StoreError(.corrupt, "The store's history holds a value of the wrong type; the objects are not affected.")
            }
            let state = states[Int(save)]
            let name = state?.identity ?? "\(save)/\(String(time.bitPattern, radix: 16))/\(host)"
            var parents = previous.map { [$0] } ?? []
            for held in state?.holds ?? [] where held != name && !parents.contains(held) {
                parents.append(held)
                if seen.insert(held).inserted { nodes.append(Node(name: held, parents: [])) }
            }
            if seen.insert(name).inserted {
                nodes.append(Node(name: name, parents: parents))
            }
            local.append((Int(save), name))
            previous = name
        }
        // A held save that is also a row: the row's entry wins.
        var byName: [String: Node] = [:]
        for node in nodes where byName[node.name].map({ $0.parents.isEmpty }) ?? true { byName[node.name] = node }
        return (byName.values.sorted { $0.name < $1.name }, local, starts)
    }

    /// Makes the table, with the graph the history implies, before a save records its node.
    static func prepare(_ db: Database) throws {
        guard !(try exists(db)) else { return }
        let legacy = try legacyNodes(db)
        try db.execute(sql: createSQL)
        let saves = Dictionary(legacy.local.map { ($0.name, $0.save) }, uniquingKeysWith: max)
        for node in legacy.nodes {
            try db.execute(
                sql: "INSERT OR IGNORE INTO _poddoc_graph (node, parents, save) VALUES (?, ?, ?)",
                arguments: [node.name, encodeParents(node.parents), saves[node.name]])
        }
        if let head = legacy.local.last?.name { try setHead(db, head) }
    }

    static func setHead(_ db: Database, _ name: String) throws {
        try db.execute(
            sql: "INSERT INTO _poddoc_store (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
            arguments: [headKey, name])
    }

    /// Records the node of a new history row `save`: a save of this replica after the head
    /// (and, for a merge, after the other copy's head too), or the other copy's head itself
    /// when the merge made this store exactly that state.
    static func recordSave(_ db: Database, save: Int64, replica: Replica, merge: SaveNote.MergeRecord?, takesBack: [Int] = []) throws {
        for node in merge?.graph ?? [] {
            try db.execute(
                sql: "INSERT OR IGNORE INTO _poddoc_graph (node, parents, save, takes_back) VALUES (?, ?, NULL, ?)",
                arguments: [node.name, encodeParents(node.parents), encodeTakings(node.takesBack)])
        }
        let head = try String.fetchOne(db, sql: "SELECT value FROM _poddoc_store WHERE key = ?", arguments: [headKey])
        let name: String
        if let merge, merge.takesTheirState, let theirs = merge.theirsHead {
            name = theirs
            try db.execute(sql: "UPDATE _poddoc_graph SET save = ?, merge = 1 WHERE node = ?", arguments: [save, name])
        } else {
            name = "\(replica.id).\(try replica.nextSequence(db))"
            var parents = head.map { [$0] } ?? []
            if let theirs = merge?.theirsHead, !parents.contains(theirs) { parents.append(theirs) }
            var back: [Taking] = []
            for taken in takesBack.sorted() {
                guard let node = try String.fetchOne(db, sql: "SELECT node FROM _poddoc_graph WHERE save = ?", arguments: [taken]) else {
                    continue
                }
                let before = try String.fetchOne(
                    db, sql: "SELECT node FROM _poddoc_graph WHERE save < ? ORDER BY save DESC LIMIT 1", arguments: [taken])
                back.append(Taking(taken: node, instead: before))
            }
            try db.execute(
                sql: "INSERT INTO _poddoc_graph (node, parents, save, merge, takes_back) VALUES (?, ?, ?, ?, ?)",
                arguments: [name, encodeParents(parents), save, merge == nil ? 0 : 1, encodeTakings(back)])
        }
        try setHead(db, name)
    }

    /// A run's row took the number of its newest save: its node follows.
    static func renumberSave(_ db: Database, from old: Int64, to new: Int64) throws {
        guard try exists(db) else { return }
        try db.execute(sql: "UPDATE _poddoc_graph SET save = ? WHERE save = ?", arguments: [new, old])
    }

    /// Keeps the graph of the state after save `save` (a copy cut there): the nodes that
    /// state includes, with save `save`'s node as the head.
    static func cut(_ db: Database, after save: Int) throws {
        guard try exists(db) else { return }
        let graph = try read(db)
        guard let head = graph.localSaves.last(where: { $0.save <= save })?.name else {
            try db.execute(sql: "DELETE FROM _poddoc_graph")
            try db.execute(sql: "DELETE FROM _poddoc_store WHERE key = ?", arguments: [headKey])
            return
        }
        var keep: Set<String> = []
        var stack = [head]
        while let name = stack.popLast() {
            guard keep.insert(name).inserted else { continue }
            stack.append(contentsOf: graph.parents[name] ?? [])
        }
        for name in graph.parents.keys where !keep.contains(name) {
            try db.execute(sql: "DELETE FROM _poddoc_graph WHERE node = ?", arguments: [name])
        }
        try db.execute(sql: "UPDATE _poddoc_graph SET save = NULL WHERE save > ?", arguments: [save])
        try setHead(db, head)
    }

    /// Whether `name` names a save of a replica (`<16 hex digits>.<sequence>`), not one
    /// recorded before replicas existed.
    static func isReplicaSave(_ name: String) -> Bool {
        let parts = name.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count == 16, !parts[1].isEmpty else { return false }
        return parts[0].allSatisfy { (48...57).contains($0) || (97...102).contains($0) } && parts[1].allSatisfy { (48...57).contains($0) }
    }

    static func encodeParents(_ parents: [String]) -> String {
        var json = "["
        for (offset, parent) in parents.enumerated() {
            if offset > 0 { json += "," }
            JSONEscaping.appendQuoted(parent, to: &json)
        }
        return json + "]"
    }

    static func decodeParents(_ json: String) -> [String]? {
        (try? JSONSerialization.jsonObject(with: Data(json.utf8))) as? [String]
    }

    /// `[["<taken>","<instead>"], ...]`; a bare `"<taken>"` (a graph written before takings
    /// named what the merge stands for) stands for the save before it in this store's line.
    static func encodeTakings(_ takings: [Taking]) -> String {
        var json = "["
        for (offset, taking) in takings.enumerated() {
            if offset > 0 { json += "," }
            if let instead = taking.instead {
                json += encodeParents([taking.taken, instead])
            } else {
                JSONEscaping.appendQuoted(taking.taken, to: &json)
            }
        }
        return json + "]"
    }

    static func decodeTakings(_ json: String) -> [Taking]? {
        guard let list = (try? JSONSerialization.jsonObject(with: Data(json.utf8))) as? [Any] else { return nil }
        var takings: [Taking] = []
        for element in list {
            if let taken = element as? String {
                takings.append(Taking(taken: taken, instead: nil))
            } else if let pair = element as? [String], pair.count == 2 {
                takings.append(Taking(taken: pair[0], instead: pair[1]))
            } else {
                return nil
            }
        }
        return takings
    }
}

extension PersistentStore {
    /// The store's save graph (see ``SaveGraph``).
    func saveGraph() throws -> SaveGraph {
        try unsafeRead { try SaveGraph.read($0) }
    }

    /// The saves after save `save` that merged another copy in (its changes, or its whole
    /// state): what a revert to `save` takes back (``SaveNote/takesBack``).
    ///
    /// - Throws: ``StoreError`` when the store cannot be read.
    public func mergeSaves(after save: Int) throws -> [Int] {
        try unsafeRead { db in
            guard try SaveGraph.exists(db) else { return [] }
            return try Int.fetchAll(db, sql: "SELECT save FROM _poddoc_graph WHERE save > ? AND merge = 1 ORDER BY save", arguments: [save])
        }
    }
}
