// MARK: - OPMLTreeBuilder

/// Builds an ``OutlineTree`` from the events of ``XMLReader``, checking that the document is
/// an OPML outline.
///
/// Nothing is dropped silently: an element, attribute or text the tree cannot hold is an
/// error that names it and its place. The only things skipped are white space between
/// elements and namespace declarations (`xmlns`, `xmlns:…`) on `<opml>`.
struct OPMLTreeBuilder {
    /// What the builder is inside of.
    private enum Context {
        case document
        case opml
        case head
        case headField(name: String)
        case body
        case outline(OutlineTree.NodeID)
    }

    /// The document text, for locating errors.
    private let text: [UInt8]
    private var tree = OutlineTree()
    private var contexts: [Context] = [.document]
    private var sawHead = false
    private var sawBody = false
    private var opmlOffset = 0
    /// The text of the head field being read, appended in place.
    private var headFieldValue = ""

    init(text: [UInt8]) {
        self.text = text
    }

    /// Takes the next event into the tree.
    mutating func consume(_ event: XMLEvent) throws(OutlineFormatError) {
        switch event {
        case .startElement(let name, let attributes, let offset):
            try start(name, attributes, at: offset)
        case .endElement:
            if case .headField(let name) = contexts.removeLast() {
                tree.head.append(OutlineAttribute(name, headFieldValue))
            }
        case .text(let value, let offset):
            try addText(value, at: offset)
        }
    }

    /// The finished tree.
    func finish() throws(OutlineFormatError) -> OutlineTree {
        guard sawBody else {
            throw error(at: opmlOffset, "the <opml> element has no <body>, so there are no outline items")
        }
        return tree
    }

    // MARK: - Elements

    private mutating func start(
        _ name: String, _ attributes: [XMLAttribute], at offset: Int
    ) throws(OutlineFormatError) {
        switch contexts[contexts.count - 1] {
        case .document:
            try startDocument(name, attributes, at: offset)
        case .opml:
            try startSection(name, attributes, at: offset)
        case .head:
            try refuseAttributes(attributes, of: name)
            headFieldValue = ""
            contexts.append(.headField(name: name))
        case .headField(let field):
            throw error(at: offset, "the head field <\(field)> contains the element <\(name)>; head fields hold text only")
        case .body:
            try startOutline(name, attributes, at: offset, parent: tree.root)
        case .outline(let parent):
            try startOutline(name, attributes, at: offset, parent: parent)
        }
    }

    private mutating func startDocument(
        _ name: String, _ attributes: [XMLAttribute], at offset: Int
    ) throws(OutlineFormatError) {
        guard name == OPMLNames.opml else {
            throw error(at: offset, "the root element is <\(name)>; an OPML file starts with <opml>")
        }
        opmlOffset = offset
        for attribute in attributes where !OPMLNames.isNamespaceDeclaration(attribute.name) {
            guard attribute.name == OPMLNames.version else {
                throw error(at: attribute.offset, "the attribute '\(attribute.name)' on <opml> is not supported")
            }
            tree.opmlVersion = attribute.value
        }
        contexts.append(.opml)
    }

    private mutating func startSection(
        _ name: String, _ attributes: [XMLAttribute], at offset: Int
    ) throws(OutlineFormatError) {
        switch name {
        case OPMLNames.head where !sawHead:
            sawHead = true
            try refuseAttributes(attributes, of: name)
            contexts.append(.head)
        case OPMLNames.body where !sawBody:
            sawBody = true
            tree.bodyAttributes = attributes.map { OutlineAttribute($0.name, $0.value) }
            contexts.append(.body)
        case OPMLNames.head, OPMLNames.body:
            throw error(at: offset, "the document has a second <\(name)>")
        default:
            throw error(at: offset, "unexpected element <\(name)> inside <opml>; expected <head> or <body>")
        }
    }

    private mutating func startOutline(
        _ name: String, _ attributes: [XMLAttribute], at offset: Int, parent: OutlineTree.NodeID
    ) throws(OutlineFormatError) {
        guard name == OPMLNames.outline else {
            throw error(at: offset, "unexpected element <\(name)>; only <outline> elements may appear inside <body> and <outline>")
        }
        var item = OutlineItem(title: "")
        for attribute in attributes {
            switch attribute.name {
            case OPMLNames.title: item.title = attribute.value
            case OPMLNames.note: item.note = attribute.value
            case OPMLNames.status where item.status == nil && OutlineStatus(opmlValue: attribute.value) != nil:
                item.status = OutlineStatus(opmlValue: attribute.value)
            default: item.attributes.append(OutlineAttribute(attribute.name, attribute.value))
            }
        }
        contexts.append(.outline(tree.appendChild(item, to: parent)))
    }

    private func refuseAttributes(_ attributes: [XMLAttribute], of name: String) throws(OutlineFormatError) {
        if let first = attributes.first {
            throw error(at: first.offset, "the attribute '\(first.name)' on <\(name)> is not supported")
        }
    }

    // MARK: - Text

    private mutating func addText(_ value: String, at offset: Int) throws(OutlineFormatError) {
        if case .headField = contexts[contexts.count - 1] {
            headFieldValue += value
            return
        }
        guard let nonBlank = value.utf8.firstIndex(where: { !XMLCharacters.isWhitespace($0) }) else { return }
        let skipped = value.utf8.distance(from: value.utf8.startIndex, to: nonBlank)
        throw error(
            at: offset + skipped,
            "unexpected text '\(value.trimmingXMLWhitespace().prefix(40))'; "
                + "OPML keeps item text in the 'text' attribute")
    }

    private func error(at offset: Int, _ message: String) -> OutlineFormatError {
        .at(offset, in: text, .unexpectedStructure, .opml, message)
    }
}

// MARK: - Helpers

extension String {
    /// The string without leading and trailing XML white space.
    fileprivate func trimmingXMLWhitespace() -> Substring {
        let scalars = unicodeScalars
        let isBlank: (Unicode.Scalar) -> Bool = { $0.isASCII && XMLCharacters.isWhitespace(UInt8($0.value)) }
        guard let first = scalars.firstIndex(where: { !isBlank($0) }),
            let last = scalars.lastIndex(where: { !isBlank($0) })
        else { return "" }
        return Substring(scalars[first...last])
    }
}
