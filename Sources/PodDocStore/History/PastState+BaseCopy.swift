import Foundation
internal import GRDB
import PodDocJSON

// MARK: - What a copy changed since a base copy

extension PastState {
    /// What the objects `current` holds differently from `base` held in `base`, as if every
    /// difference were one save named `name` made after `base`: for a merge of two copies
    /// whose histories share no save in reach, given a third copy of the state they parted
    /// from (git's merge base). Reads every row of both stores.
    init(current: PersistentStore, base: PersistentStore, name: String) throws {
        var objects: [String: [Int64: Object]] = [:]
        var stamps: [String: [Int64: [Int: String]]] = [:]
        for entity in current.model.entities.map(\.name) {
            let layout = current.model.layout(entity)
            func rows(_ store: PersistentStore) throws -> [Int64: RowData] {
                let read = try store.readRows("SELECT \(store.selectList(layout)) FROM \(layout.table)", [], layout: layout)
                return Dictionary(read.map { ($0.id.rowID!, $0.row) }, uniquingKeysWith: { first, _ in first })
            }
            let now = try rows(current)
            let then = try rows(base)
            var past: [Int64: Object] = [:]
            var made: [Int64: [Int: String]] = [:]
            for (id, row) in then {
                guard let changed = now[id] else {
                    // Deleted since: it held every value.
                    past[id] = .present(
                        fields: Dictionary(uniqueKeysWithValues: (0..<layout.fieldCount).map { ($0, row[field: $0]) }), whole: true)
                    made[id] = [-1: name]
                    continue
                }
                let fields = (0..<layout.fieldCount).filter { row[field: $0] != changed[field: $0] }
                guard !fields.isEmpty else { continue }
                past[id] = .present(fields: Dictionary(uniqueKeysWithValues: fields.map { ($0, row[field: $0]) }), whole: false)
                made[id] = Dictionary(uniqueKeysWithValues: fields.map { ($0, name) })
            }
            for id in now.keys where then[id] == nil {
                past[id] = .absent
                made[id] = [-1: name]
            }
            if !past.isEmpty {
                objects[entity] = past
                stamps[entity] = made
            }
        }
        self.init(save: 0, latestSave: 0, objects: objects, stamps: stamps)
    }
}
