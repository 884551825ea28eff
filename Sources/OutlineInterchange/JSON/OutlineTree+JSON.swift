import Foundation

// MARK: - JSON

extension OutlineTree {
    /// Reads the outline JSON shape:
    /// ```
    /// {"opmlVersion": "2.0" | null,
    ///  "head": [["title", "Trip"], …],
    ///  "bodyAttributes": [[name, value], …],
    ///  "children": [{"title": "Packing", "note": "…" | null,
    ///                "attributes": [["type", "link"], …],
    ///                "children": [ … ]}, …]}
    /// ```
    /// Keys may come in any order; only an item's `title` is required. The text must be UTF-8.
    /// Nesting depth is limited only by memory.
    ///
    /// - throws: ``OutlineFormatError`` with line and column: `notWellFormed` for invalid
    ///   JSON, `unexpectedStructure` for valid JSON of another shape.
    public init(json data: Data) throws(OutlineFormatError) {
        self = try JSONOutlineReader.read(UTF8Scalars.validatedText(data, format: .json))
    }

    /// The outline in the JSON shape ``init(json:)`` reads: compact UTF-8, keys in the order
    /// shown there, every key present, ending with a line feed. Nothing is lost.
    public func jsonData() -> Data {
        writingInfallibly { try JSONOutlineWriter.write(self) }
    }
}
