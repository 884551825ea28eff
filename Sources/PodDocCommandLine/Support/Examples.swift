/// The examples a command's help ends with, which the man page gathers in its EXAMPLES:
/// whole command lines a user can paste, run as they are by `DocumentedExamplesTests` in a
/// folder holding the files they name (`Notes.poddoc`, an outline; `Specs.poddoc`, pods;
/// `Notes.poddoc.tar.zst`, `Notes-base.poddoc.tar.zst` and `Notes-laptop.poddoc.tar.zst`,
/// copies of the outline;
/// `notes.opml`; `specs.json`, a page of specs). A `#` starts a comment.
enum Examples {
    /// `text`, then a paragraph `Examples:` with one command line an indented line.
    static func discussion(_ text: String, _ lines: [String]) -> String {
        text + "\n\n" + discussion(lines)
    }

    /// A paragraph `Examples:` with one command line an indented line.
    static func discussion(_ lines: [String]) -> String {
        "Examples:\n" + lines.map { "  " + $0 }.joined(separator: "\n")
    }
}
