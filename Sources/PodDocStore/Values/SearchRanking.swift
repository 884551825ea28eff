import Foundation
internal import GRDB
internal import GRDBSQLite

// MARK: - Ranking full-text matches

/// The order of full-text search results: `poddoc_rank(table, weight…)`, an FTS5 auxiliary
/// function registered on every connection of a store; smaller is better, as with FTS5's
/// `bm25`.
///
/// The score is BM25 without its length normalisation: for each phrase of the query, its
/// inverse document frequency times, per column, the column's weight (as with `bm25`'s
/// arguments; 1 when not given) times `tf × (k1 + 1) / (tf + k1)` with `k1 = 1.2`. A column
/// weighted above twice the others' sum ranks every match in it first: `tf × (k1 + 1) /
/// (tf + k1)` is 1 for one match and never reaches 2.2.
/// FTS5's own `bm25` also reads each matching row's length, one B-tree lookup a row, which
/// makes ranking a word that most rows hold several times slower; a spec's summary is short
/// enough that its length says little.
///
/// A query of one phrase needs no document frequency (it scales every score alike); for
/// several, each phrase's is counted once per query.
enum SearchRanking {
    /// The SQL function's name.
    static let sqlFunction = "poddoc_rank"

    /// BM25's term-frequency saturation.
    private static let k1 = 1.2

    /// Registers `poddoc_rank` with the connection's FTS5.
    static func register(on db: Database) {
        let api = FTS5.api(db)
        _ = api.pointee.xCreateFunction(
            UnsafeMutablePointer(mutating: api), sqlFunction, nil,
            { extensionAPI, fts, context, count, arguments in
                guard let api = extensionAPI?.pointee, let fts else { return }
                let phrases = Int(api.xPhraseCount(fts))
                let columns = Int(api.xColumnCount(fts))
                func weight(_ column: Int) -> Double {
                    guard column < Int(count), let argument = arguments?[column] else { return 1 }
                    return sqlite3_value_double(argument)
                }
                guard phrases > 0, columns > 0 else {
                    sqlite3_result_double(context, 0)
                    return
                }
                guard let weights = SearchRanking.phraseWeights(api, fts, phrases: phrases) else {
                    sqlite3_result_error_code(context, SQLITE_NOMEM)
                    return
                }
                var instances: Int32 = 0
                guard api.xInstCount(fts, &instances) == SQLITE_OK else {
                    sqlite3_result_error(context, "poddoc_rank could not read the matches", -1)
                    return
                }
                let score = withUnsafeTemporaryAllocation(of: Int32.self, capacity: phrases * columns) { counts -> Double in
                    counts.initialize(repeating: 0)
                    for instance in 0..<instances {
                        var phrase: Int32 = 0
                        var column: Int32 = 0
                        var offset: Int32 = 0
                        guard api.xInst(fts, instance, &phrase, &column, &offset) == SQLITE_OK,
                            Int(phrase) < phrases, Int(column) < columns
                        else { continue }
                        counts[Int(phrase) * columns + Int(column)] += 1
                    }
                    var score = 0.0
                    for phrase in 0..<phrases {
                        var sum = 0.0
                        for column in 0..<columns {
                            let tf = Double(counts[phrase * columns + column])
                            guard tf > 0 else { continue }
                            sum += weight(column) * tf * (SearchRanking.k1 + 1) / (tf + SearchRanking.k1)
                        }
                        score += weights[phrase] * sum
                    }
                    return score
                }
                sqlite3_result_double(context, -score)
            }, nil)
    }

    /// Each phrase's weight for this query: 1 for a query of one phrase, else its inverse
    /// document frequency, counted on the first row and kept with the query (auxiliary data).
    private static func phraseWeights(_ api: Fts5ExtensionApi, _ fts: OpaquePointer, phrases: Int) -> UnsafeMutablePointer<Double>? {
        if let kept = api.xGetAuxdata(fts, 0) { return kept.assumingMemoryBound(to: Double.self) }
        let weights = UnsafeMutablePointer<Double>.allocate(capacity: phrases)
        weights.initialize(repeating: 1, count: phrases)
        if phrases > 1 {
            var rows: Int64 = 0
            _ = api.xRowCount(fts, &rows)
            for phrase in 0..<phrases {
                var holding: Int64 = 0
                _ = api.xQueryPhrase(fts, Int32(phrase), &holding) { _, _, counter in
                    counter?.assumingMemoryBound(to: Int64.self).pointee += 1
                    return SQLITE_OK
                }
                let n = Double(holding)
                let total = Double(rows)
                // BM25's idf, kept above a small floor so a word in most rows still counts.
                weights[phrase] = max(1e-6, log((total - n + 0.5) / (n + 0.5)))
            }
        }
        guard api.xSetAuxdata(fts, weights, { $0?.assumingMemoryBound(to: Double.self).deallocate() }) == SQLITE_OK else {
            return nil
        }
        return weights
    }
}
