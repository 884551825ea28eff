// Generated from the Swift snippets of README.md and the DocC articles by
// Tests/PodDocContentTests/DocumentationSnippetsTests.swift (`make doc-snippets`); do not
// edit. It is compiled with the tests, so a snippet that no longer compiles fails the build.
// swift-format-ignore-file
import Foundation
import OutlineInterchange
import Outliner
import PodDocContent
import PodDocDocument
import PodDocStore
import PodDocTesting

/// An entity of the model articles edit, as they describe it in words.
enum Item {
    static let title = Attribute<String>("title", default: "")
}

@MainActor
func snippetsOfREADMEMd(
    folder: URL, url: URL, model: ObjectModel, store: PersistentStore, root: ObjectContext, main: ObjectContext,
    worker: ObjectContext, document: ManagedDocument, specs: [(name: String, version: String)]
) async throws {
    // README.md, snippet 1

    @MainActor
    func openNotes(at url: URL) async throws -> ManagedDocument {
        do {
            return try await ManagedDocument.open(url)                        // the model of its kind
        } catch let error as DocumentError where error.code == .notADocument {
            return try await ManagedDocument.create(at: url, kind: .outline)  // it does not exist yet
        } catch let error as DocumentError where error.code == .recoveryAvailable {
            var options = ManagedDocument.OpenOptions()
            options.recovery = .recover                                       // or .discard
            return try await ManagedDocument.open(url, options: options)
        }   // .locked: error.message names the holder (pid, host); offer to open read-only
    }

    @MainActor
    func addGroceries(to document: ManagedDocument) async throws {
        let outline = try OutlineStore(context: document.mainContext)
        let list = ResultsController(                                         // the top level, live
            FetchRequest(OutlineSchema.entityName, where: OutlineSchema.parent == outline.rootID,
                         sortBy: [FetchSort(OutlineSchema.order)]),
            context: document.mainContext)
        list.onChange = { changes in print("rows inserted at", changes.inserts.map(\.indexPath)) }
        try list.performFetch()

        let groceries = try outline.add(OutlineItem(title: "Groceries"), under: outline.rootID)
        try outline.add(OutlineItem(title: "Milk"), under: groceries)         // each edit: one undo step
        document.undoManager.undo()                                           // Milk is gone again
        print(list.fetchedIDs.map { document.mainContext.object(with: $0)[OutlineSchema.title] })
        document.onStateChange = { state in
            if state.contains(.inConflict) { print("changed on disk: merge, keep mine or take theirs") }
        }
        try await document.save()
        try await document.close()
    }
    // README.md, snippet 2

    enum Pod {
        static let key = Attribute<String>("key", unique: true)
        static let name = Attribute<String>("name", indexed: true)
        static let version = Attribute<String>("version")
    }

    func newestAFNetworking(in folder: URL) async throws -> String? {
        let model = try ObjectModel(entities: [EntityDescription("Pod", members: [Pod.key, Pod.name, Pod.version])])
        let store = try PersistentStore(url: folder.appending(path: "persistentStore"), model: model)
        let root = ObjectContext(store: store)               // private queue; the only one that writes
        let worker = ObjectContext(.privateQueue, parent: root)
        try await worker.perform { ctx in
            for version in ["1.3.4", "2.0.0"] {
                try ctx.findOrCreate("Pod", key: Pod.key, keys: ["AFNetworking/\(version)"]) { pod, _, _ in
                    pod[Pod.name] = "AFNetworking"
                    pod[Pod.version] = version
                }
            }
            try ctx.save()                                   // into root, in memory
        }
        try await root.perform { try $0.save() }             // one SQLite transaction
        let newest = FetchRequest(
            "Pod", where: Pod.name == "AFNetworking",
            sortBy: [FetchSort(Pod.version, ascending: false, collation: .version)], limit: 1)
        return try await root.perform { ctx in try ctx.fetchFirst(newest)?[Pod.version] }   // "2.0.0"
    }
    // README.md, snippet 3
    enum TaskItem {
        static let title = Attribute<String>("title", default: "")
        static let modified = Attribute<Date>("modified")                  // the later edit wins
        static let list = ToOne("list", to: "TaskList", inverse: "tasks")
    }
    let taskModel = try ObjectModel(
        version: 1,
        entities: [
            EntityDescription("TaskList", members: [ToMany("tasks", to: "Task", inverse: "list")]),
            EntityDescription("Task", members: [TaskItem.title, TaskItem.modified, TaskItem.list]),
        ],
        merging: MergeDescription(latestValues: [LatestValue(entity: "Task", attribute: TaskItem.modified)]))
    let taskList = DocumentType(kind: DocumentKind("org.example.tasklist"), displayName: "Task list", model: taskModel)

    let chores = try await ManagedDocument.create(at: url, type: taskList)  // later: .open(url, as: taskList)
    chores.undoManager.group("Add Task") {
        let task = chores.mainContext.insert("Task")
        task[TaskItem.title] = "Water the plants"
        task[TaskItem.modified] = Date()
    }
    try await chores.autosave()                                             // the timer does it too
    let laptop = folder.appending(path: "Chores-laptop.poddoc")
    try await chores.save(to: laptop)                                       // a copy, edited elsewhere
    let copy = try await ManagedDocument.open(laptop, as: taskList)
    let plan = try CopyMerge.plan(mine: chores.rootContext.store, theirs: copy.rootContext.store)
    _ = try await chores.saveMerge(plan, named: "Merge the laptop's copy")  // undoable; exactly once
    try await copy.close()
    try await chores.close()
}

