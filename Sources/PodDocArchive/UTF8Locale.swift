import Glibc

// MARK: - UTF-8 locale

/// Runs `body` with the calling thread's character-type locale set to `C.UTF-8`.
///
/// libarchive converts every name between the process locale and UTF-8. A Swift program runs
/// in the `C` locale (ASCII), where any non-ASCII name fails to convert ("Can't translate
/// pathname"). `uselocale` changes the locale for this thread only, and only for the duration
/// of the call, so nothing else in the process is affected. Create and use libarchive handles
/// inside `body` only: a handle remembers the locale's character set when first used.
///
/// - Parameter body: The work that uses libarchive.
/// - Returns: What `body` returns.
/// - Throws: What `body` throws.
func withUTF8Locale<Result>(_ body: () throws -> Result) rethrows -> Result {
    guard let utf8 = newlocale(LC_CTYPE_MASK, "C.UTF-8", nil) else { return try body() }
    let previous = uselocale(utf8)
    defer {
        uselocale(previous)
        freelocale(utf8)
    }
    return try body()
}
