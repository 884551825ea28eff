// MARK: - XMLEvent

/// One attribute of a start tag, in document order.
struct XMLAttribute: Equatable {
    var name: String
    var value: String
    /// The byte offset of the attribute's name in the document.
    var offset: Int
}

/// What ``XMLReader`` reports: elements opening and closing, and character data.
///
/// Comments, processing instructions, the XML declaration and the document type declaration
/// are checked and skipped. An empty-element tag (`<x/>`) is reported as a start followed by
/// an end.
enum XMLEvent: Equatable {
    /// A start tag, with its attributes in document order.
    case startElement(name: String, attributes: [XMLAttribute], offset: Int)
    /// An end tag (or the end of an empty-element tag).
    case endElement(name: String, offset: Int)
    /// Character data: text with its references resolved, or the content of a CDATA section.
    case text(String, offset: Int)
}
