import Foundation
import Glibc
import PodDocDocument

/// Where a command is about to write, checked before anything is written: poddoc never
/// replaces or deletes a file or folder it did not create (unless told to with `--force`), and
/// never writes into the document it is reading, nor over a folder that holds it.
///
/// Paths are compared after resolving symbolic links and `..` (of the part that exists), so
/// `DOC/../DOC/AdditionalContent/x` and a link into the document are caught as well.
struct OutputPath {
    /// The path as the user gave it, made absolute.
    let url: URL
    /// Whether something (a file, a folder, a link) is already there.
    let exists: Bool

    /// Checks `path` as an output of a command working on `document`.
    ///
    /// - Parameters:
    ///   - replacing: The user passed `--force`: an existing file or folder may be replaced
    ///     (by one atomic swap, after the new one is complete).
    ///   - offersForce: Whether the command has `--force`, which the refusal then suggests.
    /// - Throws: ``CommandFailure`` naming the path and what to do instead.
    @MainActor
    init(_ path: String, document: ManagedDocument, replacing: Bool, offersForce: Bool = true) throws(CommandFailure) {
        url = URL(fileURLWithPath: path)
        var status = stat()
        exists = lstat(url.path, &status) == 0
        let output = Self.resolved(url)
        for part in Self.protectedPaths(of: document) {
            if output == part || output.hasPrefix(part + "/") {
                throw CommandFailure(
                    .usage, code: "outputInsideDocument",
                    "\(path) is inside the document \(document.fileURL?.path ?? part); writing there would damage it. Write somewhere outside the document."
                )
            }
            if part.hasPrefix(output + "/") {
                throw CommandFailure(
                    .usage, code: "outputHoldsDocument",
                    "\(path) holds the document \(document.fileURL?.path ?? part); poddoc will not write over it. Write somewhere else.")
            }
        }
        if exists && !replacing {
            throw CommandFailure(
                .document, code: "exists",
                "\(path) already exists; poddoc does not replace what it did not create. Choose a new name\(offersForce ? ", or pass --force to replace it" : ", or move it away first")."
            )
        }
    }

    /// The document's own files: the package or archive, and an archive's working copy.
    @MainActor
    private static func protectedPaths(of document: ManagedDocument) -> [String] {
        var urls: [URL] = []
        if let file = document.fileURL { urls.append(file) }
        if let copy = document.workingCopyPackage { urls.append(copy) }
        return urls.map(resolved)
    }

    /// The absolute path with every symbolic link and `..` resolved: `realpath` of the
    /// longest part that exists, with the rest appended (lexically standardised).
    static func resolved(_ url: URL) -> String {
        var existing = url.standardizedFileURL
        var rest: [String] = []
        while existing.path != "/" {
            if let real = realpath(existing.path, nil) {
                defer { free(real) }
                return ([String(cString: real)] + rest.reversed()).joined(separator: "/").replacingOccurrences(of: "//", with: "/")
            }
            rest.append(existing.lastPathComponent)
            existing.deleteLastPathComponent()
        }
        return "/" + rest.reversed().joined(separator: "/")
    }
}
