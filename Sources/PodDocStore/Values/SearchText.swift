import Foundation
internal import GRDB
internal import GRDBSQLite

// MARK: - The text a full-text index holds

/// How a full-text index (``EntityDescription/fullTextAttributes``) sees text, and how a
/// search is put to it, so that words are found in every script.
///
/// SQLite's `unicode61` tokenizer splits text at spaces and punctuation. Chinese and Japanese
/// are written without spaces, and Korean attaches particles to words, so `unicode61` makes
/// one token of a whole run (`一个建立pod仓库的简单demo` is `一个建立pod仓库的简单demo`), and
/// only a prefix of that run could be found. The index therefore holds each run of CJK
/// characters (Han, kana, Hangul, Bopomofo) as its overlapping pairs, followed by the run's
/// last character alone: `仓库的简单` is indexed as `仓库 库的 的简 简单 单`. Every other
/// character is kept as it is, for `unicode61` (`remove_diacritics 2`) to split and fold.
///
/// A search then asks for CJK words as phrases of their pairs (`简单` is the pair `简单`,
/// `仓库的` the phrase `仓库 库的`), a single CJK character as a prefix (it starts a pair or is
/// a run's last character), and every other word as a prefix, all of them required. Ranking
/// is FTS5's BM25, over pairs for CJK text.
///
/// Before that, text is case-folded the Unicode way (as ``TextFolding`` folds it) and
/// width-folded, in the index and in the query alike, so a search matches as case-insensitive
/// listings do (`strasse` finds `Straße`, `σισυφος` finds `ΣΊΣΥΦΟΣ`) and `ﾀﾜｰ` finds `タワー`;
/// then accents are removed from Greek letters, as
/// `unicode61` removes those of Latin letters. ASCII text, which `unicode61` folds by
/// itself, is indexed unchanged without being decoded. The transformation runs in SQL
/// (`poddoc_search_text(text)`, registered on every connection of a store) as the index's
/// rows are written, so the index form lives in this one place. A store records the form of
/// its index (`formVersion`); a writable open of a store indexed in an older form rebuilds
/// the index from the rows.
public enum SearchText {
    /// The SQL function's name.
    static let sqlFunction = "poddoc_search_text"

    /// The `_poddoc_store` key recording which form a store's full-text indexes hold.
    static let formKey = "fullTextForm"

    /// The form this version writes; a store recording another is re-indexed when opened for
    /// writing.
    static let formVersion = "folded-cjk-pairs-2"

    /// `text` as the full-text index holds it: case-folded, with CJK runs as overlapping pairs
    /// (see the type's documentation); ASCII text unchanged.
    public static func indexed(_ text: String) -> String {
        // ASCII text is indexed as it is.
        guard !ASCIIBytes.contains(only: text.utf8) else { return text }
        let normalized = normalize(text)
        guard normalized.unicodeScalars.contains(where: isPaired) else { return normalized }
        var output = String.UnicodeScalarView()
        for run in runs(of: normalized) {
            guard run.isPaired, let last = run.scalars.last else {
                output.append(contentsOf: run.scalars)
                continue
            }
            output.append(" ")
            for (first, second) in zip(run.scalars, run.scalars.dropFirst()) {
                output.append(contentsOf: [first, second, " "])
            }
            output.append(contentsOf: [last, " "])
        }
        return String(output)
    }

    /// The FTS5 query for a search by free text: every word required, CJK words as phrases of
    /// their pairs, other words and single CJK characters as prefixes. Operators and quotes
    /// in `words` are taken as separators, never as FTS5 syntax.
    ///
    /// - Returns: The query, or nil when `words` holds no letter or digit.
    public static func matchExpression(for words: String) -> String? {
        let terms = self.terms(of: words).map { $0.isPhrase ? "\"\($0.text)\"" : "\"\($0.text)\"*" }
        return terms.isEmpty ? nil : terms.joined(separator: " ")
    }

    /// The terms of a search, each as the index holds its text: a CJK word as the phrase of
    /// its pairs, any other word (or a single CJK character) as a prefix.
    static func terms(of words: String) -> [(text: String, isPhrase: Bool)] {
        var terms: [(text: String, isPhrase: Bool)] = []
        for word in normalize(words).split(whereSeparator: { !$0.isLetter && !$0.isNumber }) {
            for run in runs(of: Substring(word)) {
                let scalars = run.scalars
                if run.isPaired, scalars.count > 1 {
                    terms.append((zip(scalars, scalars.dropFirst()).map { "\($0)\($1)" }.joined(separator: " "), true))
                } else {
                    terms.append((String(String.UnicodeScalarView(scalars)), false))
                }
            }
        }
        return terms
    }

