import ArgumentParser
import Foundation
import PodDocDocument

/// The document a command works on, and what to do with work waiting for recovery.
struct DocumentArgument: ParsableArguments {
    @Argument(
        help: "The document: a Name.poddoc package, or an archive of one (.tar.zst, .zip, .tar.gz).",
        completion: .file())
    var document: String

    @Flag(name: .long, help: "Open the autosaved work waiting in the working copy.")
    var recover = false

    @Flag(name: .long, help: "Discard the autosaved work waiting in the working copy.")
    var discard = false

    func validate() throws {
        if recover && discard { throw ValidationError("Choose one of --recover and --discard, not both.") }
    }

    /// The document's location.
    var url: URL { URL(fileURLWithPath: document) }

    /// What opening does with a working copy holding unsaved work.
    var recovery: RecoveryChoice { recover ? .recover : discard ? .discard : .ask }
}
