// MARK: - PlainTextIndentation

/// Works out the nesting level of lines of indented text, strictly: the first indented line
/// sets the unit (one tab, or its number of spaces), every line must then be indented by a
/// whole number of units of the same character, and no line may be more than one level
/// deeper than the line before it.
struct PlainTextIndentation {
    /// The indentation character, the number of them per level and the line that set them.
    private var unit: (character: UInt8, size: Int, line: Int)?
    /// The level of the previous item; -1 before the first.
    private var previousLevel = -1

    /// The level (0 for top level) of the item on `line`.
    ///
    /// - throws: ``OutlineFormatError/Code/inconsistentIndentation`` naming the line.
    mutating func level(of line: TextLine) throws(OutlineFormatError) -> Int {
        let level = try levelIgnoringPrevious(line)
        if level > previousLevel + 1 {
            let message =
                previousLevel < 0
                ? "the first item is indented; it must start at the beginning of the line"
                : "the item is indented \(level - previousLevel) levels deeper than the item before it; indent one level at a time"
            throw error(line, message)
        }
        previousLevel = level
        return level
    }

    private mutating func levelIgnoringPrevious(_ line: TextLine) throws(OutlineFormatError) -> Int {
        guard let character = line.indentation.first else { return 0 }
        guard line.indentation.allSatisfy({ $0 == character }) else {
            throw error(line, "the indentation mixes tabs and spaces; use only one of them")
        }
        let count = line.indentation.count
        guard let unit else {
            self.unit = (character, character == ASCII.tab ? 1 : count, line.number)
            return 1
        }
        guard character == unit.character else {
            throw error(
                line,
                "the line is indented with \(Self.name(of: character)), but line \(unit.line) "
                    + "is indented with \(Self.name(of: unit.character)); use only one of them")
        }
        guard count % unit.size == 0 else {
            throw error(
                line,
                "the line is indented by \(count) spaces, which is not a multiple of the "
                    + "\(unit.size)-space indentation of line \(unit.line)")
        }
        return count / unit.size
    }

    private static func name(of character: UInt8) -> String {
        character == ASCII.tab ? "tabs" : "spaces"
    }

    private func error(_ line: TextLine, _ message: String) -> OutlineFormatError {
        line.error(at: line.indentation.startIndex, .inconsistentIndentation, .plainText, message)
    }
}
