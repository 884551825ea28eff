import PodDocStore

// MARK: - SpecsDiff

/// What changed between the specs of two pods documents, in the specs' terms: versions added,
/// versions removed, and for a version both hold, the fields that changed. Specs are matched
/// by their key (name and version), so any two pods documents compare; both are read in key
/// order, one spec at a time, so memory holds the differences, not the documents.
///
/// ```swift
/// let diff = try SpecsDiff(from: before.store, to: after.store)
/// for change in diff.changes { print(change.kind, change.name, change.version) }
/// ```
public struct SpecsDiff: Sendable {
    /// One difference.
    public struct Change: Sendable, Hashable, Encodable {
        /// What happened to the version.
        public enum Kind: String, Sendable, Hashable, Encodable {
            /// Only in the later document.
            case added
            /// Only in the earlier document.
            case removed
            /// In both, with different fields.
            case changed
        }

        /// What happened.
        public let kind: Kind
        /// The pod's name.
        public let name: String
        /// The version.
        public let version: String
        /// For ``Kind/changed``, the fields that differ (the spec's verbatim `json` among them).
        public let fields: [String]?
    }

    /// The differences, in key order.
    public let changes: [Change]

    /// Compares the specs two stores hold.
    ///
    /// - Throws: ``PodSpecsError`` (`store`) when a store cannot be read.
    public init(from earlier: PersistentStore, to later: PersistentStore) throws {
        typealias Spec = PodSpecsSchema.PodSpecEntity
        let request = FetchRequest(Spec.name, sortBy: [FetchSort(Spec.key)])
        var changes: [Change] = []
        do {
            try earlier.readSnapshot { a in
                try later.readSnapshot { b in
                    let left = try a.rows(request)
                    let right = try b.rows(request)
                    var x = try left.next()
                    var y = try right.next()
                    while x != nil || y != nil {
                        // Keys in SQLite's BINARY order: bytes.
                        let order: Int
                        switch (x, y) {
                        case (let x?, let y?): order = Collation.compareUTF8(x[Spec.key], y[Spec.key])
                        case (nil, _): order = 1
                        case (_, nil): order = -1
                        }
                        if order < 0, let row = x {
                            changes.append(Change(kind: .removed, name: row[Spec.nameKey], version: row[Spec.version], fields: nil))
                            x = try left.next()
                        } else if order > 0, let row = y {
                            changes.append(Change(kind: .added, name: row[Spec.nameKey], version: row[Spec.version], fields: nil))
                            y = try right.next()
                        } else if let old = x, let new = y {
                            let fields = new.differingProperties(from: old)
                            if !fields.isEmpty {
                                changes.append(Change(kind: .changed, name: new[Spec.nameKey], version: new[Spec.version], fields: fields))
                            }
                            x = try left.next()
                            y = try right.next()
                        }
                    }
                }
            }
        } catch {
            throw PodSpecsError.wrapping(error, while: "comparing the specs")
        }
        self.changes = changes
    }

}
