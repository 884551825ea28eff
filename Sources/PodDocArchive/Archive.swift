// MARK: - Archive

/// Writing a document tree into one archive file, and extracting one safely.
///
/// - ``write(directory:to:format:options:fileSystem:)`` writes reproducibly: the same tree and
///   options give byte-identical archives.
/// - ``extract(archive:into:limits:manifestPolicy:checking:fileSystem:)`` treats the archive
///   as hostile until every entry has been checked.
/// - ``detectFormat(of:)`` tells what an archive is from its content.
public enum Archive {}
