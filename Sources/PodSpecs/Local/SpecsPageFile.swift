import Foundation
import PodDocFileSystem

/// A file holding one page in the web service's format (`{"number_of_pages": …, "result":
/// [...]}`), such as `SampleDocuments/specs-2014-sample.json` or an export.
public struct SpecsPageFile: Sendable {
    /// The file.
    public let url: URL

    /// Describes a page file.
    public init(url: URL) {
        self.url = url
    }

    /// The identity of the file for checkpoints: its absolute path.
    public var sourceIdentifier: String { url.standardizedFileURL.path }

    /// Reads and parses the file as page 0 of 1.
    ///
    /// - Throws: ``PodSpecsError``: `.fileSystem` when it cannot be read, `.malformedJSON` or
    ///   `.invalidPage` naming the file.
    public func read() throws -> SpecsPage {
        let data: Data
        do {
            data = try FileSystem().readData(at: url)
        } catch {
            throw PodSpecsError(.fileSystem, "Could not read the page file \(url.path): \(error).", location: url.path, cause: error)
        }
        var page = try PodSpecParser.parsePage(data, index: 0, location: url.path)
        page.numberOfPages = 1
        return page
    }
}
