import Foundation
import GRDB
import XCTest

@testable import PodDocStore

/// Full-text search finds words in every script: CJK runs are indexed as overlapping pairs,
/// everything else as `unicode61` splits it; the index agrees with the rows after every kind
/// of write, and a store indexed in an older form is re-indexed on a writable open.
final class SearchTextTests: StoreTestCase {
    enum Note {
        static let key = Attribute<String>("key", unique: true)
        static let title = Attribute<String>("title", default: "")
        static let body = Attribute<String?>("body")
        static let entity = EntityDescription("Note", members: [key, title, body], fullTextAttributes: ["title", "body"])
        static let model: ObjectModel = {
            do { return try ObjectModel(entities: [entity]) } catch { fatalError("\(error)") }
        }()
    }

    /// Titles in Chinese, Japanese, Korean, Cyrillic, Greek, German, Turkish and emoji.
    static let corpus: [(key: String, title: String, body: String?)] = [
        ("zh", "一个建立pod仓库的简单demo.", "用于网络请求的库"),
        ("zh2", "简单的JSON解析", nil),
        ("ja", "東京タワーの写真を表示するライブラリ", "カタカナとひらがな"),
        ("ko", "서울에서 만든 라이브러리입니다", nil),
        ("ru", "Библиотека для работы с сетью", "СерафимиМногоꙮчитїи"),
        ("el", "Βιβλιοθήκη για τον Σίσυφο", nil),
        ("de", "Über die Straße", "Ångström"),
        ("tr", "İstanbul ve ırmak", nil),
        ("emoji", "🕕 Clock pod 🕕", "time ⏰"),
    ]

    private func storeWithCorpus() throws -> (PersistentStore, ObjectContext, [String: Int64]) {
        let store = try PersistentStore(url: storeURL, model: Note.model)
        let root = ObjectContext(store: store)
        let ids = try root.performAndWait { ctx in
            let objects = Self.corpus.map { note in
                let object = ctx.insert("Note")
                object[Note.key] = note.key
                object[Note.title] = note.title
                object[Note.body] = note.body
                return (note.key, object)
            }
            try ctx.save()
            return Dictionary(uniqueKeysWithValues: objects.map { ($0.0, $0.1.objectID.rowID!) })
        }
        return (store, root, ids)
    }

