/// A condition on objects of one entity, written in Swift, run as SQL by the store and
/// evaluated in memory for a context's unsaved changes, with the same result either way
/// (SQL's three-valued logic included: a comparison with NULL is never true).
///
/// Build predicates from typed keys:
///
/// ```swift
/// let p: ObjectPredicate = Pod.name.hasPrefix("AF") && Pod.version >= "1.0" || Pod.deprecated == true
/// let children: ObjectPredicate = Item.parent == folder.objectID
/// ```
public indirect enum ObjectPredicate: Sendable, Hashable {
    /// Every object.
    case all
    /// No object.
    case none
    /// `attribute op value`, comparing text under `collation`.
    case compare(attribute: String, ComparisonOperator, StoreValue, collation: Collation)
    /// The attribute is NULL.
    case isNull(attribute: String)
    /// The attribute equals one of the values.
    case oneOf(attribute: String, [StoreValue])
    /// A text attribute matches `pattern` as a prefix, suffix or substring.
    case text(attribute: String, TextMatch, String, caseInsensitive: Bool)
    /// A to-one relationship points at the object (nil: points at nothing).
    case refersTo(relationship: String, ObjectID?)
    /// A to-one relationship points at one of the objects.
    case refersToAny(relationship: String, [ObjectID])
    /// All of the predicates hold.
    case and([ObjectPredicate])
    /// At least one of the predicates holds.
    case or([ObjectPredicate])
    /// The predicate does not hold (and is not unknown).
    case not(ObjectPredicate)

    /// A comparison operator.
    public enum ComparisonOperator: String, Sendable, Hashable {
        case equal = "="
        case notEqual = "<>"
        case less = "<"
        case lessOrEqual = "<="
        case greater = ">"
        case greaterOrEqual = ">="
    }

    /// How a text pattern matches.
    public enum TextMatch: Sendable, Hashable {
        case prefix, suffix, contains
    }
}

// MARK: - Building predicates from typed keys

extension Attribute {
    private func compare(_ op: ObjectPredicate.ComparisonOperator, _ value: Value, _ collation: Collation = .binary) -> ObjectPredicate {
        let stored = value.storeValue
        if stored.isNull {
            switch op {
            case .equal: return .isNull(attribute: name)
            case .notEqual: return .not(.isNull(attribute: name))
            default: return .none
            }
        }
        return .compare(attribute: name, op, stored, collation: collation)
    }

    public static func == (lhs: Attribute, rhs: Value) -> ObjectPredicate { lhs.compare(.equal, rhs) }
    public static func != (lhs: Attribute, rhs: Value) -> ObjectPredicate { lhs.compare(.notEqual, rhs) }
    public static func < (lhs: Attribute, rhs: Value) -> ObjectPredicate { lhs.compare(.less, rhs) }
    public static func <= (lhs: Attribute, rhs: Value) -> ObjectPredicate { lhs.compare(.lessOrEqual, rhs) }
    public static func > (lhs: Attribute, rhs: Value) -> ObjectPredicate { lhs.compare(.greater, rhs) }
    public static func >= (lhs: Attribute, rhs: Value) -> ObjectPredicate { lhs.compare(.greaterOrEqual, rhs) }

    /// Compares under a collation: `Pod.version.compare(.greaterOrEqual, "1.0", .version)`.
    public func compare(_ op: ObjectPredicate.ComparisonOperator, _ value: Value, collation: Collation) -> ObjectPredicate {
        compare(op, value, collation)
    }

    /// The attribute equals one of `values`.
    public func `in`(_ values: some Sequence<Value>) -> ObjectPredicate {
        .oneOf(attribute: name, values.map(\.storeValue))
    }

    /// The attribute is nil.
    public var isNil: ObjectPredicate { .isNull(attribute: name) }
}

extension Attribute where Value == String {
    /// The text starts with `prefix` (compared case-folded, see ``TextFolding``, when `caseInsensitive`).
    public func hasPrefix(_ prefix: String, caseInsensitive: Bool = false) -> ObjectPredicate {
        .text(attribute: name, .prefix, prefix, caseInsensitive: caseInsensitive)
    }
    /// The text ends with `suffix`.
    public func hasSuffix(_ suffix: String, caseInsensitive: Bool = false) -> ObjectPredicate {
        .text(attribute: name, .suffix, suffix, caseInsensitive: caseInsensitive)
    }
    /// The text contains `part`.
    public func contains(_ part: String, caseInsensitive: Bool = false) -> ObjectPredicate {
        .text(attribute: name, .contains, part, caseInsensitive: caseInsensitive)
    }
}

extension Attribute where Value == String? {
    /// The text starts with `prefix` (compared case-folded, see ``TextFolding``, when `caseInsensitive`).
    public func hasPrefix(_ prefix: String, caseInsensitive: Bool = false) -> ObjectPredicate {
        .text(attribute: name, .prefix, prefix, caseInsensitive: caseInsensitive)
    }
    /// The text contains `part`.
    public func contains(_ part: String, caseInsensitive: Bool = false) -> ObjectPredicate {
        .text(attribute: name, .contains, part, caseInsensitive: caseInsensitive)
    }
}

extension ToOne {
    /// The relationship points at `id` (or at nothing, for nil).
    public static func == (lhs: ToOne, rhs: ObjectID?) -> ObjectPredicate {
        .refersTo(relationship: lhs.name, rhs)
    }
    /// The relationship points at `object` (or at nothing, for nil).
    public static func == (lhs: ToOne, rhs: ManagedObject?) -> ObjectPredicate {
        .refersTo(relationship: lhs.name, rhs?.objectID)
    }
    /// The relationship points at one of `ids`.
    public func `in`(_ ids: some Sequence<ObjectID>) -> ObjectPredicate {
        .refersToAny(relationship: name, Array(ids))
    }
}

// MARK: - Combining

extension ObjectPredicate {
    public static func && (lhs: ObjectPredicate, rhs: ObjectPredicate) -> ObjectPredicate {
        switch (lhs, rhs) {
        case (.and(let a), .and(let b)): return .and(a + b)
        case (.and(let a), _): return .and(a + [rhs])
        case (_, .and(let b)): return .and([lhs] + b)
        default: return .and([lhs, rhs])
        }
    }

    public static func || (lhs: ObjectPredicate, rhs: ObjectPredicate) -> ObjectPredicate {
        switch (lhs, rhs) {
        case (.or(let a), .or(let b)): return .or(a + b)
        case (.or(let a), _): return .or(a + [rhs])
        case (_, .or(let b)): return .or([lhs] + b)
        default: return .or([lhs, rhs])
        }
    }

    public static prefix func ! (operand: ObjectPredicate) -> ObjectPredicate {
        .not(operand)
    }
}
