// MARK: - Temporary names

/// Paths of hidden siblings used while saving: `.name.tmp-1a2b3c4d` for what is being written,
/// `.name.old-1a2b3c4d` for the previous version when a folder is moved aside.
enum TemporarySibling {
    /// Longest part of the target's name kept in a temporary name, so it stays under `NAME_MAX`.
    private static let maximumNameBytes = 200

    /// The parent folder of `path` (`/` for top-level items, `.` for bare names).
    static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        let parent = String(path[..<slash])
        return parent.isEmpty ? "/" : parent
    }

    /// A fresh hidden sibling of `path` whose name ends with `kind` and a random suffix.
    ///
    /// - Parameters:
    ///   - path: The target being saved.
    ///   - kind: `tmp` or `old`.
    static func path(for path: String, kind: String) -> String {
        var name = path.split(separator: "/").last.map(String.init) ?? path
        while name.utf8.count > maximumNameBytes { name.removeLast() }
        let suffix = String(UInt32.random(in: .min ... .max), radix: 16)
        return "\(parent(of: path))/.\(name).\(kind)-\(suffix)"
    }

    /// Whether `name` is one of the temporary names ``path(for:kind:)`` makes with `tmp`.
    static func isTemporary(_ name: String) -> Bool {
        guard name.hasPrefix("."), let dash = name.lastIndex(of: "-") else { return false }
        let suffix = name[name.index(after: dash)...]
        return name[..<dash].hasSuffix(".tmp") && !suffix.isEmpty && suffix.allSatisfy(\.isHexDigit)
    }
}
