import ArgumentParser
import PodDocDocument
import PodDocStore
import PodSpecs

/// What pods queries print with `--json`: one entry per spec.
struct SpecShape: Encodable {
    let name: String
    let version: String
    let summary: String?
    let homepage: String?

    init(_ spec: PodSpec) {
        name = spec.name
        version = spec.version
        summary = spec.summary
        homepage = spec.homepage
    }

    /// `Name 1.2.3  summary`.
    var line: String { TerminalText.oneLine("\(name) \(version)" + (summary.map { "  \($0)" } ?? "")) }

    /// `{"specs": [...]}`.
    struct List: Encodable {
        let specs: [SpecShape]
    }

    static func emit(_ specs: [PodSpec], empty: String, to output: Output) {
        let shapes = specs.map(SpecShape.init)
        output.emit(List(specs: shapes), text: shapes.isEmpty ? empty : shapes.map(\.line).joined(separator: "\n"))
    }
}

/// `ls [PREFIX] [--limit N]`.
struct ListSpecs: DocumentOperation {
    static let name = "ls"
    static let examples = [
        "poddoc pods ls Specs.poddoc AFJSON",
        "poddoc pods ls Specs.poddoc --limit 20 --json",
    ]
    static let abstract = "List specs by name and version, optionally those whose names start with a prefix."
    static let kind: DocumentKind? = .pods
    static let changesDocument = false

    @Argument(help: "Only names starting with this (case-insensitive).")
    var prefix: String?

    @Option(
        help: ArgumentHelp(
            "Only specs that declare this Swift version (swift_versions or swift_version), as written: 5.9.", valueName: "version"))
    var swift: String?

    @Option(help: "Show at most this many specs.")
    var limit = 50

    func validate() throws {
        if let swift, swift.trimmingCharacters(in: .whitespaces).isEmpty {
            throw ValidationError("--swift needs a Swift version as specs write it, such as 5.9.")
        }
    }

    func perform(in session: DocumentSession) async throws {
        let prefix = self.prefix
        let swift = self.swift
        let limit = self.limit
        let specs = try await session.reader().perform { try SpecsQueries.list(in: $0, namePrefix: prefix, swift: swift, limit: limit) }
        SpecShape.emit(specs, empty: swift.map { "No spec declares Swift \($0)." } ?? "No spec.", to: session.output)
    }
}

/// `search WORDS…`.
struct SearchSpecs: DocumentOperation {
    static let name = "search"
    static let examples = [
        "poddoc pods search Specs.poddoc json rpc",
        "poddoc pods search Specs.poddoc networking --limit 5 --json",
    ]
    static let abstract = "Search the saved specs' summaries and descriptions, best matches first."
    static let kind: DocumentKind? = .pods
    static let changesDocument = false

    @Argument(help: "Words to look for (each as a word or word prefix).")
    var words: [String]

    @Option(help: "Show at most this many specs.")
    var limit = 20

    func perform(in session: DocumentSession) async throws {
        let text = words.joined(separator: " ")
        let limit = self.limit
        let store = session.document.rootContext.store
        let ids = try await Task.detached { try SpecsQueries.search(text, in: store, limit: limit) }.value
        let specs = try await session.reader().perform { context in
            try ids.compactMap { try context.existingObject(with: $0).map(PodSpec.init(object:)) }
        }
        SpecShape.emit(specs, empty: "No spec matches.", to: session.output)
    }
}

/// `show NAME [VERSION]`.
struct ShowSpec: DocumentOperation {
    static let name = "show"
    static let examples = [
        "poddoc pods show Specs.poddoc AFJSONRPCClient   # the newest version",
        "poddoc pods show Specs.poddoc AFNetworking 2.0.0 --json",
    ]
    static let abstract = "Show one spec (the highest version unless one is given); --json prints its original JSON."
    static let kind: DocumentKind? = .pods
    static let changesDocument = false

    @Argument(help: "The pod's name.")
    var podName: String

    @Argument(help: "The version (default: the highest).")
    var version: String?

    func perform(in session: DocumentSession) async throws {
        let name = podName
        let version = self.version
        guard let spec = try await session.reader().perform({ try SpecsQueries.spec(named: name, version: version, in: $0) }) else {
            throw CommandFailure(
                .badInput, code: "notFound",
                "There is no spec \(name)\(version.map { " \($0)" } ?? ""); `search` or `ls \(name.prefix(2))` finds names.")
        }
        if session.output.json {
            session.output.line(spec.json.text)
            return
        }
        var lines = ["\(spec.name) \(spec.version)"]
        if let summary = spec.summary { lines.append("  summary:  \(summary)") }
        if let homepage = spec.homepage { lines.append("  homepage: \(homepage)") }
        if let license = spec.license?.type { lines.append("  license:  \(license)") }
        if !spec.authors.isEmpty { lines.append("  authors:  \(spec.authors.map(\.name).joined(separator: ", "))") }
        if let source = spec.source { lines.append("  source:   \(source.url)\(source.tag.map { " (\($0))" } ?? "")") }
        lines = lines.map(TerminalText.oneLine)
        if !spec.platforms.isEmpty {
            lines.append(
                "  platforms: \(spec.platforms.map { $0.name + ($0.deploymentTarget.map { " \($0)" } ?? "") }.joined(separator: ", "))")
        }
        if !spec.swiftVersions.isEmpty { lines.append("  swift:    \(spec.swiftVersions.joined(separator: ", "))") }
        session.output.line(lines.joined(separator: "\n"))
    }
}

/// `count [PREFIX]`.
struct CountSpecs: DocumentOperation {
    static let name = "count"
    static let examples = [
        "poddoc pods count Specs.poddoc",
        "poddoc pods count Specs.poddoc AF --json",
    ]
    static let abstract = "Count the specs, or those whose names start with a prefix."
    static let kind: DocumentKind? = .pods
    static let changesDocument = false

    @Argument(help: "Only names starting with this (case-insensitive).")
    var prefix: String?

    struct Shape: Encodable {
        let count: Int
    }

    func perform(in session: DocumentSession) async throws {
        let prefix = self.prefix
        let count = try await session.reader().perform { try SpecsQueries.count(in: $0, namePrefix: prefix) }
        session.output.emit(Shape(count: count), text: "\(count) spec\(count == 1 ? "" : "s")")
    }
}
