import Foundation

// MARK: - OPMLWriter

/// Writes an outline (any ``OutlineWalk``) as deterministic UTF-8 OPML.
///
/// Layout: an XML declaration, `<opml version="…">` with the tree's version (or 2.0), the head
/// fields in order, `<body>` with its attributes, then one `<outline>` per line, indented with
/// one tab per level (at most ``maximumIndentation`` tabs, so very deep outlines stay linear in
/// size). Attribute order is `text`, then `_note` when the item has a note, then the item's
/// other attributes in order. Comments and white space of the original are not kept.
enum OPMLWriter {
    /// The deepest indentation written, in tabs.
    static let maximumIndentation = 32

    /// The OPML document for `tree`.
    ///
    /// - throws: ``OutlineFormatError/Code/unrepresentable`` when the tree holds something OPML
    ///   cannot: a character XML forbids, a name that is not an XML name, an attribute named
    ///   `text` or `_note`, or the same attribute twice on one item; the walk's own failure
    ///   to read.
    static func write(_ tree: some OutlineWalk, chunks: OutputChunks? = nil) throws -> Data {
        var output: [UInt8] = []
        output.append(contentsOf: "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<opml version=\"".utf8)
        try append(tree.opmlVersion ?? OPMLNames.defaultVersion, as: .attributeValue, to: &output, what: "the OPML version")
        output.append(contentsOf: "\">\n".utf8)
        try writeHead(tree.head, to: &output)
        output.append(contentsOf: "\t<body".utf8)
        try writeAttributes(tree.bodyAttributes, reserved: [], of: "<body>", to: &output)
        var isEmpty = true
        try tree.forEachStep { step in
            if isEmpty {
                output.append(contentsOf: ">\n".utf8)
                isEmpty = false
            }
            chunks?.takeIfLarge(&output)
            try writeStep(step, to: &output, chunks: chunks)
        }
        output.append(contentsOf: (isEmpty ? "/>\n" : "\t</body>\n").utf8)
        output.append(contentsOf: "</opml>\n".utf8)
        if let chunks { chunks.finish(&output) }
        return Data(output)
    }

    // MARK: - Head

    private static func writeHead(_ head: [OutlineAttribute], to output: inout [UInt8]) throws(OutlineFormatError) {
        guard !head.isEmpty else {
            output.append(contentsOf: "\t<head/>\n".utf8)
            return
        }
        output.append(contentsOf: "\t<head>\n".utf8)
        for field in head {
            guard XMLCharacters.isName(field.name) else {
                throw unrepresentable("the head field name '\(field.name)' is not a valid XML name")
            }
            if field.value.isEmpty {
                output.append(contentsOf: "\t\t<\(field.name)/>\n".utf8)
                continue
            }
            output.append(contentsOf: "\t\t<\(field.name)>".utf8)
            try append(field.value, as: .elementContent, to: &output, what: "the head field '\(field.name)'")
            output.append(contentsOf: "</\(field.name)>\n".utf8)
        }
        output.append(contentsOf: "\t</head>\n".utf8)
    }

    // MARK: - Items

    private static func writeStep(_ step: OutlineStep, to output: inout [UInt8], chunks: OutputChunks?) throws(OutlineFormatError) {
        switch step {
        case .enter(let item, let depth, let hasChildren):
            indent(depth, into: &output)
            try writeOutlineTag(item, selfClosing: !hasChildren, to: &output, chunks: chunks)
        case .exit(let depth, let hadChildren):
            guard hadChildren else { return }
            indent(depth, into: &output)
            output.append(contentsOf: "</outline>\n".utf8)
        }
    }

    private static func writeOutlineTag(
        _ item: OutlineItem, selfClosing: Bool, to output: inout [UInt8], chunks: OutputChunks?
    ) throws(OutlineFormatError) {
        output.append(contentsOf: "<outline text=\"".utf8)
        try append(item.title, as: .attributeValue, to: &output, chunks: chunks, what: "the title '\(item.title)'")
        output.append(ASCII.quote)
        if let note = item.note {
            output.append(contentsOf: " _note=\"".utf8)
            try append(note, as: .attributeValue, to: &output, chunks: chunks, what: "the note of '\(item.title)'")
            output.append(ASCII.quote)
        }
        if let status = item.status {
            output.append(contentsOf: " \(OPMLNames.status)=\"\(status.opmlValue)\"".utf8)
        }
        try writeAttributes(
            item.attributes,
            reserved: item.status == nil ? [OPMLNames.title, OPMLNames.note] : [OPMLNames.title, OPMLNames.note, OPMLNames.status],
            of: "'\(item.title)'", to: &output)
        output.append(contentsOf: (selfClosing ? "/>\n" : ">\n").utf8)
    }

    /// Writes ` name="value"` for each attribute, refusing invalid, reserved or repeated names.
    private static func writeAttributes(
        _ attributes: [OutlineAttribute], reserved: Set<String>, of owner: String, to output: inout [UInt8]
    ) throws(OutlineFormatError) {
        var names = reserved
        for attribute in attributes {
            guard XMLCharacters.isName(attribute.name) else {
                throw unrepresentable("the attribute name '\(attribute.name)' of \(owner) is not a valid XML name")
            }
            guard names.insert(attribute.name).inserted else {
                let problem =
                    reserved.contains(attribute.name)
                    ? "an attribute named '\(attribute.name)', which OPML uses itself"
                    : "the attribute '\(attribute.name)' twice"
                throw unrepresentable("\(owner) has \(problem)")
            }
            output.append(contentsOf: " \(attribute.name)=\"".utf8)
            try append(attribute.value, as: .attributeValue, to: &output, what: "the attribute '\(attribute.name)' of \(owner)")
            output.append(ASCII.quote)
        }
    }

    // MARK: - Helpers

    /// Indentation for an item at `depth` (1 for top level, which sits inside `<body>`).
    private static func indent(_ depth: Int, into output: inout [UInt8]) {
        output.appendRepeated(ASCII.tab, count: min(depth + 1, maximumIndentation))
    }

    private static func append(
        _ string: String, as place: XMLEscaping.Place, to output: inout [UInt8], chunks: OutputChunks? = nil,
        what: @autoclosure () -> String
    ) throws(OutlineFormatError) {
        do {
            try XMLEscaping.append(string, for: place, to: &output, handOn: chunks?.handOn)
        } catch {
            throw unrepresentable("\(what()) contains the character \(error.display), which XML 1.0 cannot hold")
        }
    }

    private static func unrepresentable(_ message: String) -> OutlineFormatError {
        OutlineFormatError(code: .unrepresentable, format: .opml, message: message)
    }
}
