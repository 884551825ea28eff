import Foundation
import GRDB
import XCTest

@testable import PodDocStore

/// The full-text index an entity can declare: kept in step with every save, in the same
/// transaction, on connections where `trusted_schema` is off.
final class FullTextIndexTests: StoreTestCase {
    enum Note {
        static let title = Attribute<String>("title", default: "")
        static let body = Attribute<String?>("body")
        static let rank = Attribute<Int>("rank", default: 0)
        static let entity = EntityDescription("Note", members: [title, body, rank], fullTextAttributes: ["title", "body"])
    }

    private func makeNoteStore() throws -> PersistentStore {
        try PersistentStore(url: storeURL, model: try ObjectModel(entities: [Note.entity]))
    }

    private func search(_ store: PersistentStore, _ words: String) throws -> [Int64] {
        try store.unsafeRead { db in
            try Int64.fetchAll(db, sql: #"SELECT rowid FROM "Note_fts" WHERE "Note_fts" MATCH ? ORDER BY rowid"#, arguments: [words])
        }
    }

    /// Inserts notes with these titles and bodies in one save; their IDs, in order.
    private func insertNotes(_ store: PersistentStore, _ notes: [(title: String, body: String?)]) throws -> [ObjectID] {
        try ObjectContext(store: store).performAndWait { ctx in
            let objects = notes.map { note in
                let object = ctx.insert("Note")
                object[Note.title] = note.title
                object[Note.body] = note.body
                return object
            }
            try ctx.save()
            return objects.map(\.objectID)
        }
    }

    // MARK: - Keeping the index

    func testInsertUpdateAndDeleteKeepTheIndexInStep() throws {
        let store = try makeNoteStore()
        XCTAssertEqual(try store.unsafeRead { try Bool.fetchOne($0, sql: "PRAGMA trusted_schema") }, false)
        let root = ObjectContext(store: store)
        let ids = try insertNotes(store, [("Fast JSON parser", "Decodes pages of specs quickly."), ("XML reader", nil)])
        let rowIDs = ids.map { $0.rowID! }
        XCTAssertEqual(try search(store, "json"), [rowIDs[0]])
        XCTAssertEqual(try search(store, "specs"), [rowIDs[0]])
        XCTAssertEqual(try search(store, "reader"), [rowIDs[1]])

        // An update of an indexed attribute replaces the row's text; other updates leave it.
        try root.performAndWait { ctx in
            ctx.object(with: ids[0])[Note.body] = "Now it writes XML too."
            ctx.object(with: ids[1])[Note.rank] = 3
            try ctx.save()
        }
        XCTAssertEqual(try search(store, "specs"), [])
        XCTAssertEqual(try search(store, "xml"), rowIDs)
        XCTAssertEqual(try search(store, "json"), [rowIDs[0]])

        try root.performAndWait { ctx in
            ctx.delete(ctx.object(with: ids[1]))
            try ctx.save()
        }
        XCTAssertEqual(try search(store, "xml"), [rowIDs[0]])
        XCTAssertEqual(try search(store, "reader"), [])
    }

    func testAFailedSaveLeavesTheIndexUnchanged() throws {
        let unique = EntityDescription("Tag", members: [Attribute<String>("name", unique: true)], fullTextAttributes: ["name"])
        let store = try PersistentStore(url: storeURL, model: try ObjectModel(entities: [unique]))
        let root = ObjectContext(store: store)
        try root.performAndWait { ctx in
            ctx.insert("Tag").setValue(.text("swift"), forKey: "name")
            try ctx.save()
            ctx.insert("Tag").setValue(.text("linux"), forKey: "name")
            ctx.insert("Tag").setValue(.text("swift"), forKey: "name")
            XCTAssertThrowsError(try ctx.save())
        }
        let count = try store.unsafeRead {
            try Int.fetchOne($0, sql: #"SELECT count(*) FROM "Tag_fts" WHERE "Tag_fts" MATCH 'linux OR swift'"#)
        }
        XCTAssertEqual(count, 1)
    }

    // MARK: - Model and schema

    func testModelRejectsAFullTextIndexOnANonTextAttribute() {
        let entity = EntityDescription("Note", members: [Note.rank], fullTextAttributes: ["rank"])
        XCTAssertThrowsError(try ObjectModel(entities: [entity])) { error in
            XCTAssertEqual((error as? StoreError)?.code, .invalidModel)
            XCTAssertTrue("\(error)".contains("'rank', which is not a text attribute"), "\(error)")
        }
    }

    func testStoreWithoutTheIndexDoesNotMatchAModelWithIt() throws {
        let plain = EntityDescription("Note", members: [Note.title, Note.body, Note.rank])
        try PersistentStore(url: storeURL, model: try ObjectModel(entities: [plain])).close()
        XCTAssertThrowsError(try makeNoteStore()) { error in
            XCTAssertEqual((error as? StoreError)?.code, .schemaMismatch)
            XCTAssertTrue("\(error)".contains("no full-text table 'Note_fts'"), "\(error)")
        }
    }

    func testAnIndexMadeBeforeAnAttributeJoinedItIsMadeAgainOnAWritableOpen() throws {
        let bodyOnly = EntityDescription("Note", members: [Note.title, Note.body, Note.rank], fullTextAttributes: ["body"])
        let old = try PersistentStore(url: storeURL, model: try ObjectModel(entities: [bodyOnly]))
        try ObjectContext(store: old).performAndWait { ctx in
            let note = ctx.insert("Note")
            note[Note.title] = "Quarterly report"
            note[Note.body] = "Figures for the board"
            try ctx.save()
        }
        try old.close()
        // Read-only, the old index is left as it is (nothing is written) and the title is
        // read from the rows, its matches first (it weighs more than the body).
        let bytes = try Data(contentsOf: storeURL)
        let reading = try PersistentStore(url: storeURL, model: try ObjectModel(entities: [Note.entity]), options: .init(readOnly: true))
        XCTAssertEqual(try reading.search("QUARTERLY rep", in: "Note").count, 1)
        XCTAssertEqual(try reading.search("board", in: "Note").count, 1)
        XCTAssertEqual(try reading.search("quarterly nothing", in: "Note"), [])
        try reading.close()
        XCTAssertEqual(try Data(contentsOf: storeURL), bytes)
        let store = try makeNoteStore()
        XCTAssertEqual(try store.search("quarterly", in: "Note").count, 1, "the title is indexed now")
        XCTAssertEqual(try store.search("board", in: "Note").count, 1)
        XCTAssertEqual(try store.fullTextProblems(), [])
    }

    func testAHeavilyWeightedAttributeRanksEveryMatchInItFirst() throws {
        let weighted = EntityDescription(
            "Note", members: [Note.title, Note.body, Note.rank], fullTextAttributes: ["title", "body"], fullTextWeights: [10, 1])
        let store = try PersistentStore(url: storeURL, model: try ObjectModel(entities: [weighted]))
        let ids = try insertNotes(store, [("Minutes", "lantern lantern lantern, the lantern again"), ("Lantern", nil)])
        XCTAssertEqual(try store.search("lantern", in: "Note"), [ids[1], ids[0]])
    }
}
