import Foundation
import GRDB
import PodDocFileSystem
import PodDocStore
import PodDocTesting
import XCTest

@testable import PodDocDocument

enum Note {
    static let title = Attribute<String>("title", default: "")
    static let body = Attribute<String?>("body")
    static let entity = EntityDescription("Note", members: [title, body])
    static let model: ObjectModel = {
        do { return try ObjectModel(entities: [entity]) } catch { fatalError("\(error)") }
    }()
}

extension DocumentKind {
    /// The kind of the documents these tests make: notes, a kind this module does not know.
    static let notes = DocumentKind("org.poddoc.tests.notes")
}

/// Base class: a temporary folder, a private state folder for working copies, and helpers.
@MainActor
class DocumentTestCase: XCTestCase {
    private(set) var folder: URL!

    override func setUp() async throws {
        folder = try TemporaryFolder.make("poddoc-doc-tests")
    }

    override func tearDown() async throws {
        try? FileManager.default.removeItem(at: folder)
    }

    /// Options with autosave off, working copies under the test folder.
    var options: ManagedDocument.OpenOptions { .isolated(in: folder) }

    func url(_ name: String) -> URL { folder.appending(path: name) }

    func titles(_ document: ManagedDocument) throws -> [String] {
        try document.mainContext.fetch(FetchRequest("Note", sortBy: [FetchSort(Note.title)])).map { $0[Note.title] }
    }

    func addNote(_ document: ManagedDocument, _ title: String) {
        document.mainContext.insert("Note")[Note.title] = title
    }

    /// Titles in a store file, read with a separate read-only connection.
    func titlesOnDisk(_ store: URL) throws -> [String] {
        var config = Configuration()
        config.readonly = true
        return try DatabaseQueue(path: store.path, configuration: config).read {
            try String.fetchAll($0, sql: #"SELECT title FROM "Note" ORDER BY title"#)
        }
    }

    func integrityCheck(_ store: URL) throws -> String {
        try DatabaseQueue(path: store.path).read { try String.fetchOne($0, sql: "PRAGMA integrity_check") ?? "" }
    }
}
