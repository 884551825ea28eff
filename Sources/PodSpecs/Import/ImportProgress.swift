/// How far an import has got, reported after each save.
public struct ImportProgress: Sendable, Hashable {
    /// The source being imported (service URL, folder or file).
    public var source: String
    /// Pages saved so far in this run.
    public var pagesDone: Int
    /// The last page saved (its index in the source).
    public var lastCompletedPage: Int
    /// The number of pages the source has, when known.
    public var numberOfPages: Int?
    /// Specs saved so far in this run (created or updated).
    public var specsDone: Int
    /// Time since the run started.
    public var elapsed: Duration

    /// Specs saved per second in this run.
    public var specsPerSecond: Double {
        let seconds = elapsed.seconds
        return seconds > 0 ? Double(specsDone) / seconds : 0
    }

    /// The time the remaining pages should take at this run's rate; nil while unknown.
    public var estimatedTimeLeft: Duration? {
        guard let numberOfPages, pagesDone > 0 else { return nil }
        let left = max(0, numberOfPages - 1 - lastCompletedPage)
        return elapsed * (Double(left) / Double(pagesDone))
    }

    /// The fraction of the source's pages saved, from 0 to 1, when the page count is known.
    public var fractionCompleted: Double? {
        guard let numberOfPages, numberOfPages > 0 else { return nil }
        return min(1, Double(lastCompletedPage + 1) / Double(numberOfPages))
    }
}

/// What an import did.
public struct ImportSummary: Sendable {
    /// The source imported.
    public var source: String
    /// The first page this run imported (after the checkpoint when resuming).
    public var firstPage: Int
    /// The last page saved, or -1 when none.
    public var lastCompletedPage: Int
    /// The number of pages the source has, when known.
    public var numberOfPages: Int?
    /// Pages imported in this run (saved, or found unchanged).
    public var pages: Int = 0
    /// Specs that were not in the store before.
    public var created: Int = 0
    /// Specs that were already in the store and changed, updated in place.
    public var updated: Int = 0
    /// Specs that were already in the store as the source has them: not written again.
    public var unchanged: Int = 0
    /// Specs dropped because the previous page already had them (the reference server
    /// repeats each page's last spec as the next page's first).
    public var repeated: Int = 0
    /// Well-formed items that were not usable specs, with the reason (every one of them).
    public var rejected: [RejectedSpec] = []
    /// Files that are not specs at all (stray files of a `Specs/` folder), skipped.
    public var skipped: [String] = []
    /// Specs imported with a remark (a spec file whose folder disagrees with its JSON).
    public var warnings: [String] = []
    /// Whether the import reached the source's last page.
    public var isComplete: Bool = false
    /// How long the run took.
    public var elapsed: Duration = .zero

    /// Specs of the source that this run found usable: created, updated or unchanged.
    public var specs: Int { created + updated + unchanged }
}

extension Duration {
    /// The duration in seconds, as a double.
    var seconds: Double {
        let (s, attoseconds) = components
        return Double(s) + Double(attoseconds) / 1e18
    }
}