    private func keys(_ store: PersistentStore, _ words: String) throws -> [String] {
        let rows = try store.search(words, in: "Note").map { $0.rowID! }
        let byRow = try store.unsafeRead { db in
            Dictionary(
                uniqueKeysWithValues: try Row.fetchAll(db, sql: #"SELECT id, key FROM "Note""#).map { ($0[0] as Int64, $0[1] as String) })
        }
        return rows.map { byRow[$0]! }
    }

    // MARK: - The index form

    func testCJKRunsAreIndexedAsOverlappingPairs() {
        XCTAssertEqual(SearchText.indexed("一个建立pod仓库的简单demo."), " 一个 个建 建立 立 pod 仓库 库的 的简 简单 单 demo.")
        XCTAssertEqual(SearchText.indexed("東京タワー"), " 東京 京タ タワ ワー ー ")
        XCTAssertEqual(SearchText.indexed("서울에서 만든"), " 서울 울에 에서 서   만든 든 ")
        XCTAssertEqual(SearchText.indexed("库"), " 库 ")
        XCTAssertEqual(SearchText.indexed("・東・"), "・ 東 ・", "punctuation inside the blocks separates")
        XCTAssertEqual(SearchText.indexed("Plain ASCII text"), "Plain ASCII text", "unicode61 folds ASCII by itself")
        for other in ["Über Ångström", "СЕРАФИМИ й", "Straße", "İstanbul ırmak", "🕕 Pod", ""] {
            XCTAssertEqual(SearchText.indexed(other), TextFolding.fold(other), "folded the Unicode way")
        }
        XCTAssertEqual(SearchText.indexed("ΣΊΣΥΦΟΣ Βιβλιοθήκη ΐ"), "σισυφοσ βιβλιοθηκη ι", "Greek accents removed")
        // Decomposed kana is composed first, as the query is.
        XCTAssertEqual(SearchText.indexed("か\u{3099}き"), SearchText.indexed("がき"))
    }

    func testQueriesAskForPairsPhrasesAndPrefixes() {
        XCTAssertEqual(SearchText.matchExpression(for: "简单"), #""简单""#)
        XCTAssertEqual(SearchText.matchExpression(for: "仓库的简"), #""仓库 库的 的简""#)
        XCTAssertEqual(SearchText.matchExpression(for: "库"), #""库"*"#)
        XCTAssertEqual(SearchText.matchExpression(for: "pod仓库 json"), #""pod"* "仓库" "json"*"#)
        XCTAssertEqual(SearchText.matchExpression(for: #"JSON" OR NEAR(x*) -"#), #""json"* "or"* "near"* "x"*"#)
        XCTAssertNil(SearchText.matchExpression(for: " \"*()- "))
    }

    // MARK: - Finding words

    func testWordsAreFoundInEveryScript() throws {
        let (store, _, _) = try storeWithCorpus()
        let expectations: [(String, [String])] = [
            ("简单", ["zh", "zh2"]), ("仓库", ["zh"]), ("pod仓库", ["zh"]), ("库", ["zh"]), ("建", ["zh"]), ("单", ["zh", "zh2"]),
            ("的简单", ["zh"]), ("网络请求", ["zh"]), ("简单 demo", ["zh"]), ("简单仓库", []), ("json 解析", ["zh2"]),
            ("東京", ["ja"]), ("タワー", ["ja"]), ("ﾀﾜｰ", ["ja"]), ("ＪＳＯＮ", ["zh2"]), ("写真", ["ja"]), ("ライブラリ", ["ja"]), ("ひらがな", ["ja"]),
            ("ー", ["ja"]),
            ("서울", ["ko"]), ("라이브러리", ["ko"]), ("만든", ["ko"]),
            ("библиотека", ["ru"]), ("БИБЛИО", ["ru"]), ("серафими", ["ru"]),
            ("βιβλιοθηκη", ["el"]), ("ΣΊΣΥΦΟ", ["el"]), ("σισυφο", ["el"]),
            ("über", ["de"]), ("UBER", ["de"]), ("strasse", ["de"]), ("STRAẞE", ["de"]), ("angstrom", ["de"]),
            ("istanbul", ["tr"]), ("İSTANBUL", ["tr"]), ("ırmak", ["tr"]),
            ("clock", ["emoji"]), ("pod", ["zh", "emoji"]), ("time", ["emoji"]),
            ("nothing", []), ("", []), ("\"", []),
        ]
        for (words, expected) in expectations {
            XCTAssertEqual(try keys(store, words).sorted(), expected.sorted(), "search \(words)")
        }
    }

    func testBetterMatchesComeFirst() throws {
        let store = try PersistentStore(url: storeURL, model: Note.model)
        let root = ObjectContext(store: store)
        try root.performAndWait { ctx in
            for (key, title) in [
                ("once", "网络请求的库, 还有很多其他的东西和说明文字, 很长很长的一段描述"),
                ("twice", "网络请求 网络请求"),
                ("latin-once", "a parser among many other words that say little about it"),
                ("latin-twice", "parser parser"),
            ] {
                let note = ctx.insert("Note")
                note[Note.key] = key
                note[Note.title] = title
            }
            try ctx.save()
        }
        XCTAssertEqual(try keys(store, "网络请求"), ["twice", "once"])
        XCTAssertEqual(try keys(store, "parser"), ["latin-twice", "latin-once"])
    }

    // MARK: - The index agrees with the rows

    func testTheIndexAgreesWithTheRowsAfterImportsUpdatesAndDeletes() throws {
        let (store, root, ids) = try storeWithCorpus()
        // A batch import: new rows and updates of existing ones, some text changed.
        var batch = try BatchUpsert("Note", key: Note.key, model: Note.model)
        for index in 0..<200 {
            batch.append { row in
                row[Note.key] = "batch-\(index)"
                row[Note.title] = "批量导入的第\(index)条 \(index % 2 == 0 ? "偶数" : "odd")"
                row[Note.body] = index % 3 == 0 ? nil : "ノート \(index)"
            }
        }
        batch.append {
            $0[Note.key] = "zh"
            $0[Note.title] = "改过的标题"
            $0[Note.body] = nil
        }
        try root.performAndWait { ctx in
            _ = try ctx.upsert(batch)
            try ctx.save()
        }
        try assertIndexAgrees(store)
        XCTAssertEqual(try keys(store, "简单"), ["zh2"], "the updated row no longer holds the word")
        XCTAssertEqual(try keys(store, "改过"), ["zh"])
        XCTAssertEqual(try keys(store, "偶数").count, 100)

        // Updates through objects, of the indexed text and not, and deletes; then their undo.
        let undo = ObjectUndoManager()
        try root.performAndWait { ctx in
            for object in try ctx.fetch(FetchRequest("Note", where: Note.key.hasPrefix("batch-1"))) { ctx.delete(object) }
            ctx.undoManager = undo
            undo.group("Edit") {
                ctx.object(with: .permanent(entity: "Note", rowID: ids["ja"]!))[Note.body] = "新しい本文"
                ctx.object(with: .permanent(entity: "Note", rowID: ids["ko"]!))[Note.key] = "korean"
                ctx.delete(ctx.object(with: .permanent(entity: "Note", rowID: ids["ru"]!)))
            }
            try ctx.save()
        }
        try assertIndexAgrees(store)
        XCTAssertEqual(try keys(store, "ひらがな"), [])
        XCTAssertEqual(try keys(store, "本文"), ["ja"])
        XCTAssertEqual(try keys(store, "서울"), ["korean"])
        XCTAssertEqual(try keys(store, "библиотека"), [])
        XCTAssertEqual(try keys(store, "批量").count, 200 - 111)
        try root.performAndWait { ctx in
            undo.undo()
            try ctx.save()
        }
        try assertIndexAgrees(store)
        XCTAssertEqual(try keys(store, "ひらがな"), ["ja"], "undone")
        XCTAssertEqual(try keys(store, "библиотека"), ["ru"], "a saved delete undone")
    }

    func testTheCheckFindsAnIndexThatDisagrees() throws {
        let (store, _, ids) = try storeWithCorpus()
        XCTAssertEqual(try store.fullTextProblems(), [])
        try store.close()
        let db = try DatabaseQueue(path: storeURL.path)
        try db.write { db in
            try db.execute(sql: #"DELETE FROM "Note_fts" WHERE rowid = ?"#, arguments: [ids["zh"]!])
            try db.execute(sql: #"UPDATE "Note_fts" SET title = '简单' WHERE rowid = ?"#, arguments: [ids["ja"]!])
            try db.execute(sql: #"INSERT INTO "Note_fts" (rowid, title) VALUES (9999, 'ghost')"#)
        }
        try db.close()
        let reopened = try PersistentStore(url: storeURL, model: Note.model, options: .init(readOnly: true))
        XCTAssertEqual(
            try reopened.fullTextProblems(),
            [
                "1 Note rows are missing from the search index.",
                "The search index of Note holds 1 rows that are not in the store.",
                "The search index of Note holds other text than 1 of its rows.",
            ])
    }

    func testAStoreIndexedInAnOlderFormIsReindexedWhenOpenedForWriting() throws {
        let (store, _, _) = try storeWithCorpus()
        try store.close()
        // What an earlier poddoc wrote: the text as it is, and no form recorded.
        let db = try DatabaseQueue(path: storeURL.path)
        try db.write { db in
            try db.execute(sql: #"DELETE FROM "Note_fts""#)
            try db.execute(sql: #"INSERT INTO "Note_fts" (rowid, title, body) SELECT id, title, body FROM "Note""#)
            try db.execute(sql: "DELETE FROM _poddoc_store WHERE key = 'fullTextForm'")
        }
        try db.close()
        let reading = try PersistentStore(url: storeURL, model: Note.model, options: .init(readOnly: true))
        XCTAssertEqual(try keys(reading, "仓库"), [], "a read-only open changes nothing")
        XCTAssertEqual(try keys(reading, "über"), ["de"])
        XCTAssertEqual(try reading.fullTextProblems(), [], "an older form is not a fault")
        try reading.close()

        let writing = try PersistentStore(url: storeURL, model: Note.model)
        XCTAssertEqual(try keys(writing, "仓库"), ["zh"])
        XCTAssertEqual(try writing.metadataValue(forKey: "fullTextForm"), SearchText.formVersion)
        try assertIndexAgrees(writing)
    }

    /// No disagreement by the store's own check, FTS5's integrity check passes, and a search
    /// for every row's key pair of characters finds that row.
    private func assertIndexAgrees(_ store: PersistentStore, file: StaticString = #filePath, line: UInt = #line) throws {
        XCTAssertEqual(try store.fullTextProblems(), [], file: file, line: line)
        let rows = try store.unsafeRead { db in
            try Row.fetchAll(db, sql: #"SELECT id, title, body FROM "Note""#).map { ($0[0] as Int64, $0[1] as String, $0[2] as String?) }
        }
        let indexed = try store.unsafeRead { try Int.fetchOne($0, sql: #"SELECT count(*) FROM "Note_fts""#) }
        XCTAssertEqual(indexed, rows.count, file: file, line: line)
        let check = try DatabaseQueue(path: storeURL.path)
        try check.write { try $0.execute(sql: #"INSERT INTO "Note_fts" ("Note_fts") VALUES ('integrity-check')"#) }
        try check.close()
        for (id, title, body) in rows {
            for text in [title, body].compactMap({ $0 }) {
                let words = text.split { !$0.isLetter && !$0.isNumber }
                guard let word = words.first else { continue }
                let found = try store.search(String(word.prefix(3)), in: "Note", limit: 1000).map { $0.rowID! }
                XCTAssertTrue(found.contains(id), "'\(word.prefix(3))' finds \(title)", file: file, line: line)
            }
        }
    }
}
