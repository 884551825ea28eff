import Crypto

// MARK: - SpecFileName

/// How a spec's name or version becomes one folder or file name of a `Specs/` tree
/// (`Name/version/Name.podspec.json`), for every name a spec can have.
///
/// A name that is a plain file name is used as it is, as CocoaPods does. Any other is escaped:
/// `%`, `/` and NUL are written `%25`, `%2F` and `%00`, and `.` and `..` are written `%2E` and
/// `%2E%2E`; an escaped name over ``maximumLength`` bytes keeps its first 150 bytes and ends
/// with `%~` and 32 hex digits of the SHA-256 of the whole name. Different names always give
/// different folder names (up to SHA-256 collisions), and a reader of the tree takes a spec's
/// name from its JSON, so nothing needs unescaping: ``SpecsFolder`` checks the folders against
/// the escaped name.
enum SpecFileName {
    /// The longest name written, in bytes: with `.podspec.json` it stays under the 255 of
    /// Linux file systems.
    static let maximumLength = 200

    /// The folder (or file-name stem) for a spec's name or version.
    static func of(_ part: String) -> String {
        if isPlain(part) { return part }
        if part == "." || part == ".." { return String(repeating: "%2E", count: part.count) }
        var units: [String] = []
        for scalar in part.unicodeScalars {
            switch scalar {
            case "%": units.append("%25")
            case "/": units.append("%2F")
            case "\0": units.append("%00")
            default: units.append(String(scalar))
            }
        }
        let escaped = units.joined()
        guard escaped.utf8.count > maximumLength else { return escaped }
        var prefix = ""
        for unit in units {
            guard prefix.utf8.count + unit.utf8.count <= 150 else { break }
            prefix += unit
        }
        let digest = SHA256.hash(data: Array(part.utf8)).prefix(16).map { hexDigits[Int($0 >> 4)] + hexDigits[Int($0 & 0xF)] }
        return prefix + "%~" + digest.joined()
    }

    /// Whether `part` is written as it is: not `.` or `..`, not empty, at most
    /// ``maximumLength`` bytes, without `/`, NUL or `%`.
    static func isPlain(_ part: String) -> Bool {
        part != "." && part != ".." && !part.isEmpty && part.utf8.count <= maximumLength
            && !part.utf8.contains(where: { $0 == 0 || $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "%") })
    }

    private static let hexDigits = "0123456789abcdef".map(String.init)
}
