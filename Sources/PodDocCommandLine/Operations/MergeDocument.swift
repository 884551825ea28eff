import ArgumentParser
import Foundation
import Outliner
import PodDocDocument
import PodDocFileSystem
import PodDocStore
import PodSpecs

extension MergeSide: ExpressibleByArgument {}

/// `merge THEIRS [--prefer mine|theirs] [--two-way]`: the changes another copy of the document
/// made that this one has not seen, onto this one, as one save (``CopyMerge``).
struct MergeDocument: DocumentOperation {
    static let name = "merge"
    static let examples = [
        "poddoc merge Notes.poddoc Notes-laptop.poddoc.tar.zst",
        "poddoc merge Notes.poddoc Notes-laptop.poddoc.tar.zst --prefer theirs",
    ]
    static let abstract =
        "Merge the changes of another copy of the document that this one has not seen, as one save; conflicts are listed and nothing changes (exit 75) unless --prefer resolves them."
    static let kind: DocumentKind? = nil
    static let changesDocument = true

    @Argument(help: "The other copy of the document (a package or an archive); it is only read.", completion: .file())
    var theirs: String

    @Option(help: "Resolve every conflict one way: mine (keep this copy's) or theirs (take the other's).")
    var prefer: MergeSide?

    @Flag(
        help: """
            When the copies share no save whose changes both still keep (their histories were let go), merge anyway: \
            every difference is then a conflict, resolved by --prefer (or one by one in the shell).
            """)
    var twoWay = false

    @Option(
        help: ArgumentHelp(
            "A copy of the document as it was when the two copies parted (git's merge base): used when their histories share no save whose changes both still keep.",
            valueName: "copy"),
        completion: .file())
    var base: String?

    @Flag(
        help: """
            When THEIRS is a copy a sync tool kept beside this document after a conflict \
            (Name.sync-conflict-…, Name (… conflicted copy …)), remove it once its changes are merged in.
            """)
    var removeCopy = false

    /// What `merge` prints with `--json`.
    struct Shape: Codable {
        /// A property's value in a conflict, as JSON: a string, a number, `null`, or
        /// `{"bytes": n}` for data.
        enum Value: Codable, Equatable {
            case text(String)
            case integer(Int64)
            case real(Double)
            case none
            case bytes(Int)

            init(_ value: StoreValue) {
                switch value {
                case .null: self = .none
                case .integer(let v): self = .integer(v)
                case .real(let v): self = .real(v)
                case .text(let s): self = .text(s)
                case .blob(let d): self = .bytes(d.count)
                }
            }

            private struct Data: Codable { let bytes: Int }

            init(from decoder: any Decoder) throws {
                let container = try decoder.singleValueContainer()
                if container.decodeNil() {
                    self = .none
                } else if let integer = try? container.decode(Int64.self) {
                    self = .integer(integer)
                } else if let real = try? container.decode(Double.self) {
                    self = .real(real)
                } else if let text = try? container.decode(String.self) {
                    self = .text(text)
                } else {
                    self = .bytes(try container.decode(Data.self).bytes)
                }
            }

            func encode(to encoder: any Encoder) throws {
                var container = encoder.singleValueContainer()
                switch self {
                case .text(let s): try container.encode(s)
                case .integer(let v): try container.encode(v)
                case .real(let v): try container.encode(v)
                case .none: try container.encodeNil()
                case .bytes(let count): try container.encode(Data(bytes: count))
                }
            }

            /// As a conflict's line shows it: text quoted (and cut at 60 characters).
            var display: String {
                switch self {
                case .none: return "none"
                case .integer(let v): return String(v)
                case .real(let v): return String(v)
                case .text(let s): return "\"" + (s.count > 60 ? s.prefix(57) + "…" : s) + "\""
                case .bytes(let count): return "\(count) bytes"
                }
            }
        }

        struct Conflict: Codable {
            let kind: String
            let entity: String
            let id: Int64
            let title: String?
            /// Where the item is (`2.1`), for outlines: in this copy, or in the other one when this
            /// copy deleted it or never had it.
            let path: String?
            let properties: [String]
            let mine: [Value]
            let theirs: [Value]
            /// For a delete against a change: the items the changing copy put under this one
            /// that the deleting copy had not seen, by title (or entity and id when untitled).
            let placedUnder: [String]
        }
        let outcome: String
        let commonSave: Int
        let changed: Int
        let conflicts: [Conflict]
        let preferred: String?
        let notes: [String]
    }

