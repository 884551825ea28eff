import Foundation
import XCTest

/// The committed completion scripts and the command tree the man page was made from are what
/// the built `poddoc` generates: a changed command fails here until `make cli-docs` is run.
final class GeneratedDocsTests: CommandLineTestCase {
    func testCompletionScriptsAndManPageSourceAreCurrent() throws {
        let generated: [(String, [String])] = [
            ("completions/poddoc.bash", ["--generate-completion-script", "bash"]),
            ("completions/_poddoc", ["--generate-completion-script", "zsh"]),
            ("completions/poddoc.fish", ["--generate-completion-script", "fish"]),
            ("docs/man/poddoc-commands.json", ["--experimental-dump-help"]),
        ]
        for (file, arguments) in generated {
            let committed = try String(contentsOf: Self.repository.appending(path: file), encoding: .utf8)
            let result = try run(arguments)
            XCTAssertEqual(result.status, 0, result.stderr)
            XCTAssertTrue(result.stdout == committed, "\(file) is out of date: run `make cli-docs`")
        }
        let manual = try String(contentsOf: Self.repository.appending(path: "docs/man/poddoc.1"), encoding: .utf8)
        for command in ["new", "open", "info", "import", "export", "save", "check", "recover", "serve", "outline", "pods"] {
            XCTAssertTrue(manual.contains(command), "the man page covers \(command)")
        }
    }
}
