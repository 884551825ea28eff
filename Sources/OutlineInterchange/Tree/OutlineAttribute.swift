// MARK: - OutlineAttribute

/// One name/value pair: an extra attribute of an outline item (`type`, `xmlUrl`, `created`, …)
/// or one field of an outline's head (`title`, `dateCreated`, `expansionState`, …).
///
/// Attributes are kept in arrays, never in dictionaries, so their original order survives a
/// round trip through every format.
public struct OutlineAttribute: Sendable, Hashable {
    /// The attribute's name, for example `xmlUrl`.
    public var name: String
    /// The attribute's value, kept verbatim.
    public var value: String

    /// Creates a name/value pair.
    ///
    /// For example: `OutlineAttribute("type", "rss")`.
    public init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }
}

// MARK: - Lookup

extension Array where Element == OutlineAttribute {
    /// The value of the first attribute called `name`, or `nil` if there is none.
    public func value(named name: String) -> String? {
        first { $0.name == name }?.value
    }
}
