import Foundation

/// Quoting for POSIX shells (and the poddoc shell), for the commands messages suggest: a word
/// left as it is when it is safe, else in single quotes, each `'` written `'\''`.
public enum ShellQuoting {
    /// `word` as one word of a shell command line.
    public static func quote(_ word: String) -> String {
        let safe = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./:=@%+,")
        if !word.isEmpty, word.unicodeScalars.allSatisfy(safe.contains) { return word }
        return "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
