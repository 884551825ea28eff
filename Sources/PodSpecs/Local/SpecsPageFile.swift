import Foundation
import PodDocFileSystem

/// A file holding one page in the web service's format (`{"number_of_pages": …, "result":
/// [...]}`), such as `SampleDocuments/specs-2014-sample.json` or an export, or a single spec
/// (`Name.podspec.json`, as the trunk and `pod ipc spec` write it).
public struct SpecsPageFile: Sendable {
    /// The file.
    public let url: URL

    /// Describes a page file.
    public init(url: URL) {
        self.url = url
    }

    /// The identity of the file for checkpoints: its absolute path.
    public var sourceIdentifier: String { url.standardizedFileURL.path }

    /// Reads and parses the file as page 0 of 1: a `.podspec.json` file as one spec; any
    /// other as a page, or as one spec when it is not a page but a spec.
    ///
    /// - Throws: ``PodSpecsError``: `.fileSystem` when it cannot be read, `.malformedJSON`,
    ///   `.invalidPage` or the spec's own error naming the file.
    public func read() throws -> SpecsPage {
        let data: Data
        do {
            data = try FileSystem().readData(at: url)
        } catch {
            throw PodSpecsError(.fileSystem, "Could not read the page file \(url.path): \(error).", location: url.path, cause: error)
        }
        func single() throws -> SpecsPage {
            SpecsPage(index: 0, numberOfPages: 1, specs: [try PodSpecParser.parseSpec(data, location: url.path)])
        }
        if url.lastPathComponent.hasSuffix(SpecsFolder.specSuffix) { return try single() }
        var page: SpecsPage
        do {
            page = try PodSpecParser.parsePage(data, index: 0, location: url.path)
        } catch let error as PodSpecsError where error.code == .invalidPage {
            // Not a page: a spec, or else the page's error.
            guard let spec = try? single() else { throw error }
            return spec
        }
        page.numberOfPages = 1
        return page
    }
}
