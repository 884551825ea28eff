import Foundation
import GRDB
import XCTest

@testable import PodDocStore

/// Case-insensitive predicates fold text the Unicode way, identically in SQL (saved rows)
/// and in memory (unsaved objects), and a case-insensitive index serves prefix listings.
@MainActor
final class TextFoldingTests: StoreTestCase {
    enum Word {
        static let text = Attribute<String>("text", indexed: true, caseInsensitiveIndex: true)
        static let entity = EntityDescription("Word", members: [text])
    }

    nonisolated static let corpus = [
        "Серафими", "серафими", "СЕРАФИМИ", "Über", "über", "ÜBER", "Ubër", "Straße", "STRASSE", "strasse",
        "Σίσυφος", "ΣΊΣΥΦΟΣ", "σίσυφος", "İstanbul", "istanbul", "ırmak", "IRMAK", "Ångström", "A\u{30A}ngstro\u{308}m",
        "cocoapods制作", "仓库", "カタカナ", "🕕", "plain", "PLAIN", "ǅemal", "ﬁle", "file",
    ]

    func testFoldingIsUnicodeFullCaseFoldingOnComposedText() {
        XCTAssertEqual(TextFolding.fold("Straße"), "strasse")
        XCTAssertEqual(TextFolding.fold("ΣΊΣΥΦΟΣ"), TextFolding.fold("σίσυφος"), "final and medial sigma fold alike")
        XCTAssertEqual(TextFolding.fold("СЕРАФИМИ"), "серафими")
        XCTAssertEqual(TextFolding.fold("A\u{30A}ngstro\u{308}m"), TextFolding.fold("Ångström"), "decomposed and composed fold alike")
        XCTAssertEqual(TextFolding.fold("ﬁle"), "file")
        XCTAssertEqual(TextFolding.fold("İstanbul"), "i\u{307}stanbul", "not the Turkic mapping")
        XCTAssertEqual(TextFolding.fold("ırmak"), "ırmak", "dotless i stays itself")
        XCTAssertEqual(TextFolding.fold("仓库🕕"), "仓库🕕")
        XCTAssertEqual(TextFolding.fold("MiXeD ascii 123"), "mixed ascii 123")
    }

    func testSavedRowsAndUnsavedObjectsMatchAlike() async throws {
        let (_, store, root) = try await storeHoldingTheCorpus()
        let main = ObjectContext(.main, parent: root)
        for word in Self.corpus { main.insert("Word")[Word.text] = word }  // the same again, unsaved

        for pattern in [
            "се", "СЕРАФ", "über", "ÜBER", "ubër", "strasse", "STRAẞE", "σίσυφ", "ΣΊΣΥΦΟΣ", "i̇stan", "ist", "ır", "IR",
            "ångström", "co", "仓", "カタ", "🕕", "pl", "ǆ", "fi",
        ] {
            for match in [ObjectPredicate.TextMatch.prefix, .suffix, .contains] {
                let predicate: ObjectPredicate =
                    switch match {
                    case .prefix: Word.text.hasPrefix(pattern, caseInsensitive: true)
                    case .suffix: Word.text.hasSuffix(pattern, caseInsensitive: true)
                    case .contains: Word.text.contains(pattern, caseInsensitive: true)
                    }
                let expected = Self.corpus.filter { word in
                    let (w, p) = (TextFolding.fold(word), TextFolding.fold(pattern))
                    return switch match {
                    case .prefix: w.utf8.starts(with: p.utf8)
                    case .suffix: w.utf8.reversed().starts(with: p.utf8.reversed())
                    case .contains: w.contains(p)
                    }
                }
                let saved = try await root.perform { ctx in
                    try ctx.fetch(FetchRequest("Word", where: predicate)).map { $0[Word.text] }
                }
                let all = try main.fetch(FetchRequest("Word", where: predicate)).map { $0[Word.text] }
                XCTAssertEqual(saved.sorted(), expected.sorted(), "\(match) \(pattern), saved rows (SQL)")
                XCTAssertEqual(all.sorted(), (expected + expected).sorted(), "\(match) \(pattern), saved and unsaved (memory)")
            }
        }
        let plainU = try await root.perform { ctx in
            try ctx.count(for: FetchRequest("Word", where: Word.text.hasPrefix("uber", caseInsensitive: true)))
        }
        XCTAssertEqual(plainU, 0, "ü is not u")
        try store.close()
    }

