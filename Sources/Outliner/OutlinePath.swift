import OutlineInterchange

// MARK: - OutlinePath

/// Where an item is in an outline: by position (`1.3.2`: the second child of the third child
/// of the first top-level item) or by titles (`/Work/Projects`).
///
/// Positions count from 1, as people number lists. An empty path is the root.
///
/// ```swift
/// let path = try OutlinePath(parsing: "1.3.2")        // .indexes([1, 3, 2])
/// let work = try OutlinePath(parsing: "/Work/Q3\\/Q4")  // .titles(["Work", "Q3/Q4"])
/// let id = try outline.itemID(at: path)
/// ```
public enum OutlinePath: Hashable, Sendable {
    /// Positions among siblings, from the top, each from 1.
    case indexes([Int])
    /// Titles from the top; each must match exactly one child of the item before it.
    case titles([String])

    /// Reads a path as people write it.
    ///
    /// - Digits separated by dots (`1.3.2`) are positions.
    /// - Anything else is titles separated by `/` (`Work/Projects`); a leading `/` makes any
    ///   text a title path (`/2024` is the item titled "2024"). Inside a title, `\/` stands
    ///   for `/` and `\\` for `\`.
    /// - An empty text, or `/` alone, is the root.
    ///
    /// - Throws: ``OutlineError/Code/invalidPath`` for a position of 0, an empty position or
    ///   title (`1..2`, `Work//Q3`), or a `\` before anything but `/` and `\`.
    public init(parsing text: String) throws(OutlineError) {
        if text.isEmpty || text == "/" {
            self = .indexes([])
        } else if !text.hasPrefix("/"), text.allSatisfy({ $0 == "." || $0.isASCII && $0.isNumber }) {
            self = .indexes(try OutlinePath.positions(text))
        } else {
            self = .titles(try OutlinePath.titles(text.hasPrefix("/") ? text.dropFirst() : Substring(text)))
        }
    }

    private static func positions(_ text: String) throws(OutlineError) -> [Int] {
        var positions: [Int] = []
        for part in text.split(separator: ".", omittingEmptySubsequences: false) {
            guard let position = Int(part), position >= 1 else {
                throw OutlineError(
                    .invalidPath, "'\(text)' is not a path: positions are numbers from 1 separated by single dots, like 1.3.2.")
            }
            positions.append(position)
        }
        return positions
    }

    private static func titles(_ text: Substring) throws(OutlineError) -> [String] {
        var titles: [String] = []
        var current = ""
        var escaped = false
        for character in text {
            if escaped {
                guard character == "/" || character == "\\" else {
                    throw OutlineError(.invalidPath, "'\(text)' is not a path: in a title, '\\' may only come before '/' or '\\'.")
                }
                current.append(character)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character == "/" {
                titles.append(current)
                current = ""
            } else {
                current.append(character)
            }
        }
        guard !escaped else {
            throw OutlineError(.invalidPath, "'\(text)' is not a path: it ends with a lone '\\'; write '\\\\' for a backslash.")
        }
        titles.append(current)
        guard !titles.contains(where: \.isEmpty) else {
            throw OutlineError(.invalidPath, "'\(text)' is not a path: it has an empty title; titles are separated by single '/'.")
        }
        return titles
    }
}

// MARK: - CustomStringConvertible

extension OutlinePath: CustomStringConvertible {
    /// The path as ``init(parsing:)`` reads it: `1.3.2`, or `/Work/Q3\/Q4`.
    public var description: String {
        switch self {
        case .indexes(let positions):
            return positions.map(String.init).joined(separator: ".")
        case .titles(let titles):
            return titles.map { "/" + $0.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "/", with: "\\/") }.joined()
        }
    }
}
