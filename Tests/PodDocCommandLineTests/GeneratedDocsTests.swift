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

    /// The man page is a man page: its sections in order (EXIT STATUS and EXAMPLES of their
    /// own, not inside DESCRIPTION), every example `--help` shows, a real date, and nothing
    /// `groff` warns about.
    func testTheManPageHasItsSectionsEveryExampleAndNoWarnings() throws {
        let manual = try String(contentsOf: Self.repository.appending(path: "docs/man/poddoc.1"), encoding: .utf8)
        let sections = manual.split(separator: "\n").filter { $0.hasPrefix(".Sh ") }.map { String($0.dropFirst(4)) }
        XCTAssertEqual(sections, ["NAME", "SYNOPSIS", "DESCRIPTION", "EXIT STATUS", "EXAMPLES", "AUTHORS"])
        XCTAssertFalse(manual.contains("\nEXIT STATUS\n"), "the exit statuses are a section, not text")
        XCTAssertFalse(manual.contains("Examples:"), "the examples are gathered in EXAMPLES")
        XCTAssertFalse(manual.contains(".Dd January 1, 2026"), "a real date")
        let examples = try documentedCommands().flatMap(\.examples)
        XCTAssertGreaterThan(examples.count, 60)
        for example in examples {
            let roff = example.replacingOccurrences(of: "\\", with: "\\e")
            XCTAssertTrue(manual.contains("\n" + roff + "\n"), "EXAMPLES shows `\(example)`")
        }
        // `make bootstrap` installs groff (Debian's groff-base) with the other test programs.
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: "/usr/bin/groff"), "groff is installed (make bootstrap)")
        let checked = try runTool("/usr/bin/groff", ["-mdoc", "-ww", "-z", Self.repository.appending(path: "docs/man/poddoc.1").path])
        XCTAssertEqual(checked.status, 0, checked.stderr)
        XCTAssertEqual(checked.stderr, "", "groff has nothing to warn about")
    }
}
