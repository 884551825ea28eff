import Foundation
import GRDB
import PodDocBenchmarkSupport
import PodDocStore
import PodSpecs

/// Model changes on the whole index (718,119 specs in a pods store), each timed as the open
/// that migrates the store, beside SQLite doing the same change on a copy of the same file:
/// the shipped upgrade of a version-1 pods store (the Swift versions: `ADD COLUMN` and the
/// custom stage's scan of the specs' JSON), an attribute added, one renamed, one removed
/// (SQLite's `DROP COLUMN` rewrites the table; its floor is the table rebuild SQLite documents,
/// `INSERT INTO new SELECT … FROM old`), and the open of an up-to-date store.
enum MigrationBenchmark {
    private typealias E = PodSpecsSchema.PodSpecEntity

    @MainActor
    static func run() async throws -> [String] {
        guard let catalog = try SyntheticCatalog.load(sharedData: SpecsImportBenchmark.sharedData) else { return [] }
        let folder = try scratchFolder("migration")
        defer { try? FileManager.default.removeItem(at: folder) }
        _ = try await SpecsImportBenchmark.importOverLoopback(catalog, folder: folder)
        let package = try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
            .first { $0.pathExtension == "poddoc" }!
        let store = package.appending(path: "StoreContent/persistentStore")
        // The store as poddoc wrote it with version 1 of the pods model: no Swift versions, no
        // recorded model.
        try raw(store) { db in
            try db.execute(sql: #"ALTER TABLE "PodSpec" DROP COLUMN "swiftVersions""#)
            try db.execute(sql: "DELETE FROM _poddoc_store WHERE key IN ('model', 'model.hash', 'model.past')")
            try db.execute(sql: "PRAGMA user_version = 1")
        }
        try raw(store) { db in _ = try db.checkpoint(.truncate) }
        let pristine = folder.appending(path: "pristine")
        try FileManager.default.copyItem(at: store, to: pristine)
        let bytes = (try FileManager.default.attributesOfItem(atPath: store.path)[.size] as? Int) ?? 0

        var rows: [String] = [
            "| change (718,119 specs, store \(bytes / 1_000_000) MB) | poddoc (the open that migrates) | SQLite alone, same change | ratio |",
            "|---|---|---|---|",
        ]
        func row(_ name: String, _ seconds: Double, _ floor: Double, _ floorName: String) {
            rows.append(
                String(format: "| %@ | %.3f s | %.3f s (%@) | %.2fx |", name, seconds, floor, floorName, seconds / floor))
        }

        // 1. The shipped upgrade, version 1 to 2.
        let upgrade = try timeOpen(store, PodSpecsSchema.makeModel())
        let upgradeFloor = try onCopy(pristine, in: folder) { db in
            try db.execute(sql: #"ALTER TABLE "PodSpec" ADD COLUMN "swiftVersions" TEXT"#)
            _ = try Int.fetchOne(db, sql: #"SELECT count(*) FROM "PodSpec" WHERE instr("json", '"swift_version') > 0"#)
        }
        row(
            "pods model 1 → 2 (Swift versions: ADD COLUMN, the stage's scan of every spec's JSON)", upgrade, upgradeFloor,
            "ADD COLUMN and the same scan")

        // 2. An attribute added, with a default for every spec.
        let category = Attribute<String>("category", default: "library")
        let added = try model(version: 3) { $0 + [category] }
        let add = try timeOpen(store, added)
        let addFloor = try onCopy(pristine, in: folder) { db in
            try db.execute(sql: #"ALTER TABLE "PodSpec" ADD COLUMN "category" TEXT DEFAULT 'library'"#)
        }
        row("an attribute added, with a default", add, addFloor, "ALTER TABLE ADD COLUMN … DEFAULT")

        // 3. An attribute renamed.
        let renamed = try model(version: 4) { renamingHomepage($0) + [category] }
        let rename = try timeOpen(store, renamed)
        let renameFloor = try onCopy(pristine, in: folder) { db in
            try db.execute(sql: #"ALTER TABLE "PodSpec" RENAME COLUMN "homepage" TO "website""#)
        }
        row("an attribute renamed", rename, renameFloor, "ALTER TABLE RENAME COLUMN")

        // 4. An attribute removed: SQLite rewrites every row.
        let removed = try model(version: 5) { renamingHomepage($0.filter { $0.name != E.licenseText.name }) + [category] }
        let remove = try timeOpen(store, removed)
        let kept = try raw(pristine) { db in
            try String.fetchAll(db, sql: #"SELECT name FROM pragma_table_info('PodSpec') WHERE name <> 'licenseText'"#)
        }
        let columns = kept.map { "\"\($0)\"" }.joined(separator: ", ")
        let removeFloor = try onCopy(pristine, in: folder) { db in
            try db.execute(sql: #"CREATE TABLE "rebuilt" AS SELECT \#(columns) FROM "PodSpec" WHERE 0"#)
            try db.execute(sql: #"INSERT INTO "rebuilt" SELECT \#(columns) FROM "PodSpec""#)
        }
        row("an attribute removed (DROP COLUMN rewrites the table)", remove, removeFloor, "INSERT INTO new SELECT … FROM old")

        // 5. The open of an up-to-date store: one key compared.
        var open = Double.infinity
        var openFloor = Double.infinity
        for _ in 0..<5 {
            open = min(open, try timeOpen(store, removed))
            openFloor = min(openFloor, try timeRawOpen(store))
        }
        row("the open of an up-to-date store (best of 5)", open, openFloor, "SQLite's open and a header read")
        return rows
    }

    /// The pods model with its spec entity's attributes changed, as `version`.
    private static func model(version: Int, _ change: ([any EntityMember]) -> [any EntityMember]) throws -> ObjectModel {
        let entity = E.entity
        let changed = EntityDescription(
            entity.name, members: change(entity.attributes.map { DescribedAttribute(description: $0) }), uniqueKeys: entity.uniqueKeys,
            indexes: entity.indexes, fullTextAttributes: entity.fullTextAttributes, fullTextWeights: entity.fullTextWeights)
        return try ObjectModel(
            version: version, entities: [changed, PodSpecsSchema.ImportCheckpointEntity.entity], migrations: PodSpecsSchema.migrations)
    }

    /// `members` with `homepage` called `website`.
    private static func renamingHomepage(_ members: [any EntityMember]) -> [any EntityMember] {
        members.map { member -> any EntityMember in
            member.name == E.homepage.name ? Attribute<String?>("website", renamedFrom: [E.homepage.name]) : member
        }
    }

    /// An attribute given by its description.
    private struct DescribedAttribute: EntityMember {
        let description: AttributeDescription
        var name: String { description.name }
        var member: EntityMemberDescription { .attribute(description) }
    }

    /// The seconds a writable open of `url` with `model` takes (the migration, when it needs one).
    private static func timeOpen(_ url: URL, _ model: ObjectModel) throws -> Double {
        let start = ContinuousClock.now
        let store = try PersistentStore(url: url, model: model)
        let seconds = (ContinuousClock.now - start).seconds
        try store.close()
        return seconds
    }

    /// The seconds SQLite takes to open `url` and read its header's user version.
    private static func timeRawOpen(_ url: URL) throws -> Double {
        let start = ContinuousClock.now
        let queue = try DatabaseQueue(path: url.path)
        _ = try queue.read { try Int.fetchOne($0, sql: "PRAGMA user_version") }
        try queue.close()
        return (ContinuousClock.now - start).seconds
    }

    /// The seconds `change` takes on a copy of `pristine`, in one transaction (the copy is not
    /// timed).
    private static func onCopy(_ pristine: URL, in folder: URL, _ change: (Database) throws -> Void) throws -> Double {
        let copy = folder.appending(path: "copy-\(UUID().uuidString)")
        try FileManager.default.copyItem(at: pristine, to: copy)
        defer { try? FileManager.default.removeItem(at: copy) }
        let queue = try DatabaseQueue(path: copy.path)
        let start = ContinuousClock.now
        try queue.write { try change($0) }
        let seconds = (ContinuousClock.now - start).seconds
        try queue.close()
        return seconds
    }

    @discardableResult
    private static func raw<T>(_ url: URL, _ body: (Database) throws -> T) throws -> T {
        let queue = try DatabaseQueue(path: url.path)
        defer { try? queue.close() }
        return try queue.writeWithoutTransaction { try body($0) }
    }
}
