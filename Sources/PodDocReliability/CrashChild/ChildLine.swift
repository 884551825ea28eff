import Foundation

// MARK: - What the child tells the parent

/// One line a crash-test child prints on its standard output.
///
/// `OPEN <save> <hash> <edits>` once the document is open, `SAVED <save> <hash>` after every
/// completed save, `EDITS <n>` after every round of edits (a running count, which the child
/// also keeps in the document, so the parent can tell how many edits a crash lost).
enum ChildLine: Equatable, Sendable {
    /// The document is open at this save, holding this many edits.
    case opened(sequence: Int, storeHash: String, edits: Int)
    /// A save completed.
    case saved(sequence: Int, storeHash: String)
    /// The child has made this many edits so far.
    case edits(Int)

    /// The line as printed (without the newline).
    var text: String {
        switch self {
        case .opened(let sequence, let hash, let edits): "OPEN \(sequence) \(hash) \(edits)"
        case .saved(let sequence, let hash): "SAVED \(sequence) \(hash)"
        case .edits(let count): "EDITS \(count)"
        }
    }

    /// Parses a printed line; nil for anything else.
    init?(_ line: String) {
        let parts = line.split(separator: " ").map(String.init)
        switch (parts.first, parts.count) {
        case ("OPEN", 4):
            guard let sequence = Int(parts[1]), let edits = Int(parts[3]) else { return nil }
            self = .opened(sequence: sequence, storeHash: parts[2], edits: edits)
        case ("SAVED", 3):
            guard let sequence = Int(parts[1]) else { return nil }
            self = .saved(sequence: sequence, storeHash: parts[2])
        case ("EDITS", 2):
            guard let count = Int(parts[1]) else { return nil }
            self = .edits(count)
        default:
            return nil
        }
    }

    /// Prints the line at once (unbuffered), so it is out before a kill can come.
    func print() {
        let bytes = Array((text + "\n").utf8)
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = write(STDOUT_FILENO, buffer.baseAddress! + offset, buffer.count - offset)
                if written <= 0 { return }
                offset += written
            }
        }
    }
}

/// Where the child keeps its edit count in the document's additional content.
enum EditCounter {
    static let path = "crash-test/edits"

    static func read(_ content: [String: Data]) -> Int {
        content[path].flatMap { Int(String(decoding: $0, as: UTF8.self)) } ?? 0
    }

    static func encode(_ count: Int) -> Data {
        Data(String(count).utf8)
    }
}
