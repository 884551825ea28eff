// MARK: - OutlineFormatError

/// Why an outline could not be read from or written to a format.
///
/// A failed import returns no tree at all: nothing is imported partially. Where the problem
/// has a place in the input, ``line`` and ``column`` (both 1-based, columns counted in
/// Unicode scalars) point at it.
///
/// For example:
/// ```swift
/// do {
///     let tree = try OutlineTree(opml: data)
/// } catch {
///     print(error)  // OPML: not well-formed XML at line 12, column 5: expected '>'; nothing was imported
/// }
/// ```
public struct OutlineFormatError: Error, Sendable, Equatable {
    /// What kind of problem this is.
    public var code: Code
    /// The format being read or written.
    public var format: OutlineFormat
    /// The 1-based line of the problem in the input, if it has one.
    public var line: Int?
    /// The 1-based column (in Unicode scalars) of the problem in the input, if it has one.
    public var column: Int?
    /// What exactly went wrong, for example "expected '>'".
    public var message: String

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - code: The kind of problem.
    ///   - format: The format being read or written.
    ///   - line: The 1-based line, if the problem has a place in the input.
    ///   - column: The 1-based column, if the problem has a place in the input.
    ///   - message: What exactly went wrong.
    public init(code: Code, format: OutlineFormat, line: Int? = nil, column: Int? = nil, message: String) {
        self.code = code
        self.format = format
        self.line = line
        self.column = column
        self.message = message
    }
}

// MARK: - Codes

extension OutlineFormatError {
    /// The kind of an ``OutlineFormatError``. New codes may be added; match with `==`.
    public struct Code: Hashable, Sendable {
        private enum Value: Hashable, Sendable {
            case notWellFormed, unsupportedEncoding, invalidEncoding, unexpectedStructure
            case inconsistentIndentation, unrepresentable
        }

        private let value: Value

        /// The input breaks the syntax of its format (not well-formed XML, invalid JSON).
        public static let notWellFormed = Code(value: .notWellFormed)
        /// The input declares or uses a text encoding this library does not read.
        public static let unsupportedEncoding = Code(value: .unsupportedEncoding)
        /// The input has bytes that are not valid in its encoding.
        public static let invalidEncoding = Code(value: .invalidEncoding)
        /// The input is well-formed but is not an outline (wrong root element, unknown key,
        /// text where a list item belongs).
        public static let unexpectedStructure = Code(value: .unexpectedStructure)
        /// Lines of an indented format do not line up with any enclosing item.
        public static let inconsistentIndentation = Code(value: .inconsistentIndentation)
        /// The outline holds something the target format cannot store (export only).
        public static let unrepresentable = Code(value: .unrepresentable)

        /// Whether errors with this code come from writing rather than reading.
        var isExportError: Bool { value == .unrepresentable }

        /// A short summary of the problem for the given format.
        func summary(for format: OutlineFormat) -> String {
            switch value {
            case .notWellFormed: format == .opml ? "not well-formed XML" : "not valid \(format.displayName)"
            case .unsupportedEncoding: "unsupported text encoding"
            case .invalidEncoding: "invalid text encoding"
            case .unexpectedStructure: "not a valid \(format.displayName) outline"
            case .inconsistentIndentation: "inconsistent indentation"
            case .unrepresentable: "cannot export"
            }
        }
    }
}
