import ArgumentParser
import PodDocDocument

/// A ``DocumentOperation`` as a command of its own: `poddoc outline add DOC TITLE`. It opens
/// the document (read-only for operations that only read: they write nothing to it, and work
/// on read-only disks), runs the operation, saves what changed, and closes; a failed
/// operation leaves the document as it was.
struct OneShot<Operation: DocumentOperation>: PodDocCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: Operation.name, abstract: Operation.abstract, discussion: Examples.discussion(Operation.examples))
    }

    @OptionGroup var location: DocumentArgument
    @OptionGroup var operation: Operation
    @OptionGroup var outputOptions: OutputOptions

    @Flag(
        name: .customLong("read-only"),
        help:
            "Open the document read-only: it works while another process edits it, and changes no file. Commands that only read always do; one that changes the document refuses it."
    )
    var readOnly = false

    var json: Bool { outputOptions.json }

    func execute() async throws {
        let operation = self.operation
        let group = Operation.kind.map { "\($0.rawValue) " } ?? ""
        if readOnly && operation.changesDocument {
            throw CommandFailure(
                .usage, code: "usage",
                "`poddoc \(group)\(Operation.name)` changes the document, so it cannot run --read-only; commands that only read (ls, tree, find, show, search, count, export, save --as) open read-only by themselves."
            )
        }
        Interrupts.shared.stopOnTermination()
        if !operation.changesDocument && !location.recover,
            let waiting = ManagedDocument.waitingWork(for: location.url)
        {
            outputOptions.output.message(
                "poddoc: note: work autosaved \(waiting.modified.formatted(.iso8601)) waits for recovery; this reads \(location.document) as it is on disk (--recover reads the waiting work; `poddoc recover \(location.document)` brings it back)."
            )
        }
        // What an edit reports is printed once its save committed, never before.
        let held = HeldOutput()
        let output = operation.changesDocument ? outputOptions.output.holding(held) : outputOptions.output
        try await DocumentAccess.with(
            location, mode: operation.changesDocument ? .edit(autosave: nil) : .read,
            kind: Operation.kind, command: "poddoc \(group)\(Operation.name)"
        ) { document in
            try await operation.perform(in: DocumentSession(document: document, output: output))
        }
        held.flush()
        if let number = Interrupts.shared.stoppedBy {
            output.message(
                "poddoc: \(Interrupts.name(of: number)) came while the work was being saved; the save completed, and nothing more is left to do."
            )
        }
    }
}

/// `poddoc outline <operation> DOC …`.
struct OutlineCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "outline",
        abstract: "Read and edit an outline document, one operation per command.",
        discussion: Examples.discussion(
            "Items are named by positions from 1 (1.3.2) or by titles (/Work/Projects; a / inside a title is written \\/, as in /Work/Q3\\/Q4). Each command opens the document, does one thing, saves and closes; `poddoc open` keeps it open in a shell with undo.",
            [
                "poddoc outline tree Notes.poddoc",
                "poddoc outline add Notes.poddoc Bread --under /Groceries",
                "poddoc outline done Notes.poddoc /Groceries/Bread",
            ]),
        subcommands: OperationSets.outline.map { $0.oneShot })
}

/// `poddoc pods <operation> DOC …`.
struct PodsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pods",
        abstract: "Query a pods document, one operation per command.",
        discussion: Examples.discussion([
            "poddoc pods search Specs.poddoc json rpc",
            "poddoc pods show Specs.poddoc AFJSONRPCClient",
        ]),
        subcommands: OperationSets.pods.map { $0.oneShot })
}

/// `poddoc objects <operation> DOC …`.
struct ObjectsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "objects",
        abstract: "Read the objects of any document, whatever its kind, with the model its store records.",
        discussion: Examples.discussion(
            "For documents of an app's own kind (and pods and outlines alike): the entities, each entity's objects, one object. `poddoc export DOC FILE --format objects` writes them all as JSON.",
            [
                "poddoc objects ls Chores.poddoc",
                "poddoc objects ls Chores.poddoc Task",
                "poddoc objects show Chores.poddoc Task 1",
            ]),
        subcommands: OperationSets.objects.map { $0.oneShot })
}

extension DocumentOperation {
    /// This operation as a one-shot command.
    static var oneShot: any ParsableCommand.Type { OneShot<Self>.self }
}

/// The operations of each kind of document, in the order `help` lists them.
enum OperationSets {
    static let outline: [any DocumentOperation.Type] = [
        ListItems.self, PrintTree.self, FindItems.self, AddItem.self, InsertItem.self, MoveItem.self,
        RenameItem.self, SetNote.self, MarkDone.self, MarkUndone.self, IndentItem.self, OutdentItem.self, RemoveItem.self,
    ]
    static let pods: [any DocumentOperation.Type] = [ListSpecs.self, SearchSpecs.self, ShowSpec.self, CountSpecs.self]
    /// Operations on the objects of any document, whatever its model.
    static let objects: [any DocumentOperation.Type] = [ListObjects.self, ShowObject.self]
    /// Operations for documents of both kinds.
    static let shared: [any DocumentOperation.Type] = [
        ImportContent.self, ExportContent.self, SaveDocument.self, RevertDocument.self, MergeDocument.self,
    ]

    /// What the shell offers for a kind: its own operations, or for a kind poddoc does not
    /// know, the object listings.
    static func shell(for kind: PodDocDocument.DocumentKind) -> [any DocumentOperation.Type] {
        (kind == .outline ? outline : kind == .pods ? pods : objects) + shared
    }
}
