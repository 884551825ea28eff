import Foundation
import GRDB

/// What a GRDB user would write to import the same pages: each page decoded with
/// `JSONDecoder` into Codable specs (``DecodedPage``), one record `upsert` a spec, every page
/// in one write (WAL, `synchronous=FULL`), the name, summary and description kept in FTS5 by GRDB's
/// own synchronisation triggers (`synchronize(withTable:)`, `unicode61 remove_diacritics 2`).
/// The pages come from memory, not over HTTP, so the peer is measured without the network.
enum GRDBRecordPeer {
    struct SpecRecord: Codable, PersistableRecord, FetchableRecord {
        static let databaseTableName = "spec"
        var key: String
        var name: String
        var version: String
        var summary: String?
        var description: String?
        var homepage: String?
        var licenseType: String?
        var licenseFile: String?
        var authors: String?
        var sourceKind: String?
        var sourceURL: String?
        var sourceTag: String?
        var platforms: String?
        var requiresARC: Bool?
        var socialMediaURL: String?

        init(_ spec: DecodedSpec) {
            key = spec.name + "/" + spec.version
            name = spec.name
            version = spec.version
            summary = spec.summary
            description = spec.description
            homepage = spec.homepage
            switch spec.license {
            case .type(let type): licenseType = type
            case .object(let object):
                licenseType = object["type"]
                licenseFile = object["file"]
            case nil: break
            }
            switch spec.authors {
            case .string(let name): authors = name
            case .array(let names): authors = names.joined(separator: ", ")
            case .object(let names): authors = names.keys.sorted().joined(separator: ", ")
            case nil: break
            }
            if let source = spec.source {
                sourceKind = source["git"] != nil ? "git" : source.keys.sorted().first
                sourceURL = source["git"] ?? source["http"]
                sourceTag = source["tag"]
            }
            platforms = spec.platforms.map { $0.keys.sorted().joined(separator: ",") }
            requiresARC = spec.requiresARC
            socialMediaURL = spec.socialMediaURL
        }
    }

    static func run(_ pages: [Data], at url: URL) throws {
        var configuration = Configuration()
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA synchronous = FULL") }
        let queue = try DatabasePool(path: url.path, configuration: configuration)
        try queue.write { db in
            try db.create(table: "spec") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("key", .text).notNull().unique()
                for column in [
                    "name", "version", "summary", "description", "homepage", "licenseType", "licenseFile", "authors", "sourceKind",
                    "sourceURL", "sourceTag", "platforms", "socialMediaURL",
                ] {
                    t.column(column, .text)
                }
                t.column("requiresARC", .boolean)
            }
            try db.create(index: "spec_name", on: "spec", columns: ["name"])
            try db.create(virtualTable: "spec_ft", using: FTS5()) { t in
                t.synchronize(withTable: "spec")
                t.tokenizer = .unicode61(diacritics: .remove)
                t.column("name")
                t.column("summary")
                t.column("description")
            }
        }
        try queue.write { db in
            for page in pages {
                for spec in try JSONDecoder().decode(DecodedPage.self, from: page).result ?? [] {
                    try SpecRecord(spec).upsert(db)
                }
            }
        }
    }
}
