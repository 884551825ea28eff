import Foundation
internal import GRDB
import PodDocJSON

// MARK: - Which copy a store is

/// The copy of a document a store is: its replica id, and the range its new objects take
/// their row ids from.
///
/// A store records where it was made or last wrote (this machine and its file's path). A
/// store that finds itself somewhere else when it writes (copied with `cp -r`, `rsync`, a
/// sync tool, or an archive opened on another machine) is a new copy: it takes a new replica
/// id and a new range of row ids before it writes anything, so two copies never give one id
/// to two objects and never name two saves alike. A new store gives ids from 1; a copy's
/// range is drawn at random among 2^21 (two of a handful of copies drawing the same one is
/// about a one-in-a-million chance), as is the range of a store made before ranges existed.
struct Replica: Equatable {
    /// 16 hex digits.
    let id: String
    /// New objects take ids after `base`, up to `base + span`.
    let base: Int64
    /// Where the replica's newest save is noted outside the store, if anywhere.
    var ledger: (any ReplicaLedger)? = nil

    static func == (a: Replica, b: Replica) -> Bool { a.id == b.id && a.base == b.base }

    /// How many ids one replica gives.
    static let span: Int64 = 1 << 32
    /// Ranges start at a multiple of ``span`` below 2^53, so ids stay exact in JSON numbers.
    static let ranges: Int64 = 1 << 21

    static let idKey = "replica.id"
    static let placeKey = "replica.place"
    static let baseKey = "replica.base"
    static let sequenceKey = "replica.sequence"

    /// Whether `id` is one this replica gives.
    func owns(_ id: Int64) -> Bool { id > base && id <= base + Self.span }

    /// The store's replica for a write at `place`; a new one when the store last wrote
    /// elsewhere (or never recorded where), or when `ledger` noted a newer save of its
    /// replica than the store holds: it is then an older version of the store put back at
    /// its place (a `git checkout`, a restored backup), whose next saves must not take the
    /// names and ids the version that went on already gave.
    static func current(_ db: Database, place: String, ledger: (any ReplicaLedger)? = nil) throws -> Replica {
        let values = Dictionary(
            try Row.fetchAll(db, sql: "SELECT key, value FROM _poddoc_store WHERE key IN (?, ?, ?)", arguments: [idKey, placeKey, baseKey])
                .compactMap { row -> (String, String)? in
                    guard let key = row[0] as String?, let value = row[1] as String? else { return nil }
                    return (key, value)
                }, uniquingKeysWith: { first, _ in first })
        if let id = values[idKey], values[placeKey] == place, let base = values[baseKey].flatMap(Int64.init),
            base >= 0, base % span == 0, base < ranges * span
        {
            let noted = ledger?.newestSave(of: id) ?? 0
            if noted <= (try sequence(db)) { return Replica(id: id, base: base, ledger: ledger) }
        }
        var generator = SystemRandomNumberGenerator()
        var replica = try record(db, place: place, base: Int64.random(in: 1..<ranges, using: &generator) * span)
        replica.ledger = ledger
        return replica
    }

    /// The newest save number the store's replica gave.
    private static func sequence(_ db: Database) throws -> Int64 {
        try String.fetchOne(db, sql: "SELECT value FROM _poddoc_store WHERE key = ?", arguments: [sequenceKey]).flatMap(Int64.init) ?? 0
    }

    /// Records a new store's replica: ids from 1.
    static func recordNew(_ db: Database, place: String) throws {
        _ = try record(db, place: place, base: 0)
    }

    private static func record(_ db: Database, place: String, base: Int64) throws -> Replica {
        var generator = SystemRandomNumberGenerator()
        let replica = Replica(id: String(UInt64.random(in: 1...UInt64.max, using: &generator), radix: 16).leftPadded(to: 16), base: base)
        for (key, value) in [(idKey, replica.id), (placeKey, place), (baseKey, String(replica.base)), (sequenceKey, "0")] {
            try db.execute(
                sql: "INSERT INTO _poddoc_store (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                arguments: [key, value])
        }
        return replica
    }

    /// The replica the store last wrote as, without making one (the range starting at 1 when
    /// it recorded none).
    static func recorded(_ db: Database) throws -> Replica {
        let id = try String.fetchOne(db, sql: "SELECT value FROM _poddoc_store WHERE key = ?", arguments: [idKey])
        let base = try String.fetchOne(db, sql: "SELECT value FROM _poddoc_store WHERE key = ?", arguments: [baseKey]).flatMap(Int64.init)
        guard let id, let base, base >= 0, base % span == 0, base < ranges * span else { return Replica(id: "", base: 0) }
        return Replica(id: id, base: base)
    }

    /// The next save number of this replica (each replica counts its own saves), noted in
    /// the ledger.
    func nextSequence(_ db: Database) throws -> Int64 {
        let next = try Self.sequence(db) + 1
        try db.execute(
            sql: "INSERT INTO _poddoc_store (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
            arguments: [Self.sequenceKey, String(next)])
        ledger?.note(next, of: id)
        return next
    }
}

/// Where the copies of stores on one machine note, outside the stores, the newest save each
/// replica made (``PersistentStore/Options/replicaLedger``). A store holding an older save
/// of its replica than noted is an older version put back at its place (a `git checkout` of
/// another branch, a restored backup): before it writes, it takes a new replica identity and
/// id range, so that its saves and objects are never confused with those the version that
/// went on already made.
public protocol ReplicaLedger: Sendable {
    /// The newest save sequence noted for `replica` (16 hex digits), or nil.
    func newestSave(of replica: String) -> Int64?
    /// Notes that `replica` made save `sequence`; called in the save's transaction, before it
    /// commits (a save that then fails leaves a note ahead of the store, which costs only a
    /// new identity at the next write). Best effort: a note that cannot be written is let go.
    func note(_ sequence: Int64, of replica: String)
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
