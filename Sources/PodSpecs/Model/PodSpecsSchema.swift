import PodDocStore

/// The entities pod specs live in, and their typed keys, for composing a document's model.
///
/// ```swift
/// let model = try ObjectModel(
///     version: PodSpecsSchema.version, entities: PodSpecsSchema.entities + otherEntities,
///     migrations: PodSpecsSchema.migrations, earlierVersions: try PodSpecsSchema.earlierVersions())
/// let request = FetchRequest(PodSpecsSchema.PodSpecEntity.name, where: PodSpecsSchema.PodSpecEntity.nameKey.hasPrefix("AF"))
/// ```
///
/// Authors, license, source and platforms are columns of the spec, not entities of their
/// own: see `docs/DESIGN.md`, "Content kinds", for why.
public enum PodSpecsSchema {
    /// The version of the pods model: 2 added ``PodSpecEntity/swiftVersions``.
    public static let version = 2

    /// Every entity pod specs need: ``PodSpecEntity`` and ``ImportCheckpointEntity``.
    public static let entities: [EntityDescription] = [PodSpecEntity.entity, ImportCheckpointEntity.entity]

    /// A model of these entities alone (version ``version``), for tools and tests that hold
    /// nothing else.
    ///
    /// - Throws: `PodDocStore.StoreError` if the model is invalid (it is not).
    public static func makeModel() throws -> ObjectModel {
        try ObjectModel(version: version, entities: entities, migrations: migrations, earlierVersions: earlierVersions())
    }

    /// The earlier versions of the pods model, for documents that do not record theirs
    /// (written before poddoc recorded models): version 1, without the Swift versions.
    public static func earlierVersions() throws -> [ObjectModel] {
        typealias E = PodSpecEntity
        let version1 = EntityDescription(
            E.name,
            members: [
                E.key, E.nameKey, E.version, E.summary, E.description, E.homepage, E.licenseType, E.licenseFile, E.licenseText,
                E.authors, E.sourceKind, E.sourceURL, E.sourceTag, E.sourceCommit, E.sourceBranch, E.platforms,
                E.socialMediaURL, E.isDeprecated, E.deprecatedInFavorOf, E.requiresARC, E.json,
            ],
            fullTextAttributes: [E.nameKey.name, E.summary.name, E.description.name], fullTextWeights: [10, 2, 1])
        return [try ObjectModel(version: 1, entities: [version1, ImportCheckpointEntity.entity])]
    }

