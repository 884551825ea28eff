import Foundation
import GRDBSQLite
import Outliner
import PodDocBenchmarkSupport
import PodDocContent
import PodDocDocument
import PodDocStore

/// Merging two copies of an outline of 20,000 (or 200,000) items, each of which changed half
/// of them since their common save (mine renamed the even ones, theirs wrote notes on the odd
/// ones): the merge in this process (planned from both histories, applied, saved), the release
/// binary end to end (`poddoc merge`, best of three, with its peak memory), and SQLite alone
/// writing theirs' changes into mine in one transaction (the floor: the rows a merge must
/// write, with nothing to work out).
enum MergeBenchmark {
    @MainActor
    static func run(items: Int) async throws -> [String] {
        let sectionCount = items / 200
        let folder = try scratchFolder("merge")
        defer { try? FileManager.default.removeItem(at: folder) }
        let base = folder.appending(path: "Base.poddoc")
        let document = try await ManagedDocument.create(at: base, kind: .outline)
        let outline = try OutlineStore(context: document.mainContext)
        let context = document.mainContext
        let root = context.object(with: outline.rootID)
        let now = Date()
        for index in 0..<items {
            let item = context.insert(OutlineSchema.entityName)
            item[OutlineSchema.title] = "item \(index)"
            item[OutlineSchema.order] = index % 200
            item[OutlineSchema.created] = now
            item[OutlineSchema.modified] = now
            item[OutlineSchema.parent] = index < sectionCount ? root : nil
        }
        // Sections of 199 items each.
        let all = try context.fetch(FetchRequest(OutlineSchema.entityName, sortBy: [FetchSort(OutlineSchema.created)]))
        let sections = all.filter { ($0[OutlineSchema.parent] as ManagedObject?) === root }.prefix(sectionCount)
        var rest = all.filter { $0[OutlineSchema.parent] == nil && $0 !== root }.makeIterator()
        for section in sections {
            for position in 0..<199 {
                guard let item = rest.next() else { break }
                item[OutlineSchema.parent] = section
                item[OutlineSchema.order] = position
            }
        }
        for (position, section) in sections.enumerated() { section[OutlineSchema.order] = position }
        try await document.save()
        try await document.close()

        // Mine renames the even items, theirs writes notes on the odd ones.
        let theirsPristine = folder.appending(path: "Theirs.poddoc")
        try FileManager.default.copyItem(at: base, to: theirsPristine)
        let minePristine = base
        try await edit(minePristine) { index, item in if index % 2 == 0 { item[OutlineSchema.title] = "renamed \(index)" } }
        try await edit(theirsPristine) { index, item in if index % 2 == 1 { item[OutlineSchema.note] = "note \(index)" } }

        // In this process: plan, then write as rows in one save (as `poddoc merge` does).
        var plan = Double.infinity
        var apply = Double.infinity
        var changed = 0
        let clock = ContinuousClock()
        for run in 0..<3 {
            let mineURL = folder.appending(path: "Mine-\(run).poddoc")
            try FileManager.default.copyItem(at: minePristine, to: mineURL)
            let mine = try PersistentStore(
                url: mineURL.appending(path: "StoreContent/persistentStore"), model: DocumentType.outline.model)
            let theirs = try PersistentStore(
                url: theirsPristine.appending(path: "StoreContent/persistentStore"), model: DocumentType.outline.model,
                options: PersistentStore.Options(readOnly: true))
            let start = clock.now
            let merge = try CopyMerge.plan(
                mine: mine, theirs: theirs,
                trees: [OrderedTree(entity: OutlineSchema.entityName, parent: OutlineSchema.parent, order: OutlineSchema.order)],
                latest: [LatestValue(entity: OutlineSchema.entityName, attribute: OutlineSchema.modified)])
            let planned = clock.now
            try ObjectContext(store: mine).performAndWait { ctx in
                changed = try ctx.save(applying: merge, note: SaveNote(description: "merge", merge: merge.record)).summary.updated
            }
            plan = min(plan, (planned - start).seconds)
            apply = min(apply, (clock.now - planned).seconds)
            try mine.close()
            try theirs.close()
        }
        guard changed == items / 2 else { throw BenchmarkError("the merge changed \(changed) items, not \(items / 2)") }

        // The release binary, end to end.
        var endToEnd = Double.infinity
        var peak = 0.0
        let poddoc = OutlineCommandLineBenchmark.poddocBinary
        if FileManager.default.isExecutableFile(atPath: poddoc.path) {
            setenv("XDG_STATE_HOME", folder.appending(path: "state").path, 1)
            for run in 0..<3 {
                let mineURL = folder.appending(path: "Cli-\(run).poddoc")
                try FileManager.default.copyItem(at: minePristine, to: mineURL)
                let timed = try OutlineCommandLineBenchmark.timed([poddoc.path, "merge", mineURL.path, theirsPristine.path], in: folder)
                endToEnd = min(endToEnd, timed.seconds)
                peak = max(peak, timed.peakMiB)
            }
        }

        // The floor: SQLite writing theirs' 10,000 notes into a copy of mine, one transaction.
        var floor = Double.infinity
        for run in 0..<3 {
            let mineURL = folder.appending(path: "Floor-\(run).poddoc")
            try FileManager.default.copyItem(at: minePristine, to: mineURL)
            let db = try RawSQLite.open(mineURL.appending(path: "StoreContent/persistentStore"))
            let start = clock.now
            try RawSQLite.exec(db, "BEGIN IMMEDIATE")
            var statement: OpaquePointer?
            sqlite3_prepare_v2(db, "UPDATE OutlineItem SET note = ?, _version = _version + 1 WHERE id = ?", -1, &statement, nil)
            for index in stride(from: 1, to: items, by: 2) {
                let note = "note \(index)"
                sqlite3_bind_text(statement, 1, note, -1, unsafeBitCast(-1, to: sqlite3_destructor_type.self))
                sqlite3_bind_int64(statement, 2, Int64(index + 2))
                guard sqlite3_step(statement) == SQLITE_DONE else { throw BenchmarkError("the floor's update failed") }
                sqlite3_reset(statement)
            }
            sqlite3_finalize(statement)
            try RawSQLite.exec(db, "COMMIT")
            floor = min(floor, (clock.now - start).seconds)
            sqlite3_close(db)
        }
        var rows = [
            "merge: an outline of \(items) items; each copy changed \(items / 2) of them since the common save (mine renamed, theirs wrote notes)",
            String(
                format:
                    "  in the process: %.0f ms (planned from both histories %.0f ms, applied and saved %.0f ms); SQLite writing theirs' changes alone: %.0f ms (%.1fx)",
                (plan + apply) * 1000, plan * 1000, apply * 1000, floor * 1000, (plan + apply) / floor),
        ]
        if endToEnd.isFinite {
            rows.append(
                String(
                    format: "  `poddoc merge MINE THEIRS` (release, open, merge, save, close): %.0f ms, peak %.0f MiB", endToEnd * 1000,
                    peak))
        } else {
            rows.append("  `poddoc merge`: skipped, build the release poddoc first (`swift build -c release --product poddoc`)")
        }
        return rows
    }

    /// Opens a document, changes its items (numbered in creation order), saves and closes.
    @MainActor
    private static func edit(_ url: URL, _ change: (Int, ManagedObject) -> Void) async throws {
        var options = ManagedDocument.OpenOptions()
        options.autosaveInterval = nil
        let document = try await ManagedDocument.open(url, model: DocumentType.outline.model, options: options)
        let items = try document.mainContext.fetch(
            FetchRequest(OutlineSchema.entityName, sortBy: [FetchSort(OutlineSchema.created)])
        )
        .filter { $0[OutlineSchema.parent] != nil && $0[OutlineSchema.title].hasPrefix("item") }
        for (index, item) in items.enumerated() { change(index, item) }
        try await document.save()
        try await document.close()
    }
}
