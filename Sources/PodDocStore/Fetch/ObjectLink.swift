/// One edge of a tree of objects: an object and the destination of its to-one relationship
/// (an item and its parent).
///
/// ```swift
/// for link in try context.descendantLinks(of: [folder.objectID], following: Item.parent) {
///     print(link.object, "is a child of", link.destination)
/// }
/// ```
public struct ObjectLink: Sendable, Hashable {
    /// The object.
    public let object: ObjectID
    /// The object its relationship points at (nil at the top of the tree).
    public let destination: ObjectID?

    /// Makes a link.
    public init(object: ObjectID, destination: ObjectID?) {
        self.object = object
        self.destination = destination
    }
}