@MainActor
func snippetsOfSourcesPodDocDocumentPodDocDocumentDoccLiveResultsInAListMd(
    folder: URL, url: URL, model: ObjectModel, store: PersistentStore, root: ObjectContext, main: ObjectContext,
    worker: ObjectContext, document: ManagedDocument, specs: [(name: String, version: String)]
) async throws {
    // Sources/PodDocDocument/PodDocDocument.docc/LiveResultsInAList.md, snippet 1
    @MainActor
    final class ItemList {
        private let controller: ResultsController
        private(set) var sections: [ResultsSection] = []
        /// What the view shows of each object.
        private(set) var titles: [ObjectID: String] = [:]
        /// Called with the rows to animate, after `sections` holds the new contents.
        var onUpdate: ((_ deleted: [ResultsIndexPath], _ inserted: [ResultsIndexPath], _ reloaded: [ResultsIndexPath]) -> Void)?

        init(_ document: ManagedDocument) throws {
            let context = document.mainContext
            controller = ResultsController(FetchRequest("Item", sortBy: [FetchSort(Item.title)]), context: context)
            controller.onChange = { [weak self] changes in self?.apply(changes) }
            try controller.performFetch()
            sections = controller.sections
            for id in controller.fetchedIDs { titles[id] = context.object(with: id)[Item.title] }
        }

        private func apply(_ changes: ResultsChanges) {
            sections = changes.apply(to: sections)
            let context = controller.context
            for (old, new) in changes.renamed { titles[new] = titles.removeValue(forKey: old) }
            for section in sections { for id in section.ids { titles[id] = context.object(with: id)[Item.title] } }
            onUpdate?(
                changes.deletes + changes.moves.map(\.from),
                changes.inserts.map(\.indexPath) + changes.moves.map(\.to),
                changes.updates)
        }
    }

    let list = try ItemList(document)
    list.onUpdate = { deleted, inserted, reloaded in
        print("delete \(deleted), insert \(inserted), reload \(reloaded)")
    }
    document.undoManager.group("Add \"Groceries\"") {
        document.mainContext.insert("Item")[Item.title] = "Groceries"   // insert [0, 0]
    }
    document.undoManager.undo()                                         // delete [0, 0]
}

@MainActor
func snippetsOfSourcesPodDocDocumentPodDocDocumentDoccManagedDocumentAndSaveProtocolMd(
    folder: URL, url: URL, model: ObjectModel, store: PersistentStore, root: ObjectContext, main: ObjectContext,
    worker: ObjectContext, document: ManagedDocument, specs: [(name: String, version: String)]
) async throws {
    // Sources/PodDocDocument/PodDocDocument.docc/ManagedDocumentAndSaveProtocol.md, snippet 1
    var options = ManagedDocument.OpenOptions()
    options.autosaveInterval = .seconds(5)
    let document = try await ManagedDocument.open(url, model: model, options: options)

    let untitled = try await ManagedDocument.create(at: nil, kind: .outline, model: model)
    try await untitled.save(as: folder.appending(path: "Notes.poddoc"))
    // Sources/PodDocDocument/PodDocDocument.docc/ManagedDocumentAndSaveProtocol.md, snippet 2
    let worker = document.newWorkerContext(name: "import")
    try await worker.perform { ctx in
        let item = ctx.insert("Item")
        item[Item.title] = "Imported"
        try ctx.save()                         // into the root; the document now has unsaved changes
    }
    try await document.autosave()              // on disk, without re-packing an archive
    // Sources/PodDocDocument/PodDocDocument.docc/ManagedDocumentAndSaveProtocol.md, snippet 3
    document.onAutosave = { event in
        switch event {
        case .saved(_, let saveSequence, _): print("autosaved (save \(saveSequence))")
        case .failed(let error): print(error.message)
        }
    }
    // Sources/PodDocDocument/PodDocDocument.docc/ManagedDocumentAndSaveProtocol.md, snippet 4
    do {
        try await document.save()
    } catch let error as DocumentError where error.code == .inConflict {
        try await document.resolveConflict(.saveAsCopy(folder.appending(path: "Mine.poddoc")))
    }
}

