/// What an export wrote.
public struct ExportSummary: Sendable, Hashable {
    /// Files written.
    public var files = 0
    /// Specs written.
    public var specs = 0
    /// Bytes written, over every file.
    public var bytes = 0
}
