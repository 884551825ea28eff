import OutlineInterchange

// MARK: - ActionName

/// The names of outline actions as undo and redo show them: `Add "Groceries"`,
/// `Delete "Work" and 12 items`, `Import 1,329 items`.
enum ActionName {
    /// Titles longer than this are cut, with an ellipsis.
    static let titleLength = 40

    static func add(_ title: String) -> String { "Add \(quoted(title))" }
    static func rename(_ old: String, to new: String) -> String { "Rename \(quoted(old)) to \(quoted(new))" }
    static func setNote(_ title: String, removing: Bool) -> String { "\(removing ? "Remove" : "Set") note of \(quoted(title))" }
    static func move(_ title: String) -> String { "Move \(quoted(title))" }
    static func mark(_ title: String, _ status: OutlineStatus?) -> String {
        status.map { "Mark \(quoted(title)) \($0.rawValue)" } ?? "Unmark \(quoted(title))"
    }
    static func indent(_ title: String) -> String { "Indent \(quoted(title))" }
    static func outdent(_ title: String) -> String { "Outdent \(quoted(title))" }

    static func delete(_ title: String, descendants: Int) -> String {
        descendants == 0 ? "Delete \(quoted(title))" : "Delete \(quoted(title)) and \(items(descendants))"
    }

    static func importItems(_ count: Int) -> String { "Import \(items(count))" }

    /// `"Groceries"`: on one line, cut when long.
    static func quoted(_ title: String) -> String {
        let line = String(decoding: LineEscaping.escape(title), as: UTF8.self)
        let cut = line.count > titleLength ? line.prefix(titleLength - 1) + "…" : Substring(line)
        return "\"\(cut)\""
    }

    /// `1 item`, `12 items`, `1,329 items`.
    static func items(_ count: Int) -> String {
        "\(grouped(count)) \(count == 1 ? "item" : "items")"
    }

    /// The number with a comma between groups of three digits, whatever the locale.
    static func grouped(_ number: Int) -> String {
        let digits = Array(String(number.magnitude))
        var text = ""
        for (index, digit) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { text.append(",") }
            text.append(digit)
        }
        return number < 0 ? "-" + text : text
    }
}