@MainActor
func snippetsOfSourcesPodDocDocumentPodDocDocumentDoccPodDocDocumentMd(
    folder: URL, url: URL, model: ObjectModel, store: PersistentStore, root: ObjectContext, main: ObjectContext,
    worker: ObjectContext, document: ManagedDocument, specs: [(name: String, version: String)]
) async throws {
    // Sources/PodDocDocument/PodDocDocument.docc/PodDocDocument.md, snippet 1
    @MainActor
    func addGroceries(to url: URL, model: ObjectModel) async throws {
        let document = try await ManagedDocument.open(url, model: model)
        document.undoManager.group("Add \"Groceries\"") {
            let item = document.mainContext.insert("Item")
            item[Item.title] = "Groceries"            // Item.title: an Attribute<String> of the model
        }
        try await document.save()
        try await document.close()
    }
}

@MainActor
func snippetsOfSourcesPodDocDocumentPodDocDocumentDoccYourOwnDocumentTypeMd(
    folder: URL, url: URL, model: ObjectModel, store: PersistentStore, root: ObjectContext, main: ObjectContext,
    worker: ObjectContext, document: ManagedDocument, specs: [(name: String, version: String)]
) async throws {
    // Sources/PodDocDocument/PodDocDocument.docc/YourOwnDocumentType.md, snippet 1
    enum TaskList {
        static let name = Attribute<String>("name", default: "")
        static let tasks = ToMany("tasks", to: "Task", inverse: "list", deleteRule: .cascade)
    }
    enum TaskItem {
        static let title = Attribute<String>("title", default: "")
        static let done = Attribute<Bool>("done", default: false)
        static let order = Attribute<Int>("order", default: 0)     // SiblingOrder keys
        static let modified = Attribute<Date>("modified")
        static let list = ToOne("list", to: "TaskList", inverse: "tasks")
    }

    let merging = MergeDescription(latestValues: [LatestValue(entity: "Task", attribute: TaskItem.modified)])
    let version1 = try ObjectModel(
        version: 1,
        entities: [
            EntityDescription("TaskList", members: [TaskList.name, TaskList.tasks]),
            EntityDescription("Task", members: [TaskItem.title, TaskItem.done, TaskItem.order, TaskItem.modified, TaskItem.list]),
        ],
        merging: merging)
    let taskList = DocumentType(kind: DocumentKind("org.example.tasklist"), displayName: "Task list", model: version1)
    // Sources/PodDocDocument/PodDocDocument.docc/YourOwnDocumentType.md, snippet 2
    let chores = try await ManagedDocument.create(at: url, type: taskList)
    chores.undoManager.group("Add Task") {
        let task = chores.mainContext.insert("Task")
        task[TaskItem.title] = "Water the plants"
        task[TaskItem.modified] = Date()
    }
    chores.undoManager.undo()              // each group is one step
    try await chores.autosave()            // the timer does this every 15 seconds
    try await chores.close()               // saves what is left

    let reopened = try await ManagedDocument.open(url, as: taskList)
    // Sources/PodDocDocument/PodDocDocument.docc/YourOwnDocumentType.md, snippet 3
    let laptop = folder.appending(path: "Chores-laptop.poddoc")
    try await reopened.save(to: laptop)
    let copy = try await ManagedDocument.open(laptop, as: taskList)
    copy.mainContext.insert("Task")[TaskItem.title] = "Buy bulbs"
    try await copy.save()

    let plan = try CopyMerge.plan(mine: reopened.rootContext.store, theirs: copy.rootContext.store)
    let summary = try await reopened.saveMerge(plan, named: "Merge the laptop's copy")   // undoable
    print("\(summary.inserted) inserted")
    try await copy.close()
    try await reopened.close()
    // Sources/PodDocDocument/PodDocDocument.docc/YourOwnDocumentType.md, snippet 4
    let title = Attribute<String>("title", default: "", renamedFrom: ["name"])   // was TaskList.name
    let version2 = try ObjectModel(
        version: 2,
        entities: [
            EntityDescription("TaskList", members: [title, TaskList.tasks]),
            EntityDescription("Task", members: [TaskItem.title, TaskItem.done, TaskItem.order, TaskItem.modified, TaskItem.list]),
        ],
        merging: merging, earlierVersions: [version1])
    let taskList2 = DocumentType(kind: taskList.kind, displayName: "Task list", model: version2)
    let upgraded = try await ManagedDocument.open(url, as: taskList2)
    try await upgraded.close()
}

