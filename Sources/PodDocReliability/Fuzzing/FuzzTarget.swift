import Foundation

// MARK: - FuzzTarget

/// A reader of outside input under fuzzing: its seed inputs, how it reads one input, and
/// which errors count as a clean refusal.
///
/// A target passes when no input crashes it, hangs it, or gets anything but a clean refusal:
/// the reader's own typed error, whose message says what is wrong.
public struct FuzzTarget: Sendable {
    /// The target's name, e.g. `opml`.
    public let name: String
    /// Builds the seed inputs, from the fixtures folder (`Tests/Fixtures`) or from scratch.
    let seeds: @Sendable (_ fixtures: URL, _ scratch: URL) throws -> [Data]
    /// Reads one input; `scratch` is an empty folder of the target's own.
    let read: @Sendable (_ input: Data, _ scratch: URL) throws -> Void
    /// Whether an error the reader threw is a clean refusal.
    let isClean: @Sendable (any Error) -> Bool
    /// Words of the format the mutator splices in (tags, keys, punctuation).
    let tokens: [String]
}
