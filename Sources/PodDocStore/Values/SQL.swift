import Foundation

/// Small helpers for writing SQL text.
enum SQL {
    /// Quotes an identifier for SQLite: `"name"`, doubling any quote inside.
    static func quote(_ identifier: String) -> String {
        "\"" + identifier.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
