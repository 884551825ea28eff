// A guided tour of the object store on the built-in sample: 300 real CocoaPods specs.
// `make tour` runs it. It imports the sample through a worker context, shows a live results
// controller on the main context following the import, edits with undo and redo, and
// resolves a conflict made by a second stack on the same file.
import Foundation
import PodDocStore

enum Pod {
    static let key = Attribute<String>("key", unique: true)
    static let name = Attribute<String>("name", indexed: true)
    static let version = Attribute<String>("version")
    static let summary = Attribute<String?>("summary")
    static let entity = EntityDescription("Pod", members: [key, name, version, summary])
}

struct Spec: Decodable, Sendable {
    let name: String
    let version: String
    let summary: String?
}

struct Page: Decodable {
    let result: [Spec]?
}

func say(_ line: String) { print(line) }

@MainActor
func tour(sample: URL, folder: URL) async throws {
    let specs = try JSONDecoder().decode(Page.self, from: Data(contentsOf: sample)).result ?? []
    let model = try ObjectModel(entities: [Pod.entity])
    let store = try PersistentStore(url: folder.appending(path: "persistentStore"), model: model)
    let root = ObjectContext(store: store)
    let main = ObjectContext(.main, parent: root)
    main.automaticallyMergesChangesFromParent = true
    say("Store: \(store.url!.path) (id \(store.identifier))")

    // A live query on the main context: pods whose name starts with "AF", in version order.
    let request = FetchRequest(
        "Pod", where: Pod.name.hasPrefix("AF"),
        sortBy: [FetchSort(Pod.name), FetchSort(Pod.version, collation: .version)])
    let controller = ResultsController(request, context: main)
    var reports = 0
    controller.onChange = { changes in
        reports += 1
        say(
            "  live results: +\(changes.inserts.count) inserted, \(changes.updates.count) updated, \(changes.moves.count) moved -> \(controller.count) AF pods"
        )
    }
    try controller.performFetch()

    // Import on a worker, one batch find-or-create per page of 50, saving each page.
    let worker = ObjectContext(.privateQueue, parent: root, name: "importer")
    say("Importing \(specs.count) specs in pages of 50 through a worker context…")
    for start in stride(from: 0, to: specs.count, by: 50) {
        let page = Array(specs[start..<min(start + 50, specs.count)])
        let result = try await worker.perform { ctx in
            let found = try ctx.findOrCreate("Pod", key: Pod.key, keys: page.map { "\($0.name)/\($0.version)" }) { pod, i, _ in
                pod[Pod.name] = page[i].name
                pod[Pod.version] = page[i].version
                pod[Pod.summary] = page[i].summary
            }
            try ctx.save()
            return found
        }
        await Task.yield()
        say("  page \(start / 50): \(result.created.count) created, \(result.updated.count) updated")
    }
    try await root.perform { try $0.save() }
    try await main.perform { _ in }  // let the last merge arrive
    say("Saved to disk. AF pods, version-ordered:")
    for pod in try main.fetch(request).prefix(6) {
        say("  \(pod[Pod.name]) \(pod[Pod.version])  [\(pod.objectID)]")
    }

    // Re-importing the same page changes nothing and creates no duplicate.
    let again = try await worker.perform { ctx in
        try ctx.findOrCreate("Pod", key: Pod.key, keys: specs.prefix(50).map { "\($0.name)/\($0.version)" }) { _, _, _ in }
    }
    say("Re-import of page 0: \(again.created.count) created, \(again.updated.count) found")

    // Undo and redo on the main context.
    let undo = ObjectUndoManager()
    main.undoManager = undo
    let first = try main.fetch(request).first!
    undo.group("Edit summary of \"\(first[Pod.name])\"") { first[Pod.summary] = "Edited in the tour." }
    say("Edited: \(first[Pod.name]) summary = \(first[Pod.summary] ?? "nil"); undo says \(undo.undoActionName ?? "")")
    undo.undo()
    say("Undone: summary = \(first[Pod.summary] ?? "nil")")
    undo.redo()
    say("Redone: summary = \(first[Pod.summary] ?? "nil")")
    try await main.save()
    try await root.perform { try $0.save() }

    // Another stack on the same file changes the same pod: a conflict, resolved by policy.
    let other = ObjectContext(store: try PersistentStore(url: store.url, model: model), name: "other stack")
    let id = first.objectID
    try await other.perform { ctx in
        ctx.object(with: id)[Pod.summary] = "Changed by the other stack."
        try ctx.save()
    }
    first[Pod.summary] = "Changed on main."
    try await main.save()
    do {
        try await root.perform { try $0.save() }
    } catch let error as StoreError where error.code == .mergeConflict {
        say("Conflict, as expected:\n\(error.message.split(separator: "\n").prefix(2).joined(separator: "\n"))")
        try await root.perform { ctx in
            ctx.mergePolicy = .inMemoryWins
            try ctx.save()
        }
        say("Saved again with .inMemoryWins.")
    }
    let total = try main.count(for: FetchRequest("Pod"))
    say("Done: \(total) pods in the store, \(reports) live updates reported.")
}

let arguments = CommandLine.arguments.dropFirst()
let sample = URL(fileURLWithPath: arguments.first ?? "SampleDocuments/specs-2014-sample.json")
let folder = FileManager.default.temporaryDirectory.appending(path: "poddoc-tour-\(UUID().uuidString)")
try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: folder) }
do {
    try await tour(sample: sample, folder: folder)
} catch {
    FileHandle.standardError.write(Data("store-tour: \(error)\n".utf8))
    exit(1)
}
