import Foundation
import PodDocStore

// MARK: - CSV

extension SpecsExporter {
    /// The CSV header: one column per normalised field (authors as `Name <email>; …`,
    /// platforms as `ios 5.0; osx`).
    public static let csvColumns = [
        "key", "name", "version", "summary", "homepage", "license", "authors", "source_kind", "source_url",
        "source_tag", "source_commit", "source_branch", "platforms", "deprecated", "requires_arc",
    ]

    /// Writes one CSV row per spec (RFC 4180: comma separated, CRLF line ends, fields quoted
    /// when they hold a comma, quote or line break), with a header row.
    ///
    /// - Parameter file: The file to write (replaced safely if it exists).
    /// - Throws: ``PodSpecsError`` (`.store`, `.fileSystem`); the previous file is kept.
    @discardableResult
    public func exportCSV(to file: URL) throws -> ExportSummary {
        var summary = ExportSummary(files: 1)
        try run("export CSV to \(file.path)") { snapshot in
            let cursor = try snapshot.rows(SpecsQueries.listRequest(), reading: Self.csvAttributes)
            try fileSystem.write(to: file, replacingExisting: replacesExisting) { sink in
                var buffer = SpecsExporter.csvLine(SpecsExporter.csvColumns)
                while let row = try cursor.next() {
                    let name = row[E.nameKey]
                    let version = row[E.version]
                    let authors = (try? JSONDecoder().decode([PodAuthor].self, from: Data(row[E.authors].text.utf8))) ?? []
                    let platforms = (try? JSONDecoder().decode([PodPlatform].self, from: Data(row[E.platforms].text.utf8))) ?? []
                    let fields: [String?] = [
                        PodSpec.key(name: name, version: version), name, version, row[E.summary], row[E.homepage], row[E.licenseType],
                        authors.map { author in author.email.map { "\(author.name) <\($0)>" } ?? author.name }.joined(separator: "; "),
                        row[E.sourceKind], row[E.sourceURL], row[E.sourceTag], row[E.sourceCommit], row[E.sourceBranch],
                        platforms.map { platform in platform.deploymentTarget.map { "\(platform.name) \($0)" } ?? platform.name }.joined(
                            separator: "; "),
                        row[E.isDeprecated] ? "true" : "false",
                        row[E.requiresARC].map { $0 ? "true" : "false" },
                    ]
                    buffer += SpecsExporter.csvLine(fields.map { $0 ?? "" })
                    summary.specs += 1
                    if buffer.utf8.count >= 1 << 16 {
                        try sink.write(Data(buffer.utf8))
                        buffer = ""
                    }
                }
                try sink.write(Data(buffer.utf8))
            }
        }
        return summary
    }

    /// The attributes the CSV columns come from.
    private static let csvAttributes = [
        E.nameKey.name, E.version.name, E.summary.name, E.homepage.name, E.licenseType.name, E.authors.name,
        E.sourceKind.name, E.sourceURL.name, E.sourceTag.name, E.sourceCommit.name, E.sourceBranch.name,
        E.platforms.name, E.isDeprecated.name, E.requiresARC.name,
    ]

    /// One CSV record, CRLF-terminated.
    static func csvLine(_ fields: [String]) -> String {
        fields.map { field in
            guard field.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return field }
            return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        }.joined(separator: ",") + "\r\n"
    }
}
