import Foundation
import PodDocStore

// MARK: - Storing specs in managed objects

extension PodSpec {
    private typealias E = PodSpecsSchema.PodSpecEntity

    /// Writes every field into a `PodSpec` object (the key included).
    ///
    /// - Precondition: `object` is a ``PodSpecsSchema/PodSpecEntity`` object, used on its
    ///   context's queue.
    public func write(to object: ManagedObject) {
        var object = object
        write(to: &object)
    }

    /// Writes every field (the key included) into a `PodSpec` object or a row of a
    /// `PodDocStore.BatchUpsert` of `PodSpec`s.
    ///
    /// - Precondition: `object` is of the ``PodSpecsSchema/PodSpecEntity`` entity.
    public func write(to object: inout some AttributeSettable) {
        object[E.key] = key
        object[E.nameKey] = name
        object[E.version] = version
        object[E.summary] = summary
        object[E.description] = description
        object[E.homepage] = homepage
        object[E.licenseType] = license?.type
        object[E.licenseFile] = license?.file
        object[E.licenseText] = license?.text
        object[E.authors] = JSONText(JSONWriter.array(of: authors.map { [("name", $0.name), ("email", $0.email)] }))
        object[E.sourceKind] = source?.kind.rawValue
        object[E.sourceURL] = source?.url
        object[E.sourceTag] = source?.tag
        object[E.sourceCommit] = source?.commit
        object[E.sourceBranch] = source?.branch
        object[E.platforms] = JSONText(
            JSONWriter.array(of: platforms.map { [("name", $0.name), ("deploymentTarget", $0.deploymentTarget)] }))
        object[E.socialMediaURL] = socialMediaURL
        object[E.isDeprecated] = isDeprecated
        object[E.deprecatedInFavorOf] = deprecatedInFavorOf
        object[E.requiresARC] = requiresARC
        object[E.swiftVersions] = PodSpecsSchema.PodSpecEntity.storedSwiftVersions(swiftVersions)
        object[E.json] = json
    }

    /// Reads a spec back from a `PodSpec` object.
    ///
    /// - Precondition: `object` is a ``PodSpecsSchema/PodSpecEntity`` object, used on its
    ///   context's queue.
    /// - Throws: ``PodSpecsError`` (`.store`) when the stored authors or platforms are not
    ///   the JSON poddoc writes (a store edited by hand).
    public init(object: ManagedObject) throws {
        let decoder = JSONDecoder()
        func decode<T: Decodable>(_ type: T.Type, _ text: JSONText, _ field: String) throws -> T {
            do {
                return try decoder.decode(T.self, from: Data(text.text.utf8))
            } catch {
                throw PodSpecsError(
                    .store, "The stored \(field) of \(object.objectID) are not valid: \(error). Re-import the spec.", cause: error)
            }
        }
        let licenseParts = (object[E.licenseType], object[E.licenseFile], object[E.licenseText])
        let sourceKind = object[E.sourceKind].flatMap(PodSource.Kind.init(rawValue:))
        self.init(
            name: object[E.nameKey], version: object[E.version],
            summary: object[E.summary], description: object[E.description], homepage: object[E.homepage],
            license: licenseParts == (nil, nil, nil) ? nil : PodLicense(type: licenseParts.0, file: licenseParts.1, text: licenseParts.2),
            authors: try decode([PodAuthor].self, object[E.authors], "authors"),
            source: sourceKind.map {
                PodSource(
                    kind: $0, url: object[E.sourceURL] ?? "", tag: object[E.sourceTag],
                    commit: object[E.sourceCommit], branch: object[E.sourceBranch])
            },
            platforms: try decode([PodPlatform].self, object[E.platforms], "platforms"),
            socialMediaURL: object[E.socialMediaURL],
            isDeprecated: object[E.isDeprecated], deprecatedInFavorOf: object[E.deprecatedInFavorOf],
            requiresARC: object[E.requiresARC],
            swiftVersions: PodSpecsSchema.PodSpecEntity.swiftVersions(stored: object[E.swiftVersions]), json: object[E.json])
    }
}
