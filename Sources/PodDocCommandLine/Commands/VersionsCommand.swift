import ArgumentParser
import Foundation
import PodDocDocument
import PodDocJSON
import PodDocStore

/// `poddoc versions DOC`.
struct VersionsCommand: PodDocCommand {
    static let configuration = CommandConfiguration(
        commandName: "versions",
        abstract: "List a document's saves, newest first: number, time, host, who, what was done and what changed.",
        discussion: Examples.discussion(
            """
            Every save records what it changed in the document's history, which travels with the \
            document in archives: the objects inserted, updated (which properties) and deleted, \
            when, on which host, by whom, and the undo action names of the edits it saved. An \
            import that saves batch after batch is one entry. The document keeps its last 10,000 \
            saves.
            """,
            [
                "poddoc versions Notes.poddoc",
                "poddoc versions Notes.poddoc --last 5 --json",
            ]))

    @OptionGroup var location: DocumentArgument
    @OptionGroup var reading: ReadingOptions

    @Option(name: .customLong("last"), help: ArgumentHelp("List only the newest N entries.", valueName: "N"))
    var last: Int?

    @OptionGroup var outputOptions: OutputOptions

    /// What `versions` prints with `--json`: the entries, newest first.
    struct Shape: Encodable {
        struct Entry: Encodable {
            let save: Int
            let firstSave: Int
            /// UTC, ISO 8601.
            let time: String
            let host: String
            /// Who saved and with which program, as the history records them: `user, program`.
            let writer: String
            /// ``writer``'s user and program apart (the program nil when the history names none).
            var user: String { Self.split(writer).user }
            var program: String? { Self.split(writer).program }
            let description: String
            let inserted: Int
            let updated: Int
            let deleted: Int
            let summary: String

            /// `root, poddoc 0.1.0` as its user and program.
            static func split(_ writer: String) -> (user: String, program: String?) {
                guard let comma = writer.range(of: ", ") else { return (writer, nil) }
                return (String(writer[..<comma.lowerBound]), String(writer[comma.upperBound...]))
            }

            init(_ entry: HistoryEntry) {
                (save, firstSave, time, host, writer) = (entry.save, entry.firstSave, entry.timestamp, entry.host, entry.writer)
                (description, inserted, updated, deleted, summary) = (
                    entry.description, entry.inserted, entry.updated, entry.deleted, entry.summary
                )
            }
        }
        let path: String
        let versions: [Entry]
    }

    func validate() throws {
        if let last, last < 1 { throw ValidationError("--last takes a number of entries, 1 or more; \(last) lists nothing.") }
    }

    func execute() async throws {
        let document = try await DocumentAccess.open(location, mode: .read, command: "poddoc versions")
        let store = document.rootContext.store
        let limit = last
        let history: [HistoryEntry]
        do {
            history = try await Task.detached { try store.history(limit: limit) }.value
        } catch {
            try? await document.close()
            throw error
        }
        try await document.close()
        let shape = Shape(
            path: location.document,
            versions: history.map(Shape.Entry.init))
        if outputOptions.json {
            outputOptions.output.line(Self.json(shape))
        } else {
            outputOptions.output.line(Self.text(shape))
        }
    }

    /// The `--json` shape, written directly (keys sorted, as every `--json` shape): for 10,000
    /// entries `JSONEncoder` takes longer than reading the history.
    static func json(_ shape: Shape) -> String {
        var out = "{\"path\":"
        JSONEscaping.appendQuoted(shape.path, to: &out)
        out += ",\"versions\":["
        for (offset, entry) in shape.versions.enumerated() {
            out += offset == 0 ? "{\"deleted\":" : ",{\"deleted\":"
            out += "\(entry.deleted),\"description\":"
            JSONEscaping.appendQuoted(entry.description, to: &out)
            out += ",\"firstSave\":\(entry.firstSave),\"host\":"
            JSONEscaping.appendQuoted(entry.host, to: &out)
            out += ",\"inserted\":\(entry.inserted)"
            if let program = entry.program {
                out += ",\"program\":"
                JSONEscaping.appendQuoted(program, to: &out)
            }
            out += ",\"save\":\(entry.save),\"summary\":"
            JSONEscaping.appendQuoted(entry.summary, to: &out)
            out += ",\"time\":"
            JSONEscaping.appendQuoted(entry.time, to: &out)
            out += ",\"updated\":\(entry.updated),\"user\":"
            JSONEscaping.appendQuoted(entry.user, to: &out)
            out += ",\"writer\":"
            JSONEscaping.appendQuoted(entry.writer, to: &out)
            out += "}"
        }
        return out + "]}"
    }

    private static func text(_ shape: Shape) -> String {
        guard !shape.versions.isEmpty else {
            return "\(shape.path): no saves recorded (the history starts with the first save by this version of poddoc)"
        }
        var lines: [String] = []
        for entry in shape.versions {
            let number = entry.firstSave == entry.save ? "save \(entry.save)" : "saves \(entry.firstSave)–\(entry.save)"
            let who = [entry.host, entry.writer].filter { !$0.isEmpty }.joined(separator: ", ")
            lines.append("\(number)  \(entry.time)\(who.isEmpty ? "" : "  \(who)")")
            if !entry.description.isEmpty { lines.append("  \(entry.description)") }
            lines.append("  \(entry.summary)")
        }
        return lines.joined(separator: "\n")
    }
}
