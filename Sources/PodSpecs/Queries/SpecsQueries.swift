import PodDocStore

/// The questions poddoc asks of imported specs: list, search, show, count.
///
/// Fetch-based queries run on a context (and see its unsaved changes); ``search(_:in:limit:)``
/// runs on the store's full-text index (saved specs only) and, like any store read, should be
/// called off the main actor.
///
/// ```swift
/// let list = ResultsController(SpecsQueries.listRequest(namePrefix: "AF"), context: main)
/// let ids = try SpecsQueries.search("json parser", in: store)
/// ```
public enum SpecsQueries {
    private typealias E = PodSpecsSchema.PodSpecEntity

    /// Specs sorted by name whatever its case (`AFNetworking`, `afnetworking-extras`,
    /// `Alamofire`), names that fold alike by their bytes, then by version in version order
    /// (`0.5.1` before `0.10.0`, pre-releases before releases); optionally only names starting
    /// with `namePrefix` (case-insensitive with Unicode case folding), and only those that
    /// declare Swift version `swift` (exactly as written: `5.9`). The folded name index serves
    /// the order and the prefix.
    public static func listRequest(namePrefix: String? = nil, swift: String? = nil, limit: Int? = nil, offset: Int = 0) -> FetchRequest {
        var predicate = namePrefix.map { E.nameKey.hasPrefix($0, caseInsensitive: true) } ?? .all
        if let swift { predicate = predicate && E.declaresSwift(swift) }
        return FetchRequest(
            E.name, where: predicate,
            sortBy: [FetchSort(E.nameKey, collation: .folded), FetchSort(E.nameKey), FetchSort(E.version, collation: .version)],
            limit: limit, offset: offset)
    }

    /// The specs of ``listRequest(namePrefix:swift:limit:offset:)``.
    ///
    /// - Throws: ``PodSpecsError`` (`.store`).
    public static func list(
        in context: ObjectContext, namePrefix: String? = nil, swift: String? = nil, limit: Int? = nil, offset: Int = 0
    ) throws -> [PodSpec] {
        do {
            return try context.fetch(listRequest(namePrefix: namePrefix, swift: swift, limit: limit, offset: offset)).map(
                PodSpec.init(object:))
        } catch {
            throw PodSpecsError.wrapping(error, while: "list specs")
        }
    }

    /// The number of specs (whose names start with `namePrefix`, when given).
    ///
    /// - Throws: ``PodSpecsError`` (`.store`).
    public static func count(in context: ObjectContext, namePrefix: String? = nil) throws -> Int {
        do {
            return try context.count(for: listRequest(namePrefix: namePrefix))
        } catch {
            throw PodSpecsError.wrapping(error, while: "count specs")
        }
    }

    /// One spec by name and version; without a version, the pod's highest version.
    ///
    /// - Throws: ``PodSpecsError`` (`.store`).
    public static func spec(named name: String, version: String? = nil, in context: ObjectContext) throws -> PodSpec? {
        do {
            if let version {
                return try context.fetchFirst(FetchRequest(E.name, where: E.key == PodSpec.key(name: name, version: version)))
                    .map(PodSpec.init(object:))
            }
            // The versions of the names that fold alike (one read of the folded name index),
            // then the name exactly. (With `name = ?` in the same query, SQLite would put the
            // name into the folded expression and no longer match the index.)
            let request = FetchRequest(
                E.name, where: E.nameKey.compare(.equal, name, collation: .folded),
                sortBy: [FetchSort(E.version, ascending: false, collation: .version)])
            return try context.fetch(request).first { $0[E.nameKey].utf8.elementsEqual(name.utf8) }.map(PodSpec.init(object:))
        } catch {
            throw PodSpecsError.wrapping(error, while: "read spec \(name)")
        }
    }

    /// Saved specs whose name, summary or description hold every word of `words`, best matches
    /// first (a match in the name weighs five times one in the summary, ten times one in the
    /// description, as CocoaPods' `pod search` puts names first): a word in a Latin, Greek or Cyrillic script as a word or a word prefix (case and
    /// accents folded), a Chinese, Japanese or Korean word anywhere in the text
    /// (`PodDocStore.SearchText`).
    ///
    /// The words are taken literally: FTS5 operators in them have no effect.
    ///
    /// - Parameters:
    ///   - words: Free text, e.g. `json parser` or `简单`.
    ///   - store: The store.
    ///   - limit: At most this many results.
    /// - Returns: The specs' object IDs, best match first (empty when `words` has no word).
    /// - Throws: ``PodSpecsError`` (`.store`).
    public static func search(_ words: String, in store: PersistentStore, limit: Int = 100) throws -> [ObjectID] {
        do {
            return try store.search(words, in: E.name, limit: limit)
        } catch {
            throw PodSpecsError.wrapping(error, while: "search specs for \(String(reflecting: words))")
        }
    }
}