@MainActor
func snippetsOfSourcesPodDocStorePodDocStoreDoccContextsAndSavingMd(
    folder: URL, url: URL, model: ObjectModel, store: PersistentStore, root: ObjectContext, main: ObjectContext,
    worker: ObjectContext, document: ManagedDocument, specs: [(name: String, version: String)]
) async throws {
    // Sources/PodDocStore/PodDocStore.docc/ContextsAndSaving.md, snippet 1
    enum Item {
        static let title = Attribute<String>("title", default: "")
        static let parent = ToOne("parent", to: "Item", inverse: "children")
        static let children = ToMany("children", to: "Item", inverse: "parent", deleteRule: .cascade)
    }
    enum Pod {
        static let key = Attribute<String>("key", unique: true)
        static let name = Attribute<String>("name", indexed: true)
        static let version = Attribute<String>("version")
    }
    let model = try ObjectModel(entities: [
        EntityDescription("Item", members: [Item.title, Item.parent, Item.children]),
        EntityDescription("Pod", members: [Pod.key, Pod.name, Pod.version]),
    ])
    let store = try PersistentStore(url: folder.appending(path: "persistentStore"), model: model)
    let root = ObjectContext(store: store)                        // private queue; writes to disk
    let main = ObjectContext(.main, parent: root)                 // the main actor
    let worker = ObjectContext(.privateQueue, parent: root, name: "import")
    // Sources/PodDocStore/PodDocStore.docc/ContextsAndSaving.md, snippet 2
    @MainActor
    func add(_ title: String) async throws {
        let item = main.insert("Item")                 // temporary ID
        item[Item.title] = title
        try await main.save()                          // into the root's memory
        try await root.perform { try $0.save() }       // one SQLite transaction
    }
    // Sources/PodDocStore/PodDocStore.docc/ContextsAndSaving.md, snippet 3
    main.automaticallyMergesChangesFromParent = true         // on the main actor
    Task {
        for await note in root.saves() {                     // each root save
            await worker.perform { $0.mergeChanges(from: note) }
        }
    }
    // Sources/PodDocStore/PodDocStore.docc/ContextsAndSaving.md, snippet 4
    do { try await main.save() }
    catch let error as StoreError where error.code == .mergeConflict {
        for conflict in error.conflicts { print(conflict) }  // Item/p42: title changed in root
    }
    // Sources/PodDocStore/PodDocStore.docc/ContextsAndSaving.md, snippet 5
    let undo = ObjectUndoManager()
    main.undoManager = undo
    undo.group("Add \"Groceries\"") { main.insert("Item")[Item.title] = "Groceries" }
    undo.undo()                                              // the item is gone
    undo.redo()                                              // the same object is back
    // Sources/PodDocStore/PodDocStore.docc/ContextsAndSaving.md, snippet 6
    var batch = try BatchUpsert("Pod", key: Pod.key, model: model)
    for spec in specs {                                      // [(name: String, version: String)]
        batch.append { row in
            row[Pod.key] = "\(spec.name)/\(spec.version)"
            row[Pod.name] = spec.name
            row[Pod.version] = spec.version
        }
    }
    let rows = batch
    if try !store.holdsAllRows(of: rows) {
        let receipt = try await worker.perform { ctx in
            let receipt = try ctx.upsert(rows)
            try ctx.save()                                   // into the root
            return receipt
        }
        try await root.perform { try $0.save() }             // writes the rows
        let created = receipt.result?.created ?? []          // IDs of the new objects
    }
    // Sources/PodDocStore/PodDocStore.docc/ContextsAndSaving.md, snippet 7
    try store.readSnapshot { snapshot in
        let pods = FetchRequest("Pod", sortBy: [FetchSort(Pod.name), FetchSort(Pod.version, collation: .version)])
        let cursor = try snapshot.rows(pods, reading: ["name", "version"])
        while let row = try cursor.next() { print(row[Pod.name], row[Pod.version]) }
    }
}

