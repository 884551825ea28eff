/// What a document holds.
public enum DocumentKind: String, Sendable, Hashable, Codable, CaseIterable {
    /// CocoaPods specs.
    case pods
    /// An outline: a tree of items.
    case outline
}
