import Foundation

// MARK: - CustomStringConvertible

extension OutlineFormatError: CustomStringConvertible {
    /// A sentence a user can act on, for example
    /// "OPML: not well-formed XML at line 12, column 5: expected '>'; nothing was imported".
    public var description: String {
        var text = "\(format.displayName): \(code.summary(for: format))"
        switch (line, column) {
        case (let line?, let column?): text += " at line \(line), column \(column)"
        case (let line?, nil): text += " at line \(line)"
        default: break
        }
        text += ": \(message); "
        text += code.isExportError ? "nothing was exported" : "nothing was imported"
        return text
    }
}

// MARK: - LocalizedError

extension OutlineFormatError: LocalizedError {
    /// The same sentence as ``description``.
    public var errorDescription: String? { description }
}
