import Foundation
import GRDB
import XCTest

/// Documents written with an earlier version of a shipped model (Tests/Fixtures/model-N) open
/// with every later poddoc: reading changes no byte, exports are the same, and the first
/// edit upgrades them.
final class ModelVersionTests: CommandLineTestCase {
    private static let modelOne = repository.appending(path: "Tests/Fixtures/model-1")

    /// The model-1 documents, copied into the test's folder (the committed ones never change).
    private func copyModelOneDocuments() throws -> [String] {
        let names = ["outline-sample.poddoc", "outline-sample.poddoc.tar.zst", "pods-sample.poddoc", "pods-sample.poddoc.tar.zst"]
        for name in names {
            try FileManager.default.copyItem(at: Self.modelOne.appending(path: name), to: URL(fileURLWithPath: path(name)))
        }
        return names.map(path)
    }

    /// The recorded SHA-256 of each export, by `NAME.FORMAT` (`outline-sample.opml`).
    private func recordedExports() throws -> [String: String] {
        let text = try String(contentsOf: Self.modelOne.appending(path: "exports.sha256"), encoding: .utf8)
        return Dictionary(
            uniqueKeysWithValues: text.split(separator: "\n").map { line in
                let parts = line.split(separator: " ", omittingEmptySubsequences: true)
                return (String(parts[1]), String(parts[0]))
            })
    }

    func testReadingAModelOneDocumentChangesNoByteAndExportsTheSameContent() throws {
        let recorded = try recordedExports()
        for doc in try copyModelOneDocuments() {
            let name = URL(fileURLWithPath: doc).lastPathComponent
            let base = String(name.prefix { $0 != "." })
            let before = doc.hasSuffix(".poddoc") ? try hashes(doc) : ["": try runTool("/usr/bin/sha256sum", [doc]).stdout]
            try succeed("info", doc)
            try succeed("info", doc, "--json")
            try succeed("check", doc)
            try succeed("versions", doc)
            try succeed("diff", doc, "--from", "1")
            let formats = base.hasPrefix("pods") ? ["json", "csv"] : ["opml", "markdown"]
            for format in formats {
                let out = path("\(name).\(format)")
                try succeed("export", doc, out, "--format", format)
                let ending = format == "markdown" ? "md" : format
                let digest = try runTool("/usr/bin/sha256sum", [out]).stdout.split(separator: " ").first.map(String.init)
                XCTAssertEqual(digest, recorded["\(base).\(ending)"], "\(name) exports the same \(format)")
            }
            let after = doc.hasSuffix(".poddoc") ? try hashes(doc) : ["": try runTool("/usr/bin/sha256sum", [doc]).stdout]
            XCTAssertEqual(after, before, "reading \(name) changes no byte")
        }
    }

    func testADocumentOfANewerModelIsReadAndRefusedForEditingWithBothVersionsNamed() throws {
        let doc = try copyModelOneDocuments()[0]
        // As a poddoc with model 2 of outlines would leave it: the tables this one reads are there.
        let store = try DatabaseQueue(path: doc + "/StoreContent/persistentStore")
        try store.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA user_version = 2") }
        try store.close()
        let before = try hashes(doc)
        let refused = try fail(66, "outline", "add", doc, "one more")
        XCTAssertEqual(
            refused.stderr,
            "poddoc: \(doc) was made by a newer poddoc: model 2, this poddoc knows up to 1; nothing changed. Open it with a newer poddoc.\n"
        )
        XCTAssertTrue(
            try succeed("info", doc).stdout.contains(
                "model          version 2, from a newer poddoc (this one knows up to 1): it reads, it does not edit"))
        XCTAssertTrue(try succeed("info", doc, "--json").stdout.contains(#""model":{"thisPoddoc":1,"upgrade":"newer","version":2}"#))
        XCTAssertTrue(try succeed("outline", "ls", doc).stdout.hasPrefix("1. Small Picture worknotes"))
        try succeed("check", doc)
        XCTAssertEqual(try hashes(doc), before, "nothing changed")
    }

    func testTheFirstEditOfAModelOneDocumentRecordsItsModelAndInfoSaysItIsUpToDate() throws {
        for doc in try copyModelOneDocuments() {
            let kind = doc.contains("pods") ? "pods" : "outline"
            XCTAssertTrue(try succeed("info", doc).stdout.contains("model          version 1 (up to date)"), doc)
            if kind == "outline" {
                try succeed("outline", "add", doc, "one more")
            } else {
                try succeed("save", doc)
            }
            try succeed("check", doc)
            XCTAssertTrue(
                try succeed("info", doc, "--json").stdout.contains(#""model":{"thisPoddoc":1,"upgrade":"none","version":1}"#), doc)
        }
    }
}
