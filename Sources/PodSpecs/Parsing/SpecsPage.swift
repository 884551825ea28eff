/// One page of the specs web service, `{"number_of_pages": P, "result": [spec, ...]}`, parsed.
public struct SpecsPage: Sendable {
    /// The page number (0 for a page file read from disk).
    public var index: Int
    /// The number of pages the service says it has.
    public var numberOfPages: Int
    /// The specs of the page that could be read, in page order.
    public var specs: [PodSpec]
    /// The elements of `result` that are not usable specs (well-formed JSON, wrong content).
    public var rejected: [RejectedSpec]
    /// Whether `result` was `null`: the service's way of saying the page is past the end.
    public var isPastEnd: Bool
    /// Files that are not specs at all, skipped (a `Specs/` folder's LICENSE, `.gitkeep`…).
    public var skipped: [String]
    /// Specs imported with a remark: a spec file whose folder names another pod or version
    /// than its JSON (imported as the JSON says).
    public var warnings: [String] = []

    /// Makes a page.
    public init(
        index: Int, numberOfPages: Int, specs: [PodSpec], rejected: [RejectedSpec] = [],
        isPastEnd: Bool = false, skipped: [String] = []
    ) {
        self.index = index
        self.numberOfPages = numberOfPages
        self.specs = specs
        self.rejected = rejected
        self.isPastEnd = isPastEnd
        self.skipped = skipped
    }
}

/// Something that was not imported as a spec, and why: a malformed spec file, a spec without
/// a name, a stray file in a `Specs/` folder.
public struct RejectedSpec: Sendable, Hashable, CustomStringConvertible {
    /// The file, or the page and position, of the rejected item.
    public var location: String
    /// Why it was not imported.
    public var reason: String

    /// Makes a rejection.
    public init(location: String, reason: String) {
        self.location = location
        self.reason = reason
    }

    /// `location: reason`.
    public var description: String { "\(location): \(reason)" }
}