@MainActor
func snippetsOfSourcesPodDocStorePodDocStoreDoccModelVersionsMd(
    folder: URL, url: URL, model: ObjectModel, store: PersistentStore, root: ObjectContext, main: ObjectContext,
    worker: ObjectContext, document: ManagedDocument, specs: [(name: String, version: String)]
) async throws {
    // Sources/PodDocStore/PodDocStore.docc/ModelVersions.md, snippet 1
    enum Note {
        static let title = Attribute<String>("title")
        static let body = Attribute<String?>("body")
    }
    let version1 = try ObjectModel(version: 1, entities: [EntityDescription("Note", members: [Note.title, Note.body])])
    // Sources/PodDocStore/PodDocStore.docc/ModelVersions.md, snippet 2
    enum Note2 {
        static let heading = Attribute<String>("heading", indexed: true, renamedFrom: ["title"])
        static let body = Attribute<String>("body", default: "")
        static let pinned = Attribute<Bool>("pinned", default: false)
        static let words = Attribute<Int>("words", default: 0)
    }
    let countWords = SchemaMigration(to: 2) { db in
        // After the inferred steps: the new column exists; fill it from the rows.
        try db.execute(sql: #"UPDATE "Note" SET "words" = length(trim("body")) - length(replace(trim("body"), ' ', '')) + 1 WHERE trim("body") <> ''"#)
    }
    let version2 = try ObjectModel(
        version: 2, entities: [EntityDescription("Note", members: [Note2.heading, Note2.body, Note2.pinned, Note2.words])],
        migrations: [countWords])
    let store = try PersistentStore(url: url, model: version2)   // a version-1 store is migrated here
}

@MainActor
func snippetsOfSourcesPodDocStorePodDocStoreDoccPodDocStoreMd(
    folder: URL, url: URL, model: ObjectModel, store: PersistentStore, root: ObjectContext, main: ObjectContext,
    worker: ObjectContext, document: ManagedDocument, specs: [(name: String, version: String)]
) async throws {
    // Sources/PodDocStore/PodDocStore.docc/PodDocStore.md, snippet 1
    enum Pod {
        static let key = Attribute<String>("key", unique: true)
        static let name = Attribute<String>("name", indexed: true)
        static let version = Attribute<String>("version")
    }

    let model = try ObjectModel(entities: [EntityDescription("Pod", members: [Pod.key, Pod.name, Pod.version])])
    let store = try PersistentStore(url: folder.appending(path: "persistentStore"), model: model)
    let root = ObjectContext(store: store)
    let worker = ObjectContext(.privateQueue, parent: root)
    try await worker.perform { ctx in
        let pod = ctx.insert("Pod")
        pod[Pod.key] = "AFNetworking/2.0.0"
        pod[Pod.name] = "AFNetworking"
        pod[Pod.version] = "2.0.0"
        try ctx.save()                          // into the root, in memory
    }
    try await root.perform { try $0.save() }    // one SQLite transaction
}

@MainActor
func snippetsOfSourcesPodDocTestingPodDocTestingDoccPodDocTestingMd(
    folder: URL, url: URL, model: ObjectModel, store: PersistentStore, root: ObjectContext, main: ObjectContext,
    worker: ObjectContext, document: ManagedDocument, specs: [(name: String, version: String)]
) async throws {
    // Sources/PodDocTesting/PodDocTesting.docc/PodDocTesting.md, snippet 1

    let tasks = DocumentType(kind: DocumentKind("org.example.tasks"), displayName: "Task list", model: model)
    let test = try await TestDocument.create(type: tasks)
    test.document.mainContext.insert("Item")[Item.title] = "Write tests"
    try await test.document.save()
    let later = try await test.reopen()      // what the next launch sees
    assert(!later.hasUnsavedChanges)
    try await test.remove()                  // the folder and working copies go
    // Sources/PodDocTesting/PodDocTesting.docc/PodDocTesting.md, snippet 2
    let clock = ManualClock()
    let autosaving = try await TestDocument.create(type: tasks, clock: clock)
    await clock.waitForSleeps(1)
    autosaving.document.mainContext.insert("Item")[Item.title] = "Autosaved"
    clock.advance(by: .seconds(15))          // one autosave
    try await autosaving.remove()
}
