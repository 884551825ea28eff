import Foundation

// MARK: - SourceDateEpoch

/// Reads `SOURCE_DATE_EPOCH` (<https://reproducible-builds.org/specs/source-date-epoch/>), the
/// conventional way to ask for a fixed time stamp in reproducible output.
public enum SourceDateEpoch {
    /// The value of `SOURCE_DATE_EPOCH`, if set.
    ///
    /// - Parameter environment: The environment to read.
    /// - Returns: The seconds since 1970, or `nil` when the variable is unset or empty.
    /// - Throws: ``ArchiveError/Code-swift.struct/invalidOption`` when it is set to anything but
    ///   a non-negative decimal integer (the specification asks tools to fail then).
    public static func value(in environment: [String: String] = ProcessInfo.processInfo.environment) throws -> Int64? {
        guard let text = environment["SOURCE_DATE_EPOCH"], !text.isEmpty else { return nil }
        guard text.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }), let value = Int64(text) else {
            throw ArchiveError(
                code: .invalidOption,
                message:
                    "SOURCE_DATE_EPOCH is set to \(quoted(text)), which is not a whole number of seconds since 1970. Unset it, or set it to a value like 1700000000.",
                archive: "SOURCE_DATE_EPOCH")
        }
        return value
    }
}
