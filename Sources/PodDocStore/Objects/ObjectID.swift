import Foundation
import Synchronization

/// The identity of a managed object, valid in every context of one store.
///
/// Inserted objects get a *temporary* ID; it becomes *permanent* (the row's id) when the
/// root context saves, and every context of the stack updates its objects to the permanent
/// ID by itself. IDs are the only thing that should cross between contexts: look them up
/// with ``ObjectContext/object(with:)``.
///
/// ```swift
/// let id = try await worker.perform { ctx in
///     let item = ctx.insert("Item")
///     try ctx.save()          // into the root: the main context can now read it
///     return item.objectID
/// }
/// let item = main.object(with: id)
/// ```
public struct ObjectID: Hashable, Sendable {
    /// The entity of the object.
    public let entityName: String
    /// Positive: the row id. Negative: a temporary number, unique in this process.
    let key: Int64
    /// For a temporary ID: where the root save that stores the object records its row id.
    /// Every copy of the ID shares it, so a temporary ID resolves for as long as anyone holds
    /// it, and the store keeps no map of them that could only grow.
    let permanentKey: PermanentKey?

    init(entityName: String, key: Int64, permanentKey: PermanentKey? = nil) {
        self.entityName = entityName
        self.key = key
        self.permanentKey = permanentKey
    }

    /// The permanent ID once a root save has stored the object, else this ID.
    var resolved: ObjectID {
        guard let permanentKey else { return self }
        let key = permanentKey.value.load(ordering: .acquiring)
        return key > 0 ? ObjectID(entityName: entityName, key: key) : self
    }

    /// Whether the object has not been saved to the store yet.
    public var isTemporary: Bool { key < 0 }

    /// The row id in the entity's table, once the ID is permanent.
    public var rowID: Int64? { key > 0 ? key : nil }

    /// Makes the permanent ID of a row; for tools that read rows directly.
    public static func permanent(entity: String, rowID: Int64) -> ObjectID {
        precondition(rowID > 0, "row ids are positive")
        return ObjectID(entityName: entity, key: rowID)
    }

    private static let temporaryCounter = Atomic<Int64>(0)

    /// A fresh temporary ID. Later calls order after earlier ones.
    static func makeTemporary(entity: String) -> ObjectID {
        let n = temporaryCounter.wrappingAdd(1, ordering: .relaxed).newValue
        return ObjectID(entityName: entity, key: -n, permanentKey: PermanentKey())
    }

    /// A URI naming the object in the given store, e.g. `x-poddoc://<store>/Item/p42`.
    public func uriRepresentation(storeIdentifier: String) -> URL {
        URL(
            string:
                "x-poddoc://\(storeIdentifier)/\(entityName.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? entityName)/\(isTemporary ? "t\(-key)" : "p\(key)")"
        )!
    }

    /// Parses a URI made by ``uriRepresentation(storeIdentifier:)``. A temporary ID parsed
    /// from a URI does not follow its object's save: look objects up by permanent URIs.
    ///
    /// - Returns: the store identifier and the ID, or nil when the URI is not one of ours.
    public static func parse(uri: URL) -> (storeIdentifier: String, id: ObjectID)? {
        guard uri.scheme == "x-poddoc", let store = uri.host else { return nil }
        let parts = uri.path.split(separator: "/")
        guard parts.count == 2, let last = parts.last, let kind = last.first,
            let number = Int64(last.dropFirst()), number > 0,
            let entity = String(parts[0]).removingPercentEncoding
        else { return nil }
        switch kind {
        case "p": return (store, ObjectID(entityName: entity, key: number))
        case "t": return (store, ObjectID(entityName: entity, key: -number))
        default: return nil
        }
    }
}

/// The row id a temporary ``ObjectID`` became (0 until its object is saved to the store).
final class PermanentKey: Sendable {
    let value = Atomic<Int64>(0)
}

// MARK: - Hashable

extension ObjectID {
    /// The same entity and key (a temporary ID and the permanent one it became differ).
    public static func == (lhs: ObjectID, rhs: ObjectID) -> Bool {
        lhs.key == rhs.key && lhs.entityName == rhs.entityName
    }

    /// Hashes the key only: IDs of different entities with the same key are rare in one
    /// table, and hashing the entity name too would double the cost of every lookup.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(key)
    }
}

// MARK: - Comparable

extension ObjectID: Comparable {
    /// Permanent IDs by row id, then temporary IDs in the order they were made: the order
    /// saved rows keep, since new rows get ids above every existing one.
    public static func < (lhs: ObjectID, rhs: ObjectID) -> Bool {
        if lhs.isTemporary != rhs.isTemporary { return !lhs.isTemporary }
        return lhs.isTemporary ? lhs.key > rhs.key : lhs.key < rhs.key
    }
}

// MARK: - CustomStringConvertible

extension ObjectID: CustomStringConvertible {
    /// `Item/p42` for a permanent ID, `Item/t7` for a temporary one.
    public var description: String {
        "\(entityName)/\(isTemporary ? "t\(-key)" : "p\(key)")"
    }
}
