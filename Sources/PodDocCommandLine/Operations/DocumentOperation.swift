import ArgumentParser
import PodDocDocument

/// One thing to do with an open document, the same in the shell (`add Milk --under 1`) and
/// as a one-shot command (`poddoc outline add DOC Milk --under 1`, see ``OneShot``).
protocol DocumentOperation: ParsableArguments {
    /// The command's name (`add`, `search` …).
    static var name: String { get }
    /// One line saying what it does.
    static var abstract: String { get }
    /// Two or three whole command lines using it (see ``Examples``).
    static var examples: [String] { get }
    /// The kind of document it works on; nil for both kinds.
    static var kind: DocumentKind? { get }
    /// Whether it changes the document (a one-shot then opens it for writing and saves).
    static var changesDocument: Bool { get }
    /// Whether this use of it changes the document; ``changesDocument`` unless the options
    /// say otherwise (`save --as` only reads the document it copies).
    var changesDocument: Bool { get }

    /// Does the work and prints the result.
    @MainActor func perform(in session: DocumentSession) async throws
}

extension DocumentOperation {
    var changesDocument: Bool { Self.changesDocument }
}
