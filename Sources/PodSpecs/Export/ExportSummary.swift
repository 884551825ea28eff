/// What an export wrote.
public struct ExportSummary: Sendable, Hashable {
    /// Files written.
    public var files = 0
    /// Specs written.
    public var specs = 0
    /// Specs not written, with the reason (a name that cannot be a file name, say).
    public var refused: [RejectedSpec] = []
}
