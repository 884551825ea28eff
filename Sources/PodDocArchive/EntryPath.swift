// MARK: - EntryRejection

/// Why a name or entry is refused: the error code and a sentence fragment saying why
/// (e.g. `contains a '..' component, which would escape the destination`).
struct EntryRejection: Error {
    var code: ArchiveError.Code
    var reason: String
}

// MARK: - EntryPath

/// A validated relative path inside an archive, a tree, or a manifest: non-empty components,
/// none of them `.` or `..`, no control characters or backslashes, within `NAME_MAX` and
/// `PATH_MAX`. The same rules apply when writing, extracting and reading manifests, so whatever
/// poddoc writes, it can read back.
struct EntryPath: Hashable {
    /// The path's components; empty for the root of the tree.
    let components: [String]

    /// The components joined with `/`.
    var string: String { components.joined(separator: "/") }

    /// The longest component and path accepted, in UTF-8 bytes (Linux `NAME_MAX`, `PATH_MAX`).
    private static let maximumComponentBytes = 255
    private static let maximumPathBytes = 4095

    private init(components: [String]) {
        self.components = components
    }

    /// The root of a tree.
    static let root = EntryPath(components: [])

    /// The first `count` components.
    func prefix(_ count: Int) -> EntryPath {
        EntryPath(components: Array(components.prefix(count)))
    }

    /// Validates a path as found in an archive or a manifest. `.` components are dropped, so
    /// `./a` is `a` and `./` is the root; `..`, empty components, absolute paths and bad
    /// characters are refused.
    ///
    /// - Parameter raw: The path, without the trailing `/` that marks a folder.
    static func validating(_ raw: String) throws(EntryRejection) -> EntryPath {
        if raw.isEmpty {
            throw EntryRejection(code: .invalidName, reason: "has an empty name")
        }
        if raw.hasPrefix("/") {
            throw EntryRejection(code: .absolutePath, reason: "is an absolute path, which would be written outside the destination")
        }
        if raw.utf8.count > maximumPathBytes {
            throw EntryRejection(code: .invalidName, reason: "is longer than \(maximumPathBytes) bytes")
        }
        var components: [String] = []
        for component in raw.split(separator: "/", omittingEmptySubsequences: false) {
            if component == "." { continue }
            components.append(try validatedComponent(String(component)))
        }
        return EntryPath(components: components)
    }

    /// Appends one file name found in a folder, validating it.
    ///
    /// - Parameter name: A single file name (no `/`).
    func appending(_ name: String) throws(EntryRejection) -> EntryPath {
        let path = EntryPath(components: components + [try Self.validatedComponent(name)])
        if path.string.utf8.count > Self.maximumPathBytes {
            throw EntryRejection(code: .invalidName, reason: "is longer than \(Self.maximumPathBytes) bytes")
        }
        return path
    }

    private static func validatedComponent(_ component: String) throws(EntryRejection) -> String {
        if component.isEmpty {
            throw EntryRejection(code: .invalidName, reason: "has an empty path component ('//', or a trailing '/' on a file)")
        }
        if component == ".." {
            throw EntryRejection(code: .pathTraversal, reason: "contains a '..' component, which would escape the destination")
        }
        if let control = component.unicodeScalars.first(where: { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }) {
            let code = "U+" + String(control.value, radix: 16, uppercase: true).leftPadded(to: 4)
            throw EntryRejection(code: .invalidName, reason: "contains the control character \(code)")
        }
        if component.contains("\\") {
            throw EntryRejection(code: .invalidName, reason: "contains a backslash, which is a path separator on Windows")
        }
        if component.utf8.count > maximumComponentBytes {
            throw EntryRejection(code: .invalidName, reason: "has a component longer than \(maximumComponentBytes) bytes")
        }
        return component
    }
}

extension String {
    /// The string with leading zeros added up to `length` characters.
    fileprivate func leftPadded(to length: Int) -> String {
        String(repeating: "0", count: max(0, length - count)) + self
    }
}