    func perform(in session: DocumentSession) async throws {
        let document = session.document
        // The merge works from what the copies' stores hold: edits not yet saved are saved first.
        if document.hasUnsavedChanges { try await document.autosave() }
        let theirsURL = URL(fileURLWithPath: theirs).standardizedFileURL
        if removeCopy {
            guard let mine = document.fileURL,
                ManagedDocument.syncConflictCopies(of: mine).map(\.standardizedFileURL.path).contains(theirsURL.path)
            else {
                throw CommandFailure(
                    .usage, code: "usage",
                    "--remove-copy removes only a copy a sync tool kept beside this document after a conflict (Name.sync-conflict-…, Name (… conflicted copy …)); \(theirs) is not one, so it stays. Merge without --remove-copy."
                )
            }
        }
        // Another machine's store a sync tool kept inside this package: merged as the copy of
        // the document it is (this package's metadata around it), then let go.
        var kept: (store: URL, scratch: ScratchFolder)?
        var theirsPath = theirs
        if document.format == .package, let root = document.fileURL,
            SyncConflictFiles(inPackage: root).stores.map(\.standardizedFileURL.path).contains(theirsURL.path)
        {
            let scratch = try ScratchFolder(prefix: "poddoc-kept")
            kept = (theirsURL, scratch)
            theirsPath = try SyncConflictFiles.package(around: theirsURL, of: root, in: scratch.url).path
        }
        defer { kept?.scratch.remove() }
        guard FileManager.default.fileExists(atPath: theirsPath) else {
            // `poddoc new` makes a document no copy shares a save with: never the advice here.
            throw CommandFailure(
                .document, code: "notFound",
                "\(theirsPath) does not exist. Check the path; a copy to merge is made from the document with `poddoc save DOC --as COPY`.")
        }
        let other = try await DocumentAccess.open(try DocumentArgument.parse([theirsPath]), mode: .read, command: "poddoc merge")
        var baseDocument: ManagedDocument?
        var plan: CopyMerge
        var conflicts: [Shape.Conflict] = []
        do {
            guard other.metadata.kind == document.metadata.kind, other.metadata.documentID == document.metadata.documentID else {
                throw CommandFailure(
                    .badInput, code: "notACopy",
                    "\(theirs) is not a copy of this document (its document ID differs); merge joins copies of one document. `poddoc diff` compares any two pods documents."
                )
            }
            if let base {
                let opened = try await DocumentAccess.open(try DocumentArgument.parse([base]), mode: .read, command: "poddoc merge")
                baseDocument = opened
                guard opened.metadata.documentID == document.metadata.documentID else {
                    throw CommandFailure(
                        .badInput, code: "notACopy",
                        "\(base) is not a copy of this document (its document ID differs), so it cannot be the merge's base.")
                }
            }
            let baseStore = baseDocument?.rootContext.store
            let (mine, theirsStore) = (document.rootContext.store, other.rootContext.store)
            let prefer = self.prefer
            let twoWay = self.twoWay
            func makePlan(_ choices: [ObjectID: MergeSide]) async throws -> CopyMerge {
                try await Progress.watching("merge") {
                    try await Task.detached {
                        try CopyMerge.plan(
                            mine: mine, theirs: theirsStore, preferring: prefer, choices: choices,
                            twoWay: twoWay, base: baseStore)
                    }.value
                }
            }
            plan = try await makePlan([:])
            // What the plan read of both histories is let go: its pages go back before the save.
            FreedMemory.giveBack()
            // In the shell, the conflicts are resolved one at a time.
            if !plan.canApply, let ask = session.ask {
                var choices: [ObjectID: MergeSide] = [:]
                for (index, conflict) in plan.conflicts.enumerated() {
                    let shown = Self.describe(conflictShape(of: conflict, in: session, theirs: other))
                    let answer = await ask("conflict \(index + 1) of \(plan.conflicts.count): \(shown)\nkeep mine or take theirs? [m/t] ")
                    switch answer?.trimmingCharacters(in: .whitespaces).lowercased() {
                    case "m", "mine": choices[conflict.objectID] = .mine
                    case "t", "theirs": choices[conflict.objectID] = .theirs
                    default:
                        throw CommandFailure(.usage, code: "usage", "Merge stopped (answer m or t to each conflict); nothing was merged.")
                    }
                }
                plan = try await makePlan(choices)
            }
            conflicts = plan.conflicts.map { conflictShape(of: $0, in: session, theirs: other) }
            try await other.close()
            try await baseDocument?.close()
        } catch {
            try? await other.close()
            try? await baseDocument?.close()
            throw error
        }
        guard plan.canApply else {
            // The conflicts are the command's data (standard output); the failure is one line.
            let shape = Shape(
                outcome: "conflicts", commonSave: plan.commonSave.mine, changed: 0, conflicts: conflicts, preferred: nil, notes: [])
            session.output.emitNow(shape, text: conflicts.map { "conflict: " + Self.describe($0) }.joined(separator: "\n"))
            throw CommandFailure(
                .locked, code: "mergeConflict",
                "\(conflicts.count) conflict\(conflicts.count == 1 ? "" : "s") (listed on standard output): the same thing changed differently in both copies, so nothing was merged. Run again with --prefer mine or --prefer theirs to resolve them all one way."
            )
        }
        let name = "Merge \(URL(fileURLWithPath: theirs).lastPathComponent)"
        var changed = 0
        if plan.outcome != .upToDate {
            let summary = try await document.saveMerge(plan, named: name)
            changed = summary.inserted + summary.updated + summary.deleted
            session.currentItem = nil
        }
        var notes = plan.moved.map { moved in
            let place =
                moved.parent.map { parent in
                    title(of: parent, in: document).map { $0.isEmpty ? "the top level" : "\"\($0)\"" }
                        ?? "\(parent.entityName) \(parent.rowID ?? 0)"
                } ?? "the top level"
            let object =
                title(of: moved.objectID, in: document).map { "\"\($0)\"" } ?? "\(moved.objectID.entityName) \(moved.objectID.rowID ?? 0)"
            return "\(object) was put under \(place): the item it was under was deleted in one of the copies"
        }
        if let kept, let root = document.fileURL {
            // Its edits are in this copy now (and its saves in the save graph): the files the
            // sync tool kept can go.
            let files = SyncConflictFiles(inPackage: root)
            for file in [kept.store] + files.metadata where FileManager.default.fileExists(atPath: file.path) {
                try FileSystem().removeItem(at: file)
                notes.append("\(file.lastPathComponent), which a sync tool kept after a conflict, is merged in and removed")
            }
        }
        if removeCopy {
            // Its changes are in this copy now, and its saves in this copy's save graph.
            try FileSystem().removeItem(at: theirsURL)
            notes.append("\(theirsURL.lastPathComponent) is merged in and removed")
        }
        for note in notes { session.output.message("poddoc: note: \(note).") }
        let shape = Shape(
            outcome: plan.outcome.rawValue, commonSave: plan.commonSave.mine, changed: changed, conflicts: conflicts,
            preferred: conflicts.isEmpty ? nil : plan.choices.isEmpty ? plan.preference?.rawValue : "each", notes: notes)
        session.output.emit(shape, text: Self.text(shape, theirs: theirs))
    }

