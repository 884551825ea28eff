import Foundation
import PodSpecs

/// The specs of a page file (such as `SampleDocuments/specs-2014-sample.json`), read once into
/// memory (their JSON only), in list order.
public struct PageFileSpecsCatalog: SpecsCatalog {
    /// The specs' JSON, in name and version order.
    private let texts: [String]
    /// Specs in the file that could not be read, with the reason.
    public let rejected: [RejectedSpec]

    /// Reads a page file.
    ///
    /// - Throws: `PodSpecsError` (`.fileSystem`, `.malformedJSON`, `.invalidPage`).
    public init(file: SpecsPageFile) throws {
        let page = try file.read()
        texts = page.specs.sorted(by: PodSpec.isInListOrder).map(\.json.text)
        rejected = page.rejected
    }

    /// The number of specs.
    public func count() async throws -> Int { texts.count }

    /// The JSON of a range of specs.
    public func json(in range: Range<Int>) async throws -> [String] {
        Array(texts[range.clamped(to: texts.indices)])
    }
}