    /// The scalars of `text` in order, cut into runs of CJK letters (``isPaired(_:)``) and runs
    /// of everything else.
    private static func runs(of text: some StringProtocol) -> [(isPaired: Bool, scalars: [Unicode.Scalar])] {
        var runs: [(isPaired: Bool, scalars: [Unicode.Scalar])] = []
        for scalar in text.unicodeScalars {
            let paired = isPaired(scalar)
            if let last = runs.indices.last, runs[last].isPaired == paired {
                runs[last].scalars.append(scalar)
            } else {
                runs.append((paired, [scalar]))
            }
        }
        return runs
    }

    /// Text as both the index and the query see it: folded, without Greek accents.
    private static func normalize(_ text: String) -> String {
        withoutGreekAccents(fold(text))
    }

    /// `text` case-folded as ``TextFolding`` folds it, and width-folded: full-width Latin
    /// (`ＪＳＯＮ`) and half-width kana (`ﾀﾜｰ`) as their usual forms, which is how Chinese and
    /// Japanese input methods often type them.
    private static func fold(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .widthInsensitive], locale: nil).precomposedStringWithCanonicalMapping
    }

    /// `text` with the accents of Greek letters removed (`ή` is `η`), as `unicode61` removes
    /// those of Latin letters and not of Greek ones. Other scripts keep their marks: in
    /// Cyrillic `й` is a letter of its own, in kana `が` is not `か`.
    private static func withoutGreekAccents(_ text: String) -> String {
        let isGreek = { (scalar: Unicode.Scalar) in (0x0370...0x03FF).contains(scalar.value) || (0x1F00...0x1FFF).contains(scalar.value) }
        guard text.unicodeScalars.contains(where: isGreek) else { return text }
        var output = String.UnicodeScalarView()
        for character in text {
            guard character.unicodeScalars.contains(where: isGreek) else {
                output.append(contentsOf: character.unicodeScalars)
                continue
            }
            output.append(
                contentsOf: String(character).decomposedStringWithCanonicalMapping.unicodeScalars
                    .filter { $0.properties.generalCategory != .nonspacingMark })
        }
        return String(output)
    }

    /// Whether a character is indexed in pairs: a letter of a CJK script.
    static func isPaired(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x1100...0x11FF,  // Hangul Jamo
            0x2E80...0x2FDF,  // CJK and Kangxi radicals
            0x3005...0x3007,  // 々 〆 〇
            0x3021...0x3029, 0x3031...0x3035, 0x3038...0x303C,
            0x3040...0x30FF,  // Hiragana, Katakana (with ー)
            0x3100...0x312F,  // Bopomofo
            0x3130...0x318F,  // Hangul compatibility Jamo
            0x31A0...0x31BF,  // Bopomofo extended
            0x31F0...0x31FF,  // Katakana phonetic extensions
            0x3400...0x4DBF,  // CJK extension A
            0x4E00...0x9FFF,  // CJK unified ideographs
            0xA960...0xA97F,  // Hangul Jamo extended A
            0xAC00...0xD7FF,  // Hangul syllables, Jamo extended B
            0xF900...0xFAFF,  // CJK compatibility ideographs
            0xFF66...0xFF9F,  // halfwidth Katakana
            0x20000...0x3FFFF:  // CJK extensions B and later
            // Punctuation inside these blocks (・, ゠) separates words.
            return scalar.properties.isAlphabetic
        default:
            return false
        }
    }

    // MARK: - SQL

    /// Registers `poddoc_search_text` on a connection (every store connection, and a
    /// benchmark's floor maintaining the same index): deterministic and innocuous.
    public static func register(onConnection connection: OpaquePointer) throws {
        try TextFunction.register(sqlFunction, on: connection) { context, count, values in
            guard count == 1, let value = values?[0] else { return }
            guard sqlite3_value_type(value) == SQLITE_TEXT, let bytes = sqlite3_value_text(value) else {
                // NULL, numbers and blobs are indexed as FTS5 would index them.
                sqlite3_result_value(context, value)
                return
            }
            let text = UnsafeBufferPointer(start: bytes, count: Int(sqlite3_value_bytes(value)))
            guard !ASCIIBytes.contains(only: text) else {
                sqlite3_result_value(context, value)
                return
            }
            TextFunction.result(context, SearchText.indexed(String(decoding: text, as: UTF8.self)))
        }
    }
}
