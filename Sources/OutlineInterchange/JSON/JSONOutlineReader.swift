import PodDocJSON

// MARK: - JSONOutlineReader

/// Reads the outline JSON shape (see ``JSONOutlineKeys``) straight into an ``OutlineTree``.
///
/// JSONSerialization refuses nesting deeper than 512 levels and a generic JSON value type
/// would recurse, so this reader pulls tokens from a `PodDocJSON.JSONScanner` and keeps an
/// explicit stack of open arrays and items: an outline may be as deep as memory allows. Keys
/// may come in any order; `title` is required in an item, everything else may be left out.
/// Unknown and repeated keys are errors, and so are lone surrogate escapes (text that could
/// not be written back).
package struct JSONOutlineReader {
    /// An open container.
    private enum Frame {
        /// A `children` array of `parent`; `hasElements` once an item was read.
        case children(parent: OutlineTree.NodeID, hasElements: Bool)
        /// An item object; `keys` holds the keys read so far.
        case item(OutlineTree.NodeID, keys: ItemKeys, start: Int)
    }

    /// The keys of an item, as a set of bits.
    private struct ItemKeys: OptionSet {
        let rawValue: UInt8
        static let title = ItemKeys(rawValue: 1)
        static let note = ItemKeys(rawValue: 2)
        static let attributes = ItemKeys(rawValue: 4)
        static let children = ItemKeys(rawValue: 8)
        static let status = ItemKeys(rawValue: 16)

        init(rawValue: UInt8) {
            self.rawValue = rawValue
        }

        /// The bit for `key`, or `nil` for a key items do not have.
        init?(key: String) {
            switch key {
            case JSONOutlineKeys.title: self = .title
            case JSONOutlineKeys.note: self = .note
            case JSONOutlineKeys.attributes: self = .attributes
            case JSONOutlineKeys.children: self = .children
            case JSONOutlineKeys.status: self = .status
            default: return nil
            }
        }
    }

    /// The text, for locating errors by line and column.
    private let text: [UInt8]
    private var scanner: JSONScanner
    private var tree = OutlineTree()
    private var frames: [Frame] = []

    /// The outline in `bytes` (validated UTF-8 without a byte order mark).
    static func read(_ bytes: [UInt8]) throws(OutlineFormatError) -> OutlineTree {
        try bytes.withUnsafeBufferPointer { buffer throws(OutlineFormatError) in
            var reader = JSONOutlineReader(text: bytes, buffer)
            try reader.readDocument()
            return reader.tree
        }
    }

    /// The `[[name, value], …]` pairs that make up all of `bytes` (validated UTF-8), as
    /// ``JSONOutlineWriter/appendPairs(_:to:)`` writes them; `key` names them in errors.
    package static func readPairs(_ bytes: [UInt8], for key: String) throws(OutlineFormatError) -> [OutlineAttribute] {
        try bytes.withUnsafeBufferPointer { buffer throws(OutlineFormatError) in
            var reader = JSONOutlineReader(text: bytes, buffer)
            let pairs = try reader.readPairs(for: key)
            let end = try reader.nextToken()
            guard end.kind == .endOfInput else {
                throw reader.syntax(at: end.offset, "unexpected \(end.display) after the '\(key)' pairs")
            }
            return pairs
        }
    }

    /// A reader of `text`, whose bytes `buffer` holds (and outlives the reader).
    private init(text: [UInt8], _ buffer: UnsafeBufferPointer<UInt8>) {
        self.text = text
        scanner = JSONScanner(buffer, loneSurrogates: .reject)
    }

    /// The next token; a syntax error comes out as an outline format error.
    private mutating func nextToken() throws(OutlineFormatError) -> JSONToken {
        do {
            return try scanner.nextToken()
        } catch {
            throw syntax(at: error.offset, error.reason)
        }
    }

    // MARK: - Document

    private mutating func readDocument() throws(OutlineFormatError) {
        try expect(.beginObject, "at the start of an outline document")
        var keys: Set<String> = []
        while let (key, offset) = try nextKey(afterFirst: !keys.isEmpty) {
            guard keys.insert(key).inserted else { throw repeated(key, at: offset) }
            switch key {
            case JSONOutlineKeys.opmlVersion: tree.opmlVersion = try readOptionalString(for: key)
            case JSONOutlineKeys.head: tree.head = try readPairs(for: key)
            case JSONOutlineKeys.bodyAttributes: tree.bodyAttributes = try readPairs(for: key)
            case JSONOutlineKeys.children: try readChildren(of: tree.root)
            default:
                throw structure(
                    at: offset,
                    "unknown key '\(key)' in the outline document; "
                        + "expected opmlVersion, head, bodyAttributes or children")
            }
        }
        let end = try nextToken()
        guard end.kind == .endOfInput else {
            throw syntax(at: end.offset, "unexpected \(end.display) after the outline document")
        }
    }

    // MARK: - Items

    /// Reads a `children` array and every item inside it, however deep, without recursion.
    private mutating func readChildren(of parent: OutlineTree.NodeID) throws(OutlineFormatError) {
        try expect(.beginArray, "as the value of 'children'")
        frames = [.children(parent: parent, hasElements: false)]
        while let frame = frames.last {
            switch frame {
            case .children(let parent, let hasElements):
                try continueChildren(of: parent, hasElements: hasElements)
            case .item(let id, let keys, let start):
                try continueItem(id, keys: keys, start: start)
            }
        }
    }

    private mutating func continueChildren(of parent: OutlineTree.NodeID, hasElements: Bool) throws(OutlineFormatError) {
        var token = try nextToken()
        if token.kind == .endArray {
            frames.removeLast()
            return
        }
        if hasElements {
            guard token.kind == .comma else { throw unexpected(token, "expected ',' or ']' in 'children'") }
            token = try nextToken()
        }
        guard token.kind == .beginObject else {
            throw mismatch(token, "expected an item object '{' in 'children'")
        }
        frames[frames.count - 1] = .children(parent: parent, hasElements: true)
        let id = tree.appendChild(OutlineItem(title: ""), to: parent)
        frames.append(.item(id, keys: [], start: token.offset))
    }

    private mutating func continueItem(_ id: OutlineTree.NodeID, keys: ItemKeys, start: Int) throws(OutlineFormatError) {
        guard let (key, offset) = try nextKey(afterFirst: !keys.isEmpty) else {
            guard keys.contains(.title) else { throw structure(at: start, "the item has no 'title'") }
            frames.removeLast()
            return
        }
        guard let bit = ItemKeys(key: key) else {
            throw structure(at: offset, "unknown key '\(key)' in an item; expected title, note, status, attributes or children")
        }
        guard !keys.contains(bit) else { throw repeated(key, at: offset) }
        frames[frames.count - 1] = .item(id, keys: keys.union(bit), start: start)
        switch bit {
        case .title:
            tree[id].title = try readString("'\(key)' must be a string")
        case .note:
            tree[id].note = try readOptionalString(for: key)
        case .attributes:
            tree[id].attributes = try readPairs(for: key)
        case .status:
            let value = try readOptionalString(for: key)
            guard value == nil || OutlineStatus(rawValue: value!) != nil else {
                throw structure(at: offset, "'status' must be \"open\", \"done\" or null, not \"\(value!)\"")
            }
            tree[id].status = value.flatMap(OutlineStatus.init(rawValue:))
        default:
            try expect(.beginArray, "as the value of 'children'")
            frames.append(.children(parent: id, hasElements: false))
        }
    }

    // MARK: - Values

    /// The next key of an object and its offset (after the colon), or `nil` at its `}`.
    private mutating func nextKey(afterFirst: Bool) throws(OutlineFormatError) -> (String, Int)? {
        var token = try nextToken()
        if token.kind == .endObject { return nil }
        if afterFirst {
            guard token.kind == .comma else { throw unexpected(token, "expected ',' or '}'") }
            token = try nextToken()
        }
        guard case .string(let key) = token.kind else { throw unexpected(token, "expected a key in quotes") }
        try expect(.colon, "after the key '\(key)'")
        return (key, token.offset)
    }

    private mutating func readString(_ message: String) throws(OutlineFormatError) -> String {
        let token = try nextToken()
        guard case .string(let value) = token.kind else { throw mismatch(token, message) }
        return value
    }

    private mutating func readOptionalString(for key: String) throws(OutlineFormatError) -> String? {
        let token = try nextToken()
        switch token.kind {
        case .string(let value): return value
        case .null: return nil
        default: throw mismatch(token, "'\(key)' must be a string or null")
        }
    }

    /// Reads `[[name, value], …]`.
    private mutating func readPairs(for key: String) throws(OutlineFormatError) -> [OutlineAttribute] {
        let shape = "'\(key)' must be an array of [name, value] string pairs"
        let open = try nextToken()
        guard open.kind == .beginArray else { throw mismatch(open, shape) }
        var pairs: [OutlineAttribute] = []
        while true {
            var token = try nextToken()
            if token.kind == .endArray { return pairs }
            if !pairs.isEmpty {
                guard token.kind == .comma else { throw unexpected(token, "expected ',' or ']' in '\(key)'") }
                token = try nextToken()
            }
            guard token.kind == .beginArray else { throw mismatch(token, shape) }
            let name = try readString(shape)
            try expect(.comma, "between the name and the value in '\(key)'")
            let value = try readString(shape)
            let close = try nextToken()
            guard close.kind == .endArray else { throw mismatch(close, shape) }
            pairs.append(OutlineAttribute(name, value))
        }
    }

    // MARK: - Errors

    private mutating func expect(_ kind: JSONToken.Kind, _ context: String) throws(OutlineFormatError) {
        let token = try nextToken()
        guard token.kind == kind else {
            let wanted = JSONToken(kind: kind, offset: 0).display
            throw kind == .colon || kind == .comma
                ? unexpected(token, "expected \(wanted) \(context)")
                : mismatch(token, "expected \(wanted) \(context)")
        }
    }

    /// A syntax error: `token` cannot come here in any JSON text.
    private func unexpected(_ token: JSONToken, _ message: String) -> OutlineFormatError {
        syntax(at: token.offset, "\(message), found \(token.display)")
    }

    /// Text that is not JSON.
    private func syntax(at offset: Int, _ message: String) -> OutlineFormatError {
        .at(offset, in: text, .notWellFormed, .json, message)
    }

    /// A shape error: valid JSON, but not the outline shape.
    private func mismatch(_ token: JSONToken, _ message: String) -> OutlineFormatError {
        let isValueStart: Bool
        switch token.kind {
        case .beginObject, .beginArray, .string, .number, .boolean, .null: isValueStart = true
        default: isValueStart = false
        }
        return isValueStart
            ? structure(at: token.offset, "\(message), found \(token.display)")
            : unexpected(token, message)
    }

    private func structure(at offset: Int, _ message: String) -> OutlineFormatError {
        .at(offset, in: text, .unexpectedStructure, .json, message)
    }

    private func repeated(_ key: String, at offset: Int) -> OutlineFormatError {
        structure(at: offset, "the key '\(key)' appears twice in the same object")
    }
}
