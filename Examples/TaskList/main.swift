// A task-list app's document, start to finish: `task-list [FOLDER]` creates Chores.poddoc in
// FOLDER (a new temporary folder by default), edits it with undo, autosaves, closes and
// reopens it, merges a copy edited elsewhere, and upgrades it to the model's second version.
// `make test` runs it; README.md ("Your own document type") walks through it.
import Foundation
import PodDocDocument
import PodDocStore

@MainActor
func titles(in document: ManagedDocument, titleKey: Attribute<String> = TaskItem.title) throws -> [String] {
    let request = FetchRequest(TaskItem.entityName, sortBy: [FetchSort(TaskItem.order)])
    return try document.mainContext.fetch(request).map { task in (task[TaskItem.done] ? "[x] " : "[ ] ") + task[titleKey] }
}

@MainActor
func addTask(_ title: String, to list: ManagedObject, in document: ManagedDocument) throws -> ManagedObject {
    let context = document.mainContext
    let last = try context.fetch(FetchRequest(TaskItem.entityName, sortBy: [FetchSort(TaskItem.order, ascending: false)], limit: 1)).first
    let task = context.insert(TaskItem.entityName)
    task[TaskItem.title] = title
    task[TaskItem.order] = SiblingOrder.key(between: last?[TaskItem.order], and: nil) ?? 0
    task[TaskItem.modified] = Date()
    task[TaskItem.list] = list
    return task
}

@MainActor
func run(in folder: URL) async throws {
    var options = ManagedDocument.OpenOptions()
    options.autosaveInterval = .seconds(15)  // the default; autosave() below saves at once
    let url = folder.appending(path: "Chores.poddoc")
    let version1 = try TaskListDocument.type(version: 1)

    // 1. Create the document and edit it on the main context; each edit is one undo step.
    let document = try await ManagedDocument.create(at: url, type: version1, options: options)
    let undo = document.undoManager
    let list = try undo.group("New List") {
        let list = document.mainContext.insert(TaskList.entityName)
        list[TaskList.name] = "Chores"
        _ = try addTask("Water the plants", to: list, in: document)
        _ = try addTask("Take out the bins", to: list, in: document)
        return list
    }
    _ = try undo.group("Add Task") { try addTask("Paint the fence", to: list, in: document) }
    undo.undo()  // the fence can wait
    print("1. created \(url.lastPathComponent): \(try titles(in: document))")

    // 2. Autosave (what the timer does every 15 seconds), then close: it saves what is left.
    try await document.autosave()
    print("2. autosaved: save \(document.metadata.saveSequence)")
    try await document.close()

    // 3. Reopen it, as the app would on its next launch.
    let reopened = try await ManagedDocument.open(url, as: version1, options: options)
    print("3. reopened: \(try titles(in: reopened))")

    // 4. A copy goes to a laptop and is edited there; this copy is edited too.
    let laptopURL = folder.appending(path: "Chores-laptop.poddoc")
    try await reopened.save(to: laptopURL)
    let laptop = try await ManagedDocument.open(laptopURL, as: version1, options: options)
    let laptopList = try laptop.mainContext.fetch(FetchRequest(TaskList.entityName)).first!
    _ = try addTask("Buy bulbs", to: laptopList, in: laptop)
    try await laptop.close()
    let bins = try reopened.mainContext.fetch(FetchRequest(TaskItem.entityName, where: TaskItem.title == "Take out the bins")).first!
    bins[TaskItem.done] = true
    bins[TaskItem.modified] = Date()
    try await reopened.save()
    print("4. edited apart: \"Buy bulbs\" added on the laptop, the bins done here")

    // 5. Merge the laptop's copy: each side's changes, exactly once (merging again changes nothing).
    let other = try await ManagedDocument.open(laptopURL, as: version1, options: options)
    let (mine, theirs) = (reopened.rootContext.store, other.rootContext.store)
    let plan = try await Task.detached { try CopyMerge.plan(mine: mine, theirs: theirs) }.value
    try await other.close()
    let merged = try await reopened.saveMerge(plan, named: "Merge the laptop's copy")
    print("5. merged the laptop's copy (\(merged.inserted) inserted): \(try titles(in: reopened))")
    try await reopened.close()

    // 6. The next version of the app opens it with model version 2: migrated in place.
    let upgraded = try await ManagedDocument.open(url, as: try TaskListDocument.type(version: 2), options: options)
    let first = try upgraded.mainContext.fetch(FetchRequest(TaskItem.entityName, sortBy: [FetchSort(TaskItem.order)], limit: 1)).first!
    first[TaskItem.notes] = "Twice a week in summer"
    let title = try upgraded.mainContext.fetch(FetchRequest(TaskList.entityName)).first![TaskList.title]
    try await upgraded.save()
    print("6. upgraded to model \(upgraded.model.version): list \"\(title)\", \(try titles(in: upgraded))")
    try await upgraded.close()
    print("Now try: poddoc info \(url.path); poddoc objects ls \(url.path) Task")
}

let folder: URL
if CommandLine.arguments.count > 1 {
    folder = URL(fileURLWithPath: CommandLine.arguments[1])
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
} else {
    folder = FileManager.default.temporaryDirectory.appending(path: "task-list-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
}
do {
    try await run(in: folder)
} catch {
    FileHandle.standardError.write(Data("task-list: \(error)\n".utf8))
    exit(1)
}
