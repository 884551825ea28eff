// The task-list document type: its model in two versions, and its declaration. Copy this
// file to start a document type of your own: name your kind, list your entities, raise the
// version when the model changes.
import Foundation
import PodDocDocument
import PodDocStore

/// A list of tasks.
enum TaskList {
    static let entityName = "TaskList"
    /// Version 2 calls it `title`; version 1 called it `name` (the store is migrated).
    static let title = Attribute<String>("title", default: "", renamedFrom: ["name"])
    static let name = Attribute<String>("name", default: "")  // version 1
    static let tasks = ToMany("tasks", to: TaskItem.entityName, inverse: "list", deleteRule: .cascade)
}

/// A task in a list, in the list's order.
enum TaskItem {
    static let entityName = "Task"
    static let title = Attribute<String>("title", default: "")
    static let done = Attribute<Bool>("done", default: false)
    /// The task's place in its list: sparse keys (`SiblingOrder`), so an insert changes one task.
    static let order = Attribute<Int>("order", default: 0)
    /// When the task last changed: where two copies both changed a task, the later one wins.
    static let modified = Attribute<Date>("modified")
    static let notes = Attribute<String?>("notes")  // new in version 2
    static let list = ToOne("list", to: TaskList.entityName, inverse: "tasks")
}

enum TaskListDocument {
    /// The identifier the documents record: the app owns it.
    static let kind = DocumentKind("org.example.tasklist")

    /// How two copies merge, beyond property by property.
    static let merging = MergeDescription(latestValues: [LatestValue(entity: TaskItem.entityName, attribute: TaskItem.modified)])

    /// Version 1: lists with a name, tasks without notes.
    static func modelVersion1() throws -> ObjectModel {
        try ObjectModel(
            version: 1,
            entities: [
                EntityDescription(TaskList.entityName, members: [TaskList.name, TaskList.tasks]),
                EntityDescription(
                    TaskItem.entityName, members: [TaskItem.title, TaskItem.done, TaskItem.order, TaskItem.modified, TaskItem.list]),
            ],
            merging: merging)
    }

    /// Version 2: a list's name is its title; tasks have notes. Opening a version 1 document
    /// migrates it, by the steps poddoc infers from the two models.
    static func modelVersion2() throws -> ObjectModel {
        try ObjectModel(
            version: 2,
            entities: [
                EntityDescription(TaskList.entityName, members: [TaskList.title, TaskList.tasks]),
                EntityDescription(
                    TaskItem.entityName,
                    members: [TaskItem.title, TaskItem.done, TaskItem.order, TaskItem.modified, TaskItem.notes, TaskItem.list]),
            ],
            merging: merging, earlierVersions: [try modelVersion1()])
    }

    /// The document type at a model version.
    static func type(version: Int) throws -> DocumentType {
        DocumentType(kind: kind, displayName: "Task list", model: version == 1 ? try modelVersion1() : try modelVersion2())
    }
}
