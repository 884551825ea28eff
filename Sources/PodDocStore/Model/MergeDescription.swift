/// How copies of a model's objects merge beyond property by property: the entities whose
/// objects form ordered trees (an outline's items) and the date attributes that take the
/// later of two values.
///
/// A model carries its merge description and a store records it with the model, so that a
/// program that does not know a document's kind still merges its copies as the kind's own
/// app does (``CopyMerge``).
///
/// ```swift
/// let merging = MergeDescription(
///     trees: [OrderedTree(entity: "Task", parent: Task.parent, order: Task.order)],
///     latestValues: [LatestValue(entity: "Task", attribute: Task.modified)])
/// let model = try ObjectModel(version: 1, entities: [task], merging: merging)
/// ```
public struct MergeDescription: Sendable, Hashable {
    /// The entities whose objects form ordered trees.
    public var trees: [OrderedTree]
    /// The date attributes that take the later value where both copies changed them.
    public var latestValues: [LatestValue]

    /// Describes how copies merge; empty, every property merges on its own.
    public init(trees: [OrderedTree] = [], latestValues: [LatestValue] = []) {
        self.trees = trees
        self.latestValues = latestValues
    }

    /// Checks the description against the model's entities.
    ///
    /// - Throws: ``StoreError`` (`.invalidModel`) naming what does not fit.
    func check(against entities: [String: EntityDescription]) throws {
        for tree in trees {
            guard let entity = entities[tree.entity] else {
                throw StoreError.invalidModel("the ordered tree of '\(tree.entity)' names no entity of the model")
            }
            guard let parent = entity.relationships.first(where: { $0.name == tree.parent }), !parent.isToMany,
                parent.destination == tree.entity
            else {
                throw StoreError.invalidModel(
                    "the ordered tree of '\(tree.entity)' needs '\(tree.parent)' to be a to-one relationship of it to itself")
            }
            guard let order = entity.attributes.first(where: { $0.name == tree.order }), order.type == .integer else {
                throw StoreError.invalidModel("the ordered tree of '\(tree.entity)' needs '\(tree.order)' to be an integer attribute of it")
            }
        }
        if let twice = Dictionary(grouping: trees, by: \.entity).first(where: { $0.value.count > 1 }) {
            throw StoreError.invalidModel("'\(twice.key)' is described as an ordered tree twice")
        }
        for latest in latestValues {
            guard let attribute = entities[latest.entity]?.attributes.first(where: { $0.name == latest.attribute }),
                attribute.type == .date
            else {
                throw StoreError.invalidModel("the latest value '\(latest.entity).\(latest.attribute)' is no date attribute of the model")
            }
        }
    }
}
