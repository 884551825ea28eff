import Foundation

extension CommandLineTestCase {
    /// `B.<ending>` (one item) and `Theirs.<ending>` (the same document as another writer
    /// saved it, with a second item), by way of the package `A.poddoc`.
    func makeDocuments(_ ending: String) throws {
        try succeed("new", path("A.poddoc"), "--kind", "outline")
        try succeed("outline", "add", path("A.poddoc"), "one")
        try succeed("save", path("A.poddoc"), "--as", path("B.\(ending)"))
        try succeed("save", path("A.poddoc"), "--as", path("Theirs.\(ending)"))
        try succeed("outline", "add", path("Theirs.\(ending)"), "theirs")
    }

    /// The document's own tree as it is on disk, read with a state folder of its own (so work
    /// waiting in this user's working copy is neither offered nor touched).
    func tree(_ document: String) throws -> String {
        let mine = environment
        environment["XDG_STATE_HOME"] = path("reader-state")
        defer { environment = mine }
        return try succeed("outline", "tree", path(document)).stdout
    }
}
