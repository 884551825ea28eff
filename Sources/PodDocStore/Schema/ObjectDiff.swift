// MARK: - Comparing two copies object by object

/// What differs between two copies of one store (or one store at two saves), object by
/// object: the objects one holds and the other does not, and the properties that differ.
///
/// Objects are matched by ID, which is the same in every copy of a document, so this is the
/// diff of any model; a kind with a diff of its own (an outline's, by place and title)
/// says more.
///
/// ```swift
/// let diff = try ObjectDiff(from: before, to: after)
/// for change in diff.changes { print(change.kind, change.entity, change.id, change.properties) }
/// ```
public struct ObjectDiff: Sendable {
    /// One object that differs.
    public struct Change: Sendable, Hashable, Encodable {
        /// How it differs.
        public enum Kind: String, Sendable, Hashable, Encodable {
            /// Only the later copy holds it.
            case added
            /// Only the earlier copy holds it.
            case removed
            /// Both hold it, with some properties different.
            case changed
        }
        /// How it differs.
        public let kind: Kind
        /// Its entity.
        public let entity: String
        /// Its row id, the same in both copies.
        public let id: Int64
        /// The attributes and to-one relationships that differ (changes only), in the
        /// model's order.
        public let properties: [String]
    }

    /// The differences, by entity in the model's order, then by id.
    public let changes: [Change]

    /// Compares the saved content of `earlier` and `later`, which must have one model.
    ///
    /// - Throws: ``StoreError`` when a store cannot be read; `.schemaMismatch` when their
    ///   models differ.
    public init(from earlier: PersistentStore, to later: PersistentStore) throws {
        guard earlier.model.versionHash == later.model.versionHash else {
            throw StoreError(.schemaMismatch, "The two stores hold different models, so their objects do not compare.")
        }
        var changes: [Change] = []
        guard earlier !== later else {
            self.changes = []  // one store, one state
            return
        }
        try earlier.readSnapshot { a in
            try later.readSnapshot { b in
                for entity in earlier.model.entities {
                    let request = FetchRequest(entity.name)  // in id order
                    let (left, right) = (try a.rows(request), try b.rows(request))
                    var (x, y) = (try left.next(), try right.next())
                    while x != nil || y != nil {
                        let xID = x?.objectID.rowID ?? .max
                        let yID = y?.objectID.rowID ?? .max
                        if x != nil, xID < yID {
                            changes.append(Change(kind: .removed, entity: entity.name, id: xID, properties: []))
                            x = try left.next()
                        } else if y != nil, yID < xID {
                            changes.append(Change(kind: .added, entity: entity.name, id: yID, properties: []))
                            y = try right.next()
                        } else if let old = x, let new = y {
                            let differing = new.differingProperties(from: old)
                            if !differing.isEmpty {
                                changes.append(Change(kind: .changed, entity: entity.name, id: xID, properties: differing))
                            }
                            (x, y) = (try left.next(), try right.next())
                        }
                    }
                }
            }
        }
        self.changes = changes
    }
}
