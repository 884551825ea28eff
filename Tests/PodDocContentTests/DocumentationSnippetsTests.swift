import Foundation
import XCTest

/// Every Swift snippet of README.md and of the DocC articles compiles: they are gathered into
/// `DocumentationSnippets.swift` in this test target, one function a document (each document's
/// snippets in order, so later ones use what earlier ones declared), which builds with the
/// tests. This test checks that file is what the documents hold now; to write it again after a
/// snippet changed: `make doc-snippets`.
///
/// A snippet may use a few names its article introduces in words (a `folder`, a `document`, a
/// `model`…): they are the functions' parameters (``givens``), and a snippet's own declaration
/// of the same name shadows them. Blocks declaring a package (`import PackageDescription`, or a
/// first line `// Package.swift`) are not Swift an app compiles, and are left out.
final class DocumentationSnippetsTests: XCTestCase {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let generatedFile = repository.appending(path: "Tests/PodDocContentTests/DocumentationSnippets.swift")

    /// The names snippets may use without declaring them.
    static let givens = """
        folder: URL, url: URL, model: ObjectModel, store: PersistentStore, root: ObjectContext, main: ObjectContext,
            worker: ObjectContext, document: ManagedDocument, specs: [(name: String, version: String)]
        """

    func testEverySwiftSnippetOfTheDocumentationIsCompiled() throws {
        let (text, count) = try Self.generate()
        if ProcessInfo.processInfo.environment["WRITE_SNIPPETS"] == "1" {
            try text.write(to: Self.generatedFile, atomically: true, encoding: .utf8)
        }
        XCTAssertGreaterThanOrEqual(count, 18, "README.md and the articles hold at least this many snippets")
        let committed = try String(contentsOf: Self.generatedFile, encoding: .utf8)
        XCTAssertTrue(
            committed == text,
            "DocumentationSnippets.swift is not what README.md and the DocC articles hold: run `make doc-snippets`, then build")
    }

    /// The documents with Swift snippets, README.md first, then the articles by path.
    static func documents() throws -> [URL] {
        var articles: [URL] = []
        let sources = repository.appending(path: "Sources")
        for case let path as String in FileManager.default.enumerator(atPath: sources.path)!
        where path.hasSuffix(".md") && path.contains(".docc/") {
            articles.append(sources.appending(path: path))
        }
        return [repository.appending(path: "README.md")] + articles.sorted { $0.path < $1.path }
    }

    /// The Swift blocks of a Markdown text.
    static func swiftBlocks(of markdown: String) -> [[String]] {
        var blocks: [[String]] = []
        var current: [String]?
        for line in markdown.components(separatedBy: "\n") {
            if current == nil, line.trimmingCharacters(in: .whitespaces) == "```swift" {
                current = []
            } else if current != nil, line.trimmingCharacters(in: .whitespaces) == "```" {
                blocks.append(current!)
                current = nil
            } else if current != nil {
                current!.append(line)
            }
        }
        return blocks.filter { block in
            !block.contains { $0.contains("import PackageDescription") } && block.first?.hasPrefix("// Package.swift") != true
        }
    }

    /// The generated file and the number of snippets in it.
    static func generate() throws -> (text: String, count: Int) {
        var imports: Set<String> = ["import Foundation"]
        var functions: [String] = []
        var count = 0
        for document in try documents() {
            let blocks = swiftBlocks(of: try String(contentsOf: document, encoding: .utf8))
            guard !blocks.isEmpty else { continue }
            count += blocks.count
            let relative = String(document.path.dropFirst(repository.path.count + 1))
            var body: [String] = []
            for (index, block) in blocks.enumerated() {
                body.append("    // \(relative), snippet \(index + 1)")
                for line in block {
                    if line.hasPrefix("import ") {
                        imports.insert(line.trimmingCharacters(in: .whitespaces))
                    } else {
                        body.append(line.isEmpty ? "" : "    " + line)
                    }
                }
            }
            let name = relative.components(separatedBy: CharacterSet.alphanumerics.inverted).filter { !$0.isEmpty }
                .map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
            functions.append(
                """
                @MainActor
                func snippetsOf\(name)(
                    \(givens)
                ) async throws {
                \(body.joined(separator: "\n"))
                }
                """)
        }
        let header = """
            // Generated from the Swift snippets of README.md and the DocC articles by
            // Tests/PodDocContentTests/DocumentationSnippetsTests.swift (`make doc-snippets`); do not
            // edit. It is compiled with the tests, so a snippet that no longer compiles fails the build.
            // swift-format-ignore-file

            """
        let given = """
            /// An entity of the model articles edit, as they describe it in words.
            enum Item {
                static let title = Attribute<String>("title", default: "")
            }
            """
        let text =
            header + imports.sorted().joined(separator: "\n") + "\n\n" + given + "\n\n"
            + functions.joined(separator: "\n\n") + "\n"
        return (text, count)
    }
}