    /// A conflict as the user sees it: the item's title and place in this copy, or in the
    /// other copy (`theirs`) when this one deleted it or never had it.
    @MainActor private func conflictShape(of conflict: CopyConflict, in session: DocumentSession, theirs: ManagedDocument) -> Shape.Conflict
    {
        let here = title(of: conflict.objectID, in: session.document)
        return Shape.Conflict(
            kind: conflict.kind.rawValue, entity: conflict.objectID.entityName, id: conflict.objectID.rowID ?? 0,
            title: here ?? title(of: conflict.objectID, in: theirs),
            path: here != nil ? path(of: conflict.objectID, in: session.document) : path(of: conflict.objectID, in: theirs),
            properties: conflict.properties, mine: conflict.mine.map(Shape.Value.init),
            theirs: conflict.theirs.map(Shape.Value.init),
            placedUnder: conflict.placedUnder.map { id in
                let holder = conflict.kind == .deletedHereChangedThere ? theirs : session.document
                return title(of: id, in: holder) ?? "\(id.entityName) \(id.rowID ?? 0)"
            })
    }

    /// What a user recognises the object by: an item's title, a spec's `name/version`.
    @MainActor private func title(of id: ObjectID, in document: ManagedDocument) -> String? {
        guard let object = try? document.mainContext.existingObject(with: id) else { return nil }
        switch document.metadata.kind {
        case .outline: return object[OutlineSchema.title]
        case .pods where id.entityName == PodSpecsSchema.PodSpecEntity.name: return object[PodSpecsSchema.PodSpecEntity.key]
        default: return nil
        }
    }

