/// The persistent state of one object: its attribute values and the foreign keys it holds.
struct RowData: Sendable, Hashable {
    /// Attribute values, in the entity's attribute order.
    var values: [StoreValue]
    /// The destinations of the to-one relationships this entity holds, in foreign-key order.
    var refs: [ObjectID?]

    /// The fields (attribute indexes, then `attributes.count + fk index`) that differ.
    func differingFields(from other: RowData) -> FieldSet {
        var set = FieldSet()
        for i in values.indices where values[i] != other.values[i] { set.insert(i) }
        for i in refs.indices where refs[i] != other.refs[i] { set.insert(values.count + i) }
        return set
    }

    /// Copies the given fields of `source` into this row.
    mutating func copyFields(_ fields: FieldSet, from source: RowData) {
        for field in fields {
            if field < values.count { values[field] = source.values[field] }
            else { refs[field - values.count] = source.refs[field - values.count] }
        }
    }

    /// Replaces temporary IDs that have become permanent.
    mutating func resolveRefs(_ resolve: (ObjectID) -> ObjectID) {
        for i in refs.indices {
            if let ref = refs[i], ref.isTemporary { refs[i] = resolve(ref) }
        }
    }
}

/// A row together with the store version it was read at (0 for never-saved objects).
struct VersionedRow: Sendable {
    var id: ObjectID
    var row: RowData
    var version: Int64
}

/// A small set of field numbers (attributes first, then foreign keys).
struct FieldSet: Sendable, Hashable, Sequence {
    private var words: [UInt64] = []

    init() {}

    init(_ fields: some Sequence<Int>) {
        for f in fields { insert(f) }
    }

    var isEmpty: Bool { words.allSatisfy { $0 == 0 } }

    mutating func insert(_ field: Int) {
        let w = field >> 6
        if w >= words.count { words.append(contentsOf: repeatElement(0, count: w - words.count + 1)) }
        words[w] |= 1 << UInt64(field & 63)
    }

    func contains(_ field: Int) -> Bool {
        let w = field >> 6
        return w < words.count && words[w] & (1 << UInt64(field & 63)) != 0
    }

    mutating func formUnion(_ other: FieldSet) {
        for f in other { insert(f) }
    }

    func subtracting(_ other: FieldSet) -> FieldSet {
        FieldSet(self.filter { !other.contains($0) })
    }

    func intersection(_ other: FieldSet) -> FieldSet {
        FieldSet(self.filter { other.contains($0) })
    }

    func makeIterator() -> AnyIterator<Int> {
        var w = 0
        var bits: UInt64 = words.first ?? 0
        let words = self.words
        return AnyIterator {
            while true {
                if bits != 0 {
                    let b = bits.trailingZeroBitCount
                    bits &= bits - 1
                    return w * 64 + b
                }
                w += 1
                guard w < words.count else { return nil }
                bits = words[w]
            }
        }
    }
}
