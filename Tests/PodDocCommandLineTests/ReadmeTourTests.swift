import Foundation
import XCTest

/// The README's five-minute tour, run as it is written: its `sh` block becomes a bash script
/// (a shell session shown as prompts and answers becomes the shell's input), run with `set -e`
/// and the built `poddoc` first on the `PATH`, from a folder holding the repository's samples as
/// the repository's own folder does.
final class ReadmeTourTests: CommandLineTestCase {
    /// The `sh` block under "A five-minute tour".
    private func tourBlock() throws -> [String] {
        let readme = try String(contentsOf: Self.repository.appending(path: "README.md"), encoding: .utf8)
        let section = try XCTUnwrap(readme.components(separatedBy: "## A five-minute tour").dropFirst().first)
        let block = try XCTUnwrap(section.components(separatedBy: "```sh\n").dropFirst().first?.components(separatedBy: "\n```").first)
        return block.components(separatedBy: "\n")
    }

    /// The tour as a bash script: `poddoc open DOC` followed by prompt lines (`Notes.poddoc*> add
    /// Milk`) reads those lines as its input; lines the shell prints (`autosaved …`) are left out.
    static func script(from lines: [String]) -> String {
        let prompt = try! Regex(#"^\S+\.poddoc\*?( [0-9.]+)?> (.*)$"#)
        var script = ["set -euo pipefail"]
        var inSession = false
        for line in lines {
            if let match = line.wholeMatch(of: prompt) {
                if !inSession, let last = script.popLast() {
                    script.append(last + " <<'POD_SHELL'")
                    inSession = true
                }
                let input = String(match.output[2].substring ?? "")
                script.append(input.replacingOccurrences(of: #"\s+#.*$"#, with: "", options: .regularExpression))
                continue
            }
            if inSession && line.hasPrefix("autosaved ") { continue }
            if inSession {
                script.append("POD_SHELL")
                inSession = false
            }
            script.append(line)
        }
        if inSession { script.append("POD_SHELL") }
        return script.joined(separator: "\n") + "\n"
    }

    func testTheReadmeTourRunsAsWritten() throws {
        let lines = try tourBlock()
        XCTAssertTrue(lines.contains { $0.hasPrefix("Notes.poddoc> add Groceries") }, "the tour shows a shell session")
        let script = Self.script(from: lines)
        XCTAssertTrue(script.contains("poddoc open Notes.poddoc --autosave-interval 1 <<'POD_SHELL'\nadd Groceries\n"), script)
        let start = path("repository")
        try FileManager.default.createDirectory(atPath: start, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: start + "/SampleDocuments", withDestinationPath: Self.repository.appending(path: "SampleDocuments").path)
        try script.write(toFile: path("tour.sh"), atomically: true, encoding: .utf8)

        let environment = try environmentWithPoddocOnPath()
        let toured = try runProgram(URL(fileURLWithPath: "/bin/bash"), [path("tour.sh")], in: start, environment: environment)
        XCTAssertEqual(toured.status, 0, "the tour stopped:\n\(toured.stderr)\n\(toured.stdout)\n--- script:\n\(script)")
        XCTAssertTrue(toured.stdout.contains("Imported 300 specs"), toured.stdout)
        let tree = try succeed("outline", "tree", start + "/tour/Notes.poddoc").stdout
        XCTAssertTrue(tree.contains("Call the plumber"), "the copy's edit came back with the merge: \(tree)")
    }
}
