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
            if field < values.count {
                values[field] = source.values[field]
            } else {
                refs[field - values.count] = source.refs[field - values.count]
            }
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

/// A small set of field numbers (attributes first, then foreign keys). The first 64 fields
/// live inline, so most sets never allocate.
struct FieldSet: Sendable, Hashable, Sequence {
    private var low: UInt64 = 0
    private var high: [UInt64] = []

    init() {}

    init(_ fields: some Sequence<Int>) {
        for f in fields { insert(f) }
    }

    var isEmpty: Bool { low == 0 && high.allSatisfy { $0 == 0 } }

    mutating func insert(_ field: Int) {
        if field < 64 {
            low |= 1 << UInt64(field)
            return
        }
        let w = (field >> 6) - 1
        if w >= high.count { high.append(contentsOf: repeatElement(0, count: w - high.count + 1)) }
        high[w] |= 1 << UInt64(field & 63)
    }

    func contains(_ field: Int) -> Bool {
        if field < 64 { return low & (1 << UInt64(field)) != 0 }
        let w = (field >> 6) - 1
        return w < high.count && high[w] & (1 << UInt64(field & 63)) != 0
    }

    mutating func formUnion(_ other: FieldSet) {
        low |= other.low
        for f in other where f >= 64 { insert(f) }
    }

    func subtracting(_ other: FieldSet) -> FieldSet {
        FieldSet(self.filter { !other.contains($0) })
    }

    func intersection(_ other: FieldSet) -> FieldSet {
        FieldSet(self.filter { other.contains($0) })
    }

    func makeIterator() -> Iterator {
        Iterator(low: low, high: high)
    }

    struct Iterator: IteratorProtocol {
        var bits: UInt64
        var word = 0
        let high: [UInt64]

        init(low: UInt64, high: [UInt64]) {
            bits = low
            self.high = high
        }

        mutating func next() -> Int? {
            while true {
                if bits != 0 {
                    let b = bits.trailingZeroBitCount
                    bits &= bits - 1
                    return word * 64 + b
                }
                guard word < high.count else { return nil }
                bits = high[word]
                word += 1
            }
        }
    }
}
