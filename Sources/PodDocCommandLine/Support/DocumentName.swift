import ArgumentParser
import Foundation
import PodDocDocument

/// The one rule for the name of a document a command makes (`new`, `save --as`):
/// `NAME.poddoc` for a package, `NAME.tar.zst`, `NAME.zip` or `NAME.tar.gz` for an archive, and
/// a `--format` given must be the one the name says, so a file's name always tells what it is.
enum DocumentName {
    /// The format `path`'s name says, or nil when it names no document.
    static func format(of path: String) -> DocumentFormat? {
        let url = URL(fileURLWithPath: path)
        if url.lastPathComponent.lowercased().hasSuffix(".poddoc") { return .package }
        let inferred = DocumentFormat(inferringFrom: url)
        return inferred.isArchive ? inferred : nil
    }

    /// Checks `path` as the name of a document to make, in `format` when one is given.
    ///
    /// - Throws: `ValidationError` (a usage error) naming the rule.
    static func validate(_ path: String, format: DocumentFormat? = nil) throws {
        guard let named = Self.format(of: path) else {
            throw ValidationError(
                "Name the document NAME.poddoc (a package) or NAME.tar.zst, NAME.zip or NAME.tar.gz (an archive); '\(path)' is none of these."
            )
        }
        if let format, format != named {
            let name = format == .package ? "NAME.poddoc" : "NAME.\(format.description)"
            throw ValidationError(
                "'\(path)' is the name of a \(named == .package ? "package" : "\(named.description) archive"), not of a \(format == .package ? "package" : "\(format.description) archive"); name it \(name), or leave out --format."
            )
        }
    }
}
