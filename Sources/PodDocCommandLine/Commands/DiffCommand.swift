import ArgumentParser
import Foundation
import Outliner
import PodDocDocument
import PodDocStore
import PodSpecs

/// `poddoc diff A B`, `poddoc diff DOC --from N [--to M]`.
struct DiffCommand: PodDocCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "Show what changed between two copies of a document, or one document at two saves.",
        discussion: Examples.discussion(
            """
            Outlines: items added, removed, moved, renamed, notes changed (items are matched by \
            identity, so both must be copies of one document). Pods: versions added or removed, \
            and the fields that changed in a version both hold (any two pods documents compare). \
            Both documents are only read.
            """,
            [
                "poddoc diff Notes.poddoc Notes-laptop.poddoc.tar.zst",
                "poddoc diff Notes.poddoc --from 1   # save 1 against now",
                "poddoc diff Notes.poddoc --from 1 --to 2 --json",
                "poddoc diff Notes.poddoc Notes-laptop.poddoc.tar.zst --exit-code || echo \"they differ\"",
            ]))

    @OptionGroup var location: DocumentArgument
    @OptionGroup var reading: ReadingOptions

    @Argument(help: "The later copy to compare the first with (leave out with --from).", completion: .file())
    var other: String?

    @Option(
        name: .customLong("from"),
        help: ArgumentHelp("Compare the document as it was after save N (`poddoc versions` lists them)…", valueName: "N"))
    var from: Int?

    @Option(
        name: .customLong("to"), help: ArgumentHelp("…with the document as it was after save M (default: as it is now).", valueName: "M"))
    var to: Int?

    @Flag(
        name: .customLong("exit-code"),
        help: "Exit with status 1 when anything differs and 0 when nothing does, as diff(1) and `git diff --exit-code` do.")
    var exitCode = false

    @OptionGroup var outputOptions: OutputOptions

    /// What `diff` prints with `--json`: one of `items` (outlines) and `specs` (pods).
    struct Shape: Encodable {
        let from: String
        let to: String
        let kind: String
        let items: [OutlineDiff.Change]?
        let specs: [SpecsDiff.Change]?
        /// A kind with no diff of its own: its objects, by entity and property.
        var objects: [ObjectDiff.Change]? = nil
    }

    func validate() throws {
        if other != nil && (from != nil || to != nil) {
            throw ValidationError("Compare two documents, or one document at two saves (--from, --to), not both.")
        }
        if other == nil && from == nil {
            throw ValidationError("Name a second document, or a save to compare with (--from N; `poddoc versions` lists them).")
        }
        if to != nil && from == nil { throw ValidationError("--to goes with --from (the earlier save).") }
        if let from, from < 0 { throw ValidationError("--from takes a save number, 0 or more.") }
        if let to, to < 0 { throw ValidationError("--to takes a save number, 0 or more.") }
    }

    func execute() async throws {
        Interrupts.shared.stopOnTermination()
        let first = try await DocumentAccess.open(location, mode: .read, command: "poddoc diff")
        var opened = [first]
        var copies: PastCopies?
        do {
            let name = location.document
            let earlier: ManagedDocument
            let later: ManagedDocument
            let labels: (String, String)
            if let other {
                let second = try await DocumentAccess.open(try DocumentArgument.parse([other]), mode: .read, command: "poddoc diff")
                opened.append(second)
                try Self.checkComparable(first, name, second, other)
                (earlier, later, labels) = (first, second, (name, other))
            } else {
                let past = try PastCopies(for: "diff")
                copies = past
                earlier = try await past.document(first, at: from!)
                if let to { later = try await past.document(first, at: to) } else { later = first }
                labels = ("\(name) at save \(from!)", to.map { "\(name) at save \($0)" } ?? name)
            }
            let shape = try await Self.compare(earlier, later, labels)
            await copies?.close()
            for document in opened { try await document.close() }
            opened = []
            outputOptions.output.emit(shape, text: Self.text(shape))
            if exitCode && (shape.items?.isEmpty == false || shape.specs?.isEmpty == false) { throw ShellExit(status: .failure) }
        } catch let stop as ShellExit {
            throw stop
        } catch {
            await copies?.close()
            for document in opened { try? await document.close() }
            throw error
        }
    }

    /// Two documents compare when they are of one kind; outlines, when they are copies of one
    /// document (their items are matched by identity).
    @MainActor private static func checkComparable(_ a: ManagedDocument, _ aName: String, _ b: ManagedDocument, _ bName: String) throws {
        guard a.metadata.kind == b.metadata.kind else {
            throw CommandFailure(
                .badInput, code: "badInput",
                "\(aName) holds \(a.metadata.kind.rawValue) and \(bName) holds \(b.metadata.kind.rawValue): only documents of one kind compare."
            )
        }
        if a.metadata.kind != .pods && a.metadata.documentID != b.metadata.documentID {
            throw CommandFailure(
                .badInput, code: "badInput",
                "\(aName) and \(bName) are different outlines (their document IDs differ); diff compares copies of one outline, or one outline at two saves (--from N)."
            )
        }
    }

    @MainActor private static func compare(
        _ earlier: ManagedDocument, _ later: ManagedDocument, _ labels: (String, String)
    ) async throws -> Shape {
        let (a, b) = (earlier.rootContext.store, later.rootContext.store)
        switch earlier.metadata.kind {
        case .outline:
            let diff = try await Task.detached { try OutlineDiff(from: a, to: b) }.value
            return Shape(from: labels.0, to: labels.1, kind: "outline", items: diff.changes, specs: nil)
        case .pods:
            let diff = try await Task.detached { try SpecsDiff(from: a, to: b) }.value
            return Shape(from: labels.0, to: labels.1, kind: "pods", items: nil, specs: diff.changes)
        default:
            let diff = try await Task.detached { try ObjectDiff(from: a, to: b) }.value
            return Shape(from: labels.0, to: labels.1, kind: earlier.metadata.kind.rawValue, items: nil, specs: nil, objects: diff.changes)
        }
    }

    private static func text(_ shape: Shape) -> String {
        var lines: [String] = []
        var counts: [String: Int] = [:]
        func quoted(_ text: String) -> String { "\"\(text)\"" }
        func items(_ n: Int?) -> String {
            guard let n, n > 0 else { return "" }
            return " (and \(n) item\(n == 1 ? "" : "s") below it)"
        }
        for change in shape.items ?? [] {
            let place = change.path.isEmpty ? "the outline" : "\(change.path) \(quoted(change.title))"
            switch change.kind {
            case .added: lines.append("+ \(place)\(items(change.below))")
            case .removed: lines.append("- \(place)\(items(change.below))")
            case .moved: lines.append("> \(place) moved from \(change.from ?? "")")
            case .renamed: lines.append("~ \(place) renamed from \(quoted(change.from ?? ""))")
            case .noteChanged: lines.append("~ \(place): note changed")
            case .changed: lines.append("~ \(place): \((change.properties ?? []).joined(separator: ", ")) changed")
            }
            counts[change.kind.rawValue, default: 0] += 1
        }
        for change in shape.specs ?? [] {
            switch change.kind {
            case .added: lines.append("+ \(change.name) \(change.version)")
            case .removed: lines.append("- \(change.name) \(change.version)")
            case .changed: lines.append("~ \(change.name) \(change.version): \((change.fields ?? []).joined(separator: ", "))")
            }
            counts[change.kind.rawValue, default: 0] += 1
        }
        for change in shape.objects ?? [] {
            switch change.kind {
            case .added: lines.append("+ \(change.entity) \(change.id)")
            case .removed: lines.append("- \(change.entity) \(change.id)")
            case .changed: lines.append("~ \(change.entity) \(change.id): \(change.properties.joined(separator: ", "))")
            }
            counts[change.kind.rawValue, default: 0] += 1
        }
        let order = ["added", "removed", "moved", "renamed", "noteChanged", "changed"]
        let names = ["noteChanged": "note changed", "changed": shape.kind == "outline" ? "other changes" : "changed"]
        let summary = order.compactMap { key in counts[key].map { "\($0) \(names[key] ?? key)" } }.joined(separator: ", ")
        lines.append(summary.isEmpty ? "No differences between \(shape.from) and \(shape.to)." : "\(shape.from) → \(shape.to): \(summary).")
        return lines.joined(separator: "\n")
    }
}
