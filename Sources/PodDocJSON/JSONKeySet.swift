// MARK: - JSONKeySet

/// The member names of one JSON object seen so far, to refuse a name given twice (RFC 8259
/// leaves duplicates to the reader; a strict reader must not let the last one silently win).
/// Names are equal when their code points are, as JSON compares them: `"é"` and `"e\u0301"`
/// are two names (Swift's `==` would call them one).
///
/// Cheap for the objects real files hold: names are kept in an array and compared only with
/// earlier names of the same length in UTF-8 bytes (a bit mask of the lengths seen skips the
/// rest), and ``removeAll()`` keeps the array's storage, so a reader of many objects (a page
/// of specs) allocates once. An object of more than ``arrayCapacity`` members moves to a
/// hash set, so a hostile object of a million members costs linear time.
///
/// ```swift
/// var keys = JSONKeySet()
/// try scanner.forEachMember { key, scanner in
///     guard keys.insert(key) else { throw Repeated(key) }
///     try scanner.skipValue()
/// }
/// ```
public struct JSONKeySet: Sendable {
    /// How many names are kept in the array before the hash set takes over.
    public static let arrayCapacity = 32

    private var names: [String] = []
    /// Bit `n % 64` is set once a name of `n` UTF-8 bytes was seen.
    private var lengths: UInt64 = 0
    private var hashed: Set<Name>?

    /// A name compared and hashed by its UTF-8 bytes.
    private struct Name: Hashable, Sendable {
        let text: String

        static func == (a: Name, b: Name) -> Bool { a.text.utf8.elementsEqual(b.text.utf8) }

        func hash(into hasher: inout Hasher) {
            for byte in text.utf8 { hasher.combine(byte) }
        }
    }

    /// An empty set.
    public init() {}

    /// Adds a member name.
    ///
    /// - Returns: false when the object already had a member of that name.
    public mutating func insert(_ name: String) -> Bool {
        if hashed != nil { return hashed!.insert(Name(text: name)).inserted }
        let count = name.utf8.count
        let bit = UInt64(1) << UInt64(count & 63)
        if lengths & bit != 0 {
            for earlier in names where earlier.utf8.count == count && earlier.utf8.elementsEqual(name.utf8) { return false }
        }
        lengths |= bit
        if names.count < Self.arrayCapacity {
            names.append(name)
        } else {
            hashed = Set(names.map(Name.init))
            hashed!.insert(Name(text: name))
            names.removeAll(keepingCapacity: true)
        }
        return true
    }

    /// Empties the set for the next object, keeping its storage.
    public mutating func removeAll() {
        names.removeAll(keepingCapacity: true)
        lengths = 0
        hashed = nil
    }

    /// The first name that occurs twice among an object's members (as ``JSONValue/object(_:)``
    /// keeps them), or nil.
    public static func firstRepeatedKey(in members: [(key: String, value: JSONValue)]) -> String? {
        // The small objects of real files are compared pairwise, without allocating.
        let count = members.count
        if count <= 8 {
            var i = 0
            while i < count {
                var j = i + 1
                while j < count {
                    if members[i].key.utf8.elementsEqual(members[j].key.utf8) { return members[i].key }
                    j += 1
                }
                i += 1
            }
            return nil
        }
        var keys = JSONKeySet()
        return members.first { !keys.insert($0.key) }?.key
    }
}
