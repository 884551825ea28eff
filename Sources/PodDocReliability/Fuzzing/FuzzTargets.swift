import Foundation
import OutlineInterchange
import Outliner
import PodDocArchive
import PodDocDocument
import PodSpecs

// MARK: - Every reader of outside input

extension FuzzTarget {
    /// Every target, in the order `poddoc-fuzz` runs them.
    public static let all: [FuzzTarget] = [specsPage, podspec, opml, markdown, plainText, jsonOutline, archive, metadata]

    /// The target named `name`, if any.
    public static func named(_ name: String) -> FuzzTarget? {
        all.first { $0.name == name }
    }

    private static let jsonTokens = [
        "{", "}", "[", "]", ",", ":", "\"", "\\u0000", "\\ud800", "null", "true", "-1e999", "0.0000001", "\"name\"", "\"version\"",
        "\"result\"", "\"number_of_pages\"", "\"source\"", "\"authors\"", "\"platforms\"", "\"children\"", "\"title\"", "\"note\"",
    ]

    /// A page of the specs web service (`{"number_of_pages": …, "result": [...]}`).
    static let specsPage = FuzzTarget(
        name: "specs-page",
        seeds: { fixtures, _ in
            let specs = try podspecFiles(fixtures).prefix(8).map { try String(decoding: Data(contentsOf: $0), as: UTF8.self) }
            return [
                Data("{\"number_of_pages\": 3, \"result\": [\(specs.joined(separator: ","))]}".utf8),
                Data("{\"number_of_pages\": 3, \"result\": null}".utf8),
            ]
        },
        read: { input, _ in _ = try PodSpecParser.parsePage(input, index: 0, location: "fuzz") },
        isClean: { $0 is PodSpecsError },
        tokens: jsonTokens)

    /// One `.podspec.json` file.
    static let podspec = FuzzTarget(
        name: "podspec",
        seeds: { fixtures, _ in try podspecFiles(fixtures).prefix(40).map { try Data(contentsOf: $0) } },
        read: { input, _ in _ = try PodSpecParser.parseSpec(input, location: "fuzz.podspec.json") },
        isClean: { $0 is PodSpecsError },
        tokens: jsonTokens)

    static let opml = outline(
        "opml", .opml,
        tokens: [
            "<", ">", "</", "/>", "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>", "<opml version=\"2.0\">", "<outline text=\"", "<body>",
            "<head>", "&amp;", "&#x0;", "&#xD800;", "&unknown;", "<![CDATA[", "]]>", "<!--", "-->", "<!DOCTYPE x [<!ENTITY a \"b\">]>",
            "\"", "'", "=",
        ])
    static let markdown = outline(
        "markdown", .markdown, tokens: ["- ", "* ", "+ ", "1. ", "  ", "\t", "\n", "# ", "> ", "\\", "`", "[ ] ", "\r\n"])
    static let plainText = outline("plain-text", .plainText, tokens: ["  ", "\t", "\n", "\r", "\\", "\u{FEFF}", "    "])
    static let jsonOutline = outline("json-outline", .json, tokens: jsonTokens)

    /// An outline reader, seeded with the OPML fixtures converted to its format.
    private static func outline(_ name: String, _ format: OutlineFormat, tokens: [String]) -> FuzzTarget {
        FuzzTarget(
            name: name,
            seeds: { fixtures, _ in
                let files = try FileManager.default.contentsOfDirectory(
                    at: fixtures.appendingPathComponent("opml"), includingPropertiesForKeys: nil
                )
                .filter { $0.pathExtension == "opml" }.sorted { $0.path < $1.path }
                var seeds: [Data] = []
                for file in files {
                    let data = try Data(contentsOf: file)
                    if format == .opml {
                        seeds.append(data)
                    } else if let tree = try? OutlineTree(opml: data), let converted = try? tree.data(format: format) {
                        seeds.append(converted.prefix(64 * 1024))
                    }
                }
                return seeds
            },
            read: { input, _ in _ = try OutlineTree(data: input, format: format) },
            isClean: { $0 is OutlineFormatError },
            tokens: tokens)
    }