    /// An item's place in `document`, for outlines: `2.1`.
    @MainActor private func path(of id: ObjectID, in document: ManagedDocument) -> String? {
        guard document.metadata.kind == .outline, let outline = try? OutlineStore(context: document.mainContext),
            let indexes = try? outline.indexPath(of: id), !indexes.isEmpty
        else { return nil }
        return indexes.map(String.init).joined(separator: ".")
    }

    /// A conflict in one line: the item, and each property's two values.
    static func describe(_ conflict: Shape.Conflict) -> String {
        let object =
            "\(conflict.entity) \(conflict.id)" + (conflict.path.map { " at \($0)" } ?? "") + (conflict.title.map { " \"\($0)\"" } ?? "")
        let properties = conflict.properties.joined(separator: ", ")
        let placed = conflict.placedUnder.isEmpty ? nil : Self.placed(conflict.placedUnder)
        switch conflict.kind {
        case "changedHereDeletedThere" where properties.isEmpty:
            return "\(object): \(placed.map { "\($0) put under it here" } ?? "kept here against a delete"), deleted in the other copy"
        case "changedHereDeletedThere":
            return "\(object): changed here (\(properties))\(placed.map { ", \($0) put under it" } ?? ""), deleted in the other copy"
        case "deletedHereChangedThere" where properties.isEmpty:
            return "\(object): deleted here, \(placed.map { "\($0) put under it" } ?? "kept against a delete") in the other copy"
        case "deletedHereChangedThere":
            return "\(object): deleted here, changed in the other copy (\(properties))\(placed.map { ", \($0) put under it there" } ?? "")"
        case "movedIntoEachOther": return "\(object): each copy moved it under the other's item"
        default:
            let pairs = conflict.properties.indices.map { index in
                "\(conflict.properties[index]): mine \(conflict.mine[safe: index]?.display ?? "?"), theirs \(conflict.theirs[safe: index]?.display ?? "?")"
            }
            return "\(object): \(pairs.joined(separator: "; "))"
        }
    }

    /// Items put under a deleted one, for a conflict's line: `"Milk"` or `"Milk" and 2 more`.
    private static func placed(_ items: [String]) -> String {
        "\"\(items[0])\"" + (items.count == 1 ? "" : " and \(items.count - 1) more")
    }

    private static func text(_ shape: Shape, theirs: String) -> String {
        switch shape.outcome {
        case "upToDate": return "Nothing to merge: this copy already holds everything \(theirs) saved."
        case "fastForward":
            return
                "Took \(theirs)'s content: it already held everything this copy saved (\(shape.changed) object\(shape.changed == 1 ? "" : "s") changed)."
        default:
            var text = "Merged \(theirs) (common save \(shape.commonSave)): \(shape.changed) object\(shape.changed == 1 ? "" : "s") changed"
            if !shape.conflicts.isEmpty {
                let how = shape.preferred == "each" ? "one by one" : "as \(shape.preferred ?? "")"
                text += "; \(shape.conflicts.count) conflict\(shape.conflicts.count == 1 ? "" : "s") resolved \(how)"
                text += shape.conflicts.map { "\n  " + describe($0) }.joined()
            }
            return text + "."
        }
    }
}

extension Array {
    fileprivate subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
