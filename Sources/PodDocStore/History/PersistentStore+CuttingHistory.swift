import Foundation
internal import GRDB
import PodDocJSON

// MARK: - Letting go of the history after a save

extension PersistentStore {
    /// Lets go of the history after save `save`: for a copy made to be the store as it was
    /// after that save (``ObjectContext/revert(to:)``, then this), whose history then ends
    /// there. Save numbers are still never given again.
    ///
    /// - Throws: ``StoreError`` when the store cannot be written.
    public func removeHistory(after save: Int) throws {
        do {
            try database.write { db in
                guard try HistoryTable.exists(db) else { return }
                try db.execute(sql: "DELETE FROM _poddoc_history WHERE first_save > ?", arguments: [save])
                try db.execute(
                    sql: "DELETE FROM _poddoc_store WHERE key GLOB 'history.state.*' AND CAST(substr(key, 15) AS INTEGER) > ?",
                    arguments: [save])
                // A run that went on past `save`: its later saves go, its earlier ones stay.
                // (A long entry, kept as the bytes of its JSON, is read as the text it is.)
                let rows = try Row.fetchAll(
                    db, sql: "SELECT save, first_save, CAST(changes AS TEXT) AS changes FROM _poddoc_history WHERE save > ?",
                    arguments: [save])
                for row in rows {
                    guard let first = row["first_save"] as Int64?, let changes = String.fromDatabaseValue(row["changes"]) else { continue }
                    let kept = changes.split(separator: "\n", omittingEmptySubsequences: false).prefix(save - Int(first) + 1)
                    try db.execute(
                        sql: "UPDATE _poddoc_history SET save = ?, changes = ? WHERE save = ?",
                        arguments: [save, kept.joined(separator: "\n"), row["save"] as Int64?])
                    if let old = row["save"] as Int64? { try SaveGraph.renumberSave(db, from: old, to: Int64(save)) }
                }
                try SaveGraph.cut(db, after: save)
            }
        } catch {
            throw StoreError.sqlite(error, while: "letting go of the history after save \(save)")
        }
    }
}
