import Foundation
internal import GRDB

// MARK: - Merging two copies of one store

/// An attribute that records when its object last changed (an item's `modified`): a merge
/// takes the later of the two copies' values, and a difference in it alone is no conflict.
public struct LatestValue: Sendable, Hashable {
    /// The entity.
    public let entity: String
    /// The date attribute.
    public let attribute: String

    /// Describes one.
    public init(entity: String, attribute: Attribute<Date>) {
        self.entity = entity
        self.attribute = attribute.name
    }

    /// Describes one by names (a recorded model's).
    init(entity: String, attribute: String) {
        self.entity = entity
        self.attribute = attribute
    }
}

/// An object a merge moved on its own: it was under a parent the other copy deleted, and now
/// is under that parent's nearest surviving ancestor.
public struct MovedObject: Sendable, Hashable {
    /// The object.
    public let objectID: ObjectID
    /// Its new parent; nil for the top level (no ancestor was left).
    public let parent: ObjectID?
}

/// Which copy a merge prefers where both changed the same thing.
public enum MergeSide: String, Sendable, Hashable, CaseIterable {
    /// The copy merged into.
    case mine
    /// The copy merged from.
    case theirs
}

/// A change both copies made differently since their common save.
public struct CopyConflict: Sendable, Hashable {
    /// What clashed.
    public enum Kind: String, Sendable, Hashable {
        /// Both copies changed the properties, to different values.
        case bothChanged
        /// Mine changed the object; theirs deleted it.
        case changedHereDeletedThere
        /// Mine deleted the object; theirs changed it.
        case deletedHereChangedThere
        /// Each copy moved an item under the other (or under something the other moved):
        /// taking both would make a cycle.
        case movedIntoEachOther
    }

    /// What clashed.
    public let kind: Kind
    /// The object (in mine's IDs).
    public let objectID: ObjectID
    /// The properties concerned.
    public let properties: [String]
    /// Their values in mine (empty when mine deleted the object); references as row ids.
    public let mine: [StoreValue]
    /// Their values in theirs (empty when theirs deleted the object).
    public let theirs: [StoreValue]
    /// For a delete against a change: the items the changing copy put under the object (made
    /// there or moved there) that the deleting copy had not seen.
    public var placedUnder: [ObjectID] = []
}

/// A merge of one copy of a store into another (``plan(mine:theirs:trees:latest:preferring:choices:twoWay:base:)``),
/// worked out from the two histories and applied with ``ObjectContext/apply(_:)`` as one
/// save.
///
/// The copies' common save is the newest state both reached: a save both histories hold, or
/// a merge both made of the same two saves with the same preference. Theirs' changes since
/// then go onto mine property by property: a property only theirs changed takes their value,
/// one both changed to different values is a conflict (as is an object changed on one side
/// and deleted on the other). Objects both inserted since get row ids that do not depend on
/// the direction of the merge (the copy that saved first keeps its ids, the other's objects
/// follow after both copies' highest ids), so merging A into B and B into A without conflicts
/// gives the same rows. A copy that holds the other already (merged it before, or is the one
/// it was copied from) changes nothing; one that the other holds takes the other's content.
public struct CopyMerge: Sendable {
    /// What the merge does.
    public enum Outcome: String, Sendable, Hashable {
        /// Mine holds theirs already: nothing to do.
        case upToDate
        /// Theirs holds mine: mine becomes theirs.
        case fastForward
        /// Both changed since their common save: theirs' changes go onto mine.
        case merged
    }

    /// What the merge does.
    public let outcome: Outcome
    /// The conflicts: with no preference, the merge is refused while there are any; with
    /// one, they were resolved its way.
    public let conflicts: [CopyConflict]
    /// The preference the conflicts were resolved with, if any.
    public let preference: MergeSide?
    /// The resolution of the conflicts of these objects, before ``preference``.
    public let choices: [ObjectID: MergeSide]
    /// Objects the merge moved on its own: their parent was deleted in the other copy.
    public let moved: [MovedObject]
    /// The common save, in mine's history and in theirs'.
    public let commonSave: (mine: Int, theirs: Int)
    /// What the merge's save records beside its changes (pass it in the save's ``SaveNote``).
    public let record: SaveNote.MergeRecord
    /// The objects to change, by entity and row id.
    let targets: [String: [Int64: PastState.Object]]

    /// How many objects the merge changes in mine.
    public var changedObjects: Int { targets.values.reduce(0) { $0 + $1.count } }

    /// Whether it can be applied: no conflicts, or a preference that resolved them.
    public var canApply: Bool { conflicts.allSatisfy { choices[$0.objectID] != nil || preference != nil } }
}

/// A merge's record as a store written before the save graph kept it (`history.state.<save>`):
/// the name both copies gave the merged state, and the saves it held. Read to make the graph
/// of such a store.
extension SaveNote {
    struct State: Sendable, Hashable {
        var identity: String
        var holds: [String]
    }
}