    /// The custom stages of the pods model's migrations: version 2 reads the Swift versions
    /// of the specs a document already holds from their JSON, as an import would.
    public static let migrations: [SchemaMigration] = [
        SchemaMigration(to: 2) { db in
            typealias E = PodSpecEntity
            // Only specs that mention them are parsed (a scan SQLite does in C).
            var found: [(Int64, String)] = []
            try db.forEachRow(
                sql: #"SELECT "id", "json" FROM "PodSpec" WHERE instr("json", '"swift_version') > 0"#
            ) { row in
                guard case .integer(let id) = row[0], case .text(let json) = row[1] else { return }
                let versions = SpecReader.swiftVersions(inSpecJSON: json)
                if let stored = E.storedSwiftVersions(versions) { found.append((id, stored)) }
            }
            for (id, stored) in found {
                try db.execute(sql: #"UPDATE "PodSpec" SET "swiftVersions" = ? WHERE "id" = ?"#, arguments: [.text(stored), .integer(id)])
            }
        }
    ]

    // MARK: - PodSpec

    /// One pod spec version; unique by ``key`` (`name/version`). Its name, summary and
    /// description are in a full-text index (`PodDocStore.EntityDescription.fullTextTable`),
    /// a match in the name ranked above any match in the summary, and one there above the
    /// description.
    public enum PodSpecEntity {
        /// The entity name.
        public static let name = "PodSpec"
        /// `name/version`: the unique identifier.
        public static let key = Attribute<String>("key", unique: true)
        /// The pod name, indexed case-folded (one index serves listings in case-insensitive
        /// order, prefixes and lookups by name: compare with `PodDocStore.Collation.folded`,
        /// then exactly).
        public static let nameKey = Attribute<String>("name", caseInsensitiveIndex: true)
        /// The version string as written (sort with `PodDocStore.Collation.version`).
        public static let version = Attribute<String>("version")
        /// The one-line summary.
        public static let summary = Attribute<String?>("summary")
        /// The longer description.
        public static let description = Attribute<String?>("description")
        /// The home page URL.
        public static let homepage = Attribute<String?>("homepage")
        /// The license type (`MIT`…).
        public static let licenseType = Attribute<String?>("licenseType")
        /// The license file named by the spec.
        public static let licenseFile = Attribute<String?>("licenseFile")
        /// The license text given inline.
        public static let licenseText = Attribute<String?>("licenseText")
        /// The authors, normalised: a JSON array of `{"name", "email"?}` objects.
        public static let authors = Attribute<JSONText>("authors")
        /// `git`, `http`, `svn` or `hg`.
        public static let sourceKind = Attribute<String?>("sourceKind")
        /// The repository or archive URL.
        public static let sourceURL = Attribute<String?>("sourceURL")
        /// The source tag.
        public static let sourceTag = Attribute<String?>("sourceTag")
        /// The source commit or revision.
        public static let sourceCommit = Attribute<String?>("sourceCommit")
        /// The source branch.
        public static let sourceBranch = Attribute<String?>("sourceBranch")
        /// The platforms, normalised: a JSON array of `{"name", "deploymentTarget"?}` objects.
        public static let platforms = Attribute<JSONText>("platforms")
        /// The social media URL.
        public static let socialMediaURL = Attribute<String?>("socialMediaURL")
        /// Whether the spec is deprecated.
        public static let isDeprecated = Attribute<Bool>("deprecated", default: false)
        /// The pod to use instead.
        public static let deprecatedInFavorOf = Attribute<String?>("deprecatedInFavorOf")
        /// Whether ARC is required (nil: the spec does not say).
        public static let requiresARC = Attribute<Bool?>("requiresARC")
        /// The Swift versions the spec declares, as a JSON array of strings (`["4.2","5.0"]`;
        /// nil for none): ``storedSwiftVersions(_:)``. Added in version 2.
        public static let swiftVersions = Attribute<String?>("swiftVersions")
        /// The original JSON, verbatim.
        public static let json = Attribute<JSONText>("json")

        /// How ``swiftVersions`` keeps a spec's versions: a JSON array of strings; nil for none.
        /// The versions hold no character JSON escapes (``PodSpec/swiftVersions``).
        public static func storedSwiftVersions(_ versions: [String]) -> String? {
            versions.isEmpty ? nil : "[" + versions.map { "\"\($0)\"" }.joined(separator: ",") + "]"
        }

        /// The versions ``storedSwiftVersions(_:)`` kept.
        public static func swiftVersions(stored: String?) -> [String] {
            guard let stored, stored.count > 2 else { return [] }
            return stored.dropFirst(2).dropLast(2).components(separatedBy: "\",\"")
        }

        /// Specs that declare Swift version `version` (exactly as written in the spec).
        public static func declaresSwift(_ version: String) -> ObjectPredicate {
            swiftVersions.contains("\"\(version)\"")
        }

        /// The entity declaration.
        public static let entity = EntityDescription(
            name,
            members: [
                key, nameKey, version, summary, description, homepage, licenseType, licenseFile, licenseText,
                authors, sourceKind, sourceURL, sourceTag, sourceCommit, sourceBranch, platforms,
                socialMediaURL, isDeprecated, deprecatedInFavorOf, requiresARC, swiftVersions, json,
            ],
            fullTextAttributes: [nameKey.name, summary.name, description.name], fullTextWeights: [10, 2, 1])
    }

    // MARK: - ImportCheckpoint

    /// How far an import from one source got: saved in the same transaction as the specs of
    /// the pages it counts, so it never claims a page that was not saved.
    public enum ImportCheckpointEntity {
        /// The entity name.
        public static let name = "ImportCheckpoint"
        /// The source: the service's page URL, or a folder or file path.
        public static let source = Attribute<String>("source", unique: true)
        /// The last page whose specs are all saved (-1: none yet).
        public static let lastCompletedPage = Attribute<Int>("lastCompletedPage", default: -1)
        /// The number of pages the source had at the last save.
        public static let numberOfPages = Attribute<Int>("numberOfPages", default: 0)
        /// Whether the import reached the last page.
        public static let isComplete = Attribute<Bool>("complete", default: false)

        /// The entity declaration.
        public static let entity = EntityDescription(name, members: [source, lastCompletedPage, numberOfPages, isComplete])
    }
}
