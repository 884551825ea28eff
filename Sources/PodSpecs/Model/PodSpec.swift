import PodDocStore

/// One version of one pod, normalised from its `.podspec.json`, with the original JSON kept
/// verbatim in ``json`` so that exporting it loses nothing.
///
/// Real specs are messy (see `shared/data/README.md`): authors come as an object, a string
/// or an array; a license as a string or an object; a source as git, http, svn or hg;
/// deployment targets may be null or numbers; `requires_arc` may be a string or an array.
/// ``PodSpecParser`` turns each shape into these fields.
///
/// ```swift
/// let spec = try PodSpecParser.parseSpec(data, location: "AFNetworking.podspec.json")
/// print(spec.key, spec.license?.type ?? "-", spec.authors.map(\.name))
/// ```
public struct PodSpec: Sendable, Hashable {
    /// The separator between name and version in ``key``. Neither a pod name nor a version
    /// may contain it (the CocoaPods index itself separates them with `/`).
    public static let keySeparator: Character = "/"

    /// The pod's name.
    public var name: String
    /// The version string, exactly as written.
    public var version: String
    /// A one-line summary.
    public var summary: String?
    /// The longer description.
    public var description: String?
    /// The home page URL.
    public var homepage: String?
    /// The license, from a string (type only) or an object.
    public var license: PodLicense?
    /// The authors, in the order written, from an object, a string or an array.
    public var authors: [PodAuthor]
    /// Where the code comes from.
    public var source: PodSource?
    /// The platforms and their deployment targets, in the order written.
    public var platforms: [PodPlatform]
    /// The social media URL.
    public var socialMediaURL: String?
    /// Whether the spec says it is deprecated (`deprecated`, or `deprecated_in_favor_of`).
    public var isDeprecated: Bool
    /// The pod to use instead, when deprecated in favour of one.
    public var deprecatedInFavorOf: String?
    /// Whether the code needs ARC: nil when the spec does not say. A file pattern, `"true"`,
    /// `"yes"` or an array holding `true` count as true.
    public var requiresARC: Bool?
    /// The Swift versions the spec declares (`swift_versions`, then `swift_version`), in order,
    /// each once; only versions made of letters, digits and `.+_-` are kept.
    public var swiftVersions: [String]
    /// The original spec JSON, byte for byte.
    public var json: JSONText

    /// The unique identifier: name, ``keySeparator``, version.
    public var key: String { PodSpec.key(name: name, version: version) }

    /// The unique identifier of a name and version.
    public static func key(name: String, version: String) -> String {
        name + String(keySeparator) + version
    }

    /// Makes a spec from its parts; ``PodSpecParser`` makes them from JSON.
    public init(
        name: String, version: String, summary: String? = nil, description: String? = nil,
        homepage: String? = nil, license: PodLicense? = nil, authors: [PodAuthor] = [],
        source: PodSource? = nil, platforms: [PodPlatform] = [], socialMediaURL: String? = nil,
        isDeprecated: Bool = false, deprecatedInFavorOf: String? = nil, requiresARC: Bool? = nil,
        swiftVersions: [String] = [], json: JSONText
    ) {
        self.swiftVersions = swiftVersions
        self.name = name
        self.version = version
        self.summary = summary
        self.description = description
        self.homepage = homepage
        self.license = license
        self.authors = authors
        self.source = source
        self.platforms = platforms
        self.socialMediaURL = socialMediaURL
        self.isDeprecated = isDeprecated
        self.deprecatedInFavorOf = deprecatedInFavorOf
        self.requiresARC = requiresARC
        self.json = json
    }
}

// MARK: - List order

extension PodSpec {
    /// The order specs are listed in everywhere: by name whatever its case
    /// (`PodDocStore.Collation.folded`, as the folded name index orders them), names that
    /// fold alike by their UTF-8 bytes, then by version in `PodDocStore.VersionOrder`.
    public static func isInListOrder(_ lhs: PodSpec, _ rhs: PodSpec) -> Bool {
        if lhs.name.utf8.elementsEqual(rhs.name.utf8) { return VersionOrder.compare(lhs.version, rhs.version) < 0 }
        let folded = Collation.folded.compare(lhs.name, rhs.name)
        return folded != 0 ? folded < 0 : lhs.name.utf8.lexicographicallyPrecedes(rhs.name.utf8)
    }
}
