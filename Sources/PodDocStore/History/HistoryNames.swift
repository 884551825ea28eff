import Foundation
internal import GRDB

/// How the names a store's history recorded read under the model the store has now: what
/// its migrations renamed, removed and added (`_poddoc_store` key `model.past`, JSON). Saves
/// made before a migration still take back, show and merge: a renamed attribute's values
/// under its new name, a removed one's left out, an added one's default for the objects an
/// older save deleted.
struct HistoryNames: Codable, Equatable, Sendable {
    /// Earlier names, `Entity` or `Entity.property` (the entity by its name now), to the name
    /// they had after the migration that renamed them.
    var renamed: [String: String] = [:]
    /// Entities (`Entity`) and properties (`Entity.property`) migrations removed.
    var retired: Set<String> = []
    /// Properties (`Entity.property`) migrations added: saves before them do not record them.
    var added: Set<String> = []

    static let key = "model.past"

    /// The record a store keeps; empty when it keeps none (or one this version cannot read:
    /// the history then reads as the model has it, and names no model has are damage).
    static func read(_ db: Database) throws -> HistoryNames {
        guard let json = try String.fetchOne(db, sql: "SELECT value FROM _poddoc_store WHERE key = ?", arguments: [key]) else {
            return HistoryNames()
        }
        return (try? JSONDecoder().decode(HistoryNames.self, from: Data(json.utf8))) ?? HistoryNames()
    }

    func write(_ db: Database) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let json = String(decoding: try encoder.encode(self), as: UTF8.self)
        try db.execute(
            sql: "INSERT INTO _poddoc_store (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
            arguments: [Self.key, json])
    }

    /// Follows renames from `name` to the newest one (a chain across migrations).
    private func newest(_ name: String, prefix: String = "") -> String {
        var current = name
        for _ in 0..<64 {
            guard let next = renamed[prefix + current] else { break }
            current = next
        }
        return current
    }

    /// An entity's name now.
    func entity(_ name: String) -> String { newest(name) }

    /// A property's name now, of an entity named as it is now.
    func property(_ name: String, of entity: String) -> String { newest(name, prefix: entity + ".") }

    /// Whether migrations removed the entity (named as it is now).
    func isRetired(entity: String) -> Bool { retired.contains(entity) }

    /// Whether migrations removed the property (named as it is now).
    func isRetired(_ property: String, of entity: String) -> Bool { retired.contains(entity + "." + property) }

    /// Whether a migration added the property after older saves were made.
    func isAdded(_ property: String, of entity: String) -> Bool { added.contains(entity + "." + property) }

    // MARK: - Recording a migration

    /// An entity took a new name: what is kept under the old one moves.
    mutating func renameEntity(_ old: String, to new: String) {
        let prefix = old + "."
        func moved(_ key: String) -> String { key.hasPrefix(prefix) ? new + "." + key.dropFirst(prefix.count) : key }
        renamed = Dictionary(renamed.map { (moved($0.key), $0.value) }, uniquingKeysWith: { _, last in last })
        retired = Set(retired.map(moved))
        added = Set(added.map(moved))
        renamed[old] = new
    }

    mutating func renameProperty(_ old: String, to new: String, of entity: String) {
        renamed[entity + "." + old] = new
    }

    mutating func retire(_ property: String, of entity: String) {
        retired.insert(entity + "." + property)
        added.remove(entity + "." + property)
    }

    mutating func retire(entity: String) {
        retired.insert(entity)
    }

    mutating func add(_ property: String, of entity: String) {
        added.insert(entity + "." + property)
        retired.remove(entity + "." + property)
    }
}