    /// An archive of a document, extracted with every check on (`manifestPolicy: .require`):
    /// it must be refused cleanly or extracted inside the destination, never outside it.
    static let archive = FuzzTarget(
        name: "archive",
        seeds: { _, scratch in
            let source = scratch.appendingPathComponent("seed-source")
            try FileManager.default.createDirectory(at: source.appendingPathComponent("StoreContent"), withIntermediateDirectories: true)
            try Data("{\"formatVersion\": 1}\n".utf8).write(to: source.appendingPathComponent("DocumentMetadata.json"))
            try Data(repeating: 7, count: 300).write(to: source.appendingPathComponent("StoreContent/persistentStore"))
            try Manifest.create(in: source)
            var seeds: [Data] = []
            for format in ArchiveFormat.allCases {
                let file = scratch.appendingPathComponent("seed.\(format.fileExtension)")
                try Archive.write(directory: source, to: file, format: format, options: ArchiveWriteOptions(modificationTime: 0))
                seeds.append(try Data(contentsOf: file))
                try FileManager.default.removeItem(at: file)
            }
            try FileManager.default.removeItem(at: source)
            return seeds
        },
        read: { input, scratch in
            let file = scratch.appendingPathComponent("input.archive")
            let destination = scratch.appendingPathComponent("extracted")
            // Scratch input for the reader: durability does not matter, so no safe save.
            try input.write(to: file)
            defer { try? FileManager.default.removeItem(at: destination) }
            try Archive.extract(
                archive: file, into: destination, limits: ExtractionLimits(maximumTotalBytes: 64 << 20), manifestPolicy: .require)
            let escaped = try FileManager.default.contentsOfDirectory(atPath: scratch.path).filter {
                $0 != "input.archive" && $0 != "extracted"
            }
            guard escaped.isEmpty else { throw FuzzFinding("the archive wrote outside its destination: \(escaped)") }
        },
        isClean: { $0 is ArchiveError },
        tokens: [
            "ustar", "PK\u{3}\u{4}", "PK\u{1}\u{2}", "../", "/", "manifest-sha256.txt", "DocumentMetadata.json",
            "StoreContent/persistentStore", "\u{0}\u{0}\u{0}\u{0}", "\u{FF}\u{FF}\u{FF}\u{FF}", "0000777", "\u{28}\u{B5}\u{2F}\u{FD}",
            "\u{1F}\u{8B}\u{8}",
        ])

    /// `DocumentMetadata.json`.
    static let metadata = FuzzTarget(
        name: "metadata",
        seeds: { _, _ in
            [
                Data(
                    """
                    {
                      "additionalContent" : [{"path" : "a/b.txt", "sha256" : "3a6eb0790f39ac87c94f3856b2dd2c5d110e6811602261a9a923d3bb23adc8b7"}],
                      "created" : "2026-01-02T03:04:05Z",
                      "documentID" : "5C0F3C8A-3B8E-4C3B-9D0A-2E7B6F1A9C11",
                      "formatVersion" : 1,
                      "kind" : "pods",
                      "modified" : "2026-01-02T03:04:06Z",
                      "saveSequence" : 12,
                      "schemaVersion" : 1,
                      "storeHash" : "sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
                      "writer" : "poddoc 0.1.0"
                    }
                    """.utf8)
            ]
        },
        read: { input, _ in _ = try DocumentMetadata.decode(input, path: "DocumentMetadata.json") },
        isClean: { $0 is DocumentError },
        tokens: jsonTokens + [
            "\"kind\"", "\"outline\"", "\"saveSequence\"", "\"created\"", "\"2026-13-45T99:99:99Z\"", "9223372036854775807",
            "\"formatVersion\"",
        ])

    private static func podspecFiles(_ fixtures: URL) throws -> [URL] {
        let root = fixtures.appendingPathComponent("specs")
        guard let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) else { return [] }
        return walker.compactMap { $0 as? URL }.filter { $0.lastPathComponent.hasSuffix(".podspec.json") }.sorted { $0.path < $1.path }
    }
}

/// A problem the fuzzer found that is not a crash: an unclean error, or a reader misbehaving.
struct FuzzFinding: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
