import Foundation
import OutlineInterchange
import Outliner
import PodDocStore

/// An outline document as the document layer makes one: store, root context, main context
/// with an undo manager, and the outline on the main context. Main thread only.
public struct OutlineBenchmarkDocument {
    public let store: PersistentStore
    public let root: ObjectContext
    public let main: ObjectContext
    public let undo: ObjectUndoManager
    public let outline: OutlineStore

    /// Opens (or creates) the outline store at `url`.
    public init(url: URL) throws {
        store = try PersistentStore(url: url, model: ObjectModel(version: 1, entities: OutlineSchema.entities))
        root = ObjectContext(store: store)
        main = ObjectContext(.main, parent: root)
        undo = ObjectUndoManager()
        main.undoManager = undo
        outline = try OutlineStore(context: main)
    }

    /// Main into root, root to disk.
    public func save() throws {
        try main.save()
        try root.performAndWait { try $0.save() }
    }

    /// The benchmark outline: "Archive" (100,001 items: 100 years × 9 months × 110 notes)
    /// first, then 900 projects of 1,000 items each (9 parts × 110 tasks): 1,000,001 items.
    public static func millionItemTree() -> OutlineTree {
        benchmarkTree(archiveYears: 100, projects: 900)
    }

    /// An outline of the benchmark's shape: "Archive" (`archiveYears` × 9 months × 110 notes,
    /// and itself) first, then `projects` projects of 1,000 items each (9 parts × 110 tasks).
    /// Every tenth item has OPML attributes, every seventh a note.
    public static func benchmarkTree(archiveYears: Int, projects: Int) -> OutlineTree {
        var tree = OutlineTree(opmlVersion: "2.0", head: [OutlineAttribute("title", "A million items")])
        var number = 0
        func item(_ title: String) -> OutlineItem {
            number += 1
            return OutlineItem(
                title: title, note: number % 7 == 0 ? "Note for item \(number)" : nil,
                attributes: number % 10 == 0
                    ? [OutlineAttribute("type", "task"), OutlineAttribute("created", "Mon, 01 Jan 2024 10:00:00 GMT")] : [])
        }
        let archive = tree.appendChild(item("Archive"), to: tree.root)
        for year in 0..<archiveYears {
            let node = tree.appendChild(item("Year \(year)"), to: archive)
            for month in 0..<9 {
                let folder = tree.appendChild(item("Month \(year).\(month)"), to: node)
                for note in 0..<110 { tree.appendChild(item("Note \(year).\(month).\(note)"), to: folder) }
            }
        }
        for project in 0..<projects {
            let node = tree.appendChild(item("Project \(project)"), to: tree.root)
            for part in 0..<9 {
                let folder = tree.appendChild(item("Part \(project).\(part)"), to: node)
                for task in 0..<110 { tree.appendChild(item("Task \(project).\(part).\(task)"), to: folder) }
            }
        }
        return tree
    }
}
