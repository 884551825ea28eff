/// The version of poddoc, written into documents and lock files.
public enum PodDocVersion {
    /// The version number.
    public static let current = "0.1.0"
    /// `poddoc <version>`.
    public static var writer: String { "poddoc \(current)" }
}
