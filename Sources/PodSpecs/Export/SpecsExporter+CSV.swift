import Foundation
import GRDB
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
        try run("export CSV to \(file.path)") { db in
            let cursor = try rows(db)
            try fileSystem.write(to: file, replacingExisting: replacesExisting) { sink in
                var buffer = SpecsExporter.csvLine(SpecsExporter.csvColumns)
                while let row = try cursor.next() {
                    let name: String = row[2], version: String = row[3]
                    let authors = (try? JSONDecoder().decode([PodAuthor].self, from: Data((row[7] as String).utf8))) ?? []
                    let platforms = (try? JSONDecoder().decode([PodPlatform].self, from: Data((row[13] as String).utf8))) ?? []
                    let fields: [String?] = [
                        PodSpec.key(name: name, version: version), name, version, row[4], row[5], row[6],
                        authors.map { author in author.email.map { "\(author.name) <\($0)>" } ?? author.name }.joined(separator: "; "),
                        row[8], row[9], row[10], row[11], row[12],
                        platforms.map { platform in platform.deploymentTarget.map { "\(platform.name) \($0)" } ?? platform.name }.joined(separator: "; "),
                        (row[14] as Bool) ? "true" : "false",
                        (row[15] as Bool?).map { $0 ? "true" : "false" },
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

    /// One CSV record, CRLF-terminated.
    static func csvLine(_ fields: [String]) -> String {
        fields.map { field in
            guard field.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return field }
            return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        }.joined(separator: ",") + "\r\n"
    }
}
