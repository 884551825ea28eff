// MARK: - JSON outline shape

/// The keys of the outline JSON shape.
///
/// ```
/// document = {"opmlVersion": string|null, "head": pairs, "bodyAttributes": pairs, "children": [item…]}
/// item     = {"title": string, "note": string|null, "status"?: "open"|"done", "attributes": pairs, "children": [item…]}
/// pairs    = [[name, value]…]
/// ```
enum JSONOutlineKeys {
    static let opmlVersion = "opmlVersion"
    static let head = "head"
    static let bodyAttributes = "bodyAttributes"
    static let children = "children"
    static let title = "title"
    static let note = "note"
    static let status = "status"
    static let attributes = "attributes"
}