    func testACaseInsensitivePrefixReadsARangeOfTheFoldedIndexMadeOnAWritableOpen() async throws {
        let (model, store, _) = try await storeHoldingTheCorpus()
        try store.close()
        // A store made before the index was declared: a read-only open goes without it, a
        // writable open makes it.
        let other = try otherWritableConnection()
        try await other.write { try $0.execute(sql: #"DROP INDEX "Word_text_folded""#) }
        try other.close()
        let reader = try PersistentStore(url: storeURL, model: model, options: .init(readOnly: true))
        let found = try await ObjectContext(store: reader).perform {
            try $0.count(for: FetchRequest("Word", where: Word.text.hasPrefix("über", caseInsensitive: true)))
        }
        XCTAssertEqual(found, 3, "Über, über, ÜBER")
        try reader.close()
        XCTAssertFalse(try indexNames().contains("Word_text_folded"))

        let writer = try PersistentStore(url: storeURL, model: model)
        XCTAssertTrue(try indexNames().contains("Word_text_folded"))
        let plan = try writer.unsafeRead { db in
            try Row.fetchAll(
                db,
                sql:
                    #"EXPLAIN QUERY PLAN SELECT id FROM "Word" WHERE poddoc_fold("text") >= 'über' AND poddoc_fold("text") < 'über\#u{10FFFF}'"#
            )
            .map { $0["detail"] as String }.joined(separator: "; ")
        }
        XCTAssertTrue(plan.contains("Word_text_folded"), plan)
        try writer.close()
    }

    /// A store of `Word`s holding the corpus, saved, and its root context.
    func testTheFoldedCollationSortsAndComparesSavedRowsAndUnsavedObjectsAlike() async throws {
        let (_, _, root) = try await storeHoldingTheCorpus()
        let main = ObjectContext(.main, parent: root)
        let unsaved = ["ärger", "ÄRGER", "Zebra", "apfel"]
        for word in unsaved { main.insert("Word")[Word.text] = word }
        let order = [FetchSort(Word.text, collation: .folded), FetchSort(Word.text)]
        func expected(_ words: [String]) -> [String] {
            words.sorted { a, b in
                let c = Collation.folded.compare(a, b)
                return c != 0 ? c < 0 : Array(a.utf8).lexicographicallyPrecedes(Array(b.utf8))
            }
        }
        let saved = try await root.perform { ctx in try ctx.fetch(FetchRequest("Word", sortBy: order)).map { $0[Word.text] } }
        XCTAssertEqual(saved, expected(Self.corpus), "SQL (poddoc_fold) order")
        XCTAssertEqual(
            try main.fetch(FetchRequest("Word", sortBy: order)).map { $0[Word.text] }, expected(Self.corpus + unsaved), "in memory, merged")
        XCTAssertLessThan(saved.firstIndex(of: "plain")!, saved.firstIndex(of: "Straße")!, "case does not order: p before S")

        for (word, matches) in [
            ("ÜBER", ["Über", "über", "ÜBER"]), ("STRASSE", ["Straße", "STRASSE", "strasse"]), ("ÄRGER", ["ärger", "ÄRGER"]),
        ] {
            let predicate = Word.text.compare(.equal, word, collation: .folded)
            let found = try main.fetch(FetchRequest("Word", where: predicate)).map { $0[Word.text] }
            XCTAssertEqual(found.sorted(), matches.sorted(), word)
        }
    }

    private func storeHoldingTheCorpus() async throws -> (ObjectModel, PersistentStore, ObjectContext) {
        let model = try ObjectModel(version: 1, entities: [Word.entity])
        let store = try PersistentStore(url: storeURL, model: model)
        let root = ObjectContext(store: store)
        try await root.perform { ctx in
            for word in Self.corpus { ctx.insert("Word")[Word.text] = word }
            try ctx.save()
        }
        return (model, store, root)
    }

    private func otherWritableConnection() throws -> DatabaseQueue {
        try DatabaseQueue(path: storeURL.path)
    }

    private func indexNames() throws -> Set<String> {
        try Set(otherConnection().read { try String.fetchAll($0, sql: "SELECT name FROM sqlite_master WHERE type = 'index'") })
    }
}
